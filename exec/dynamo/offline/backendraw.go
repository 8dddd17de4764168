package offline

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
)

// Raw is the fast read path over the Backend, deciding as its requests
// do: a Scan of a table not loaded yet renders its streamed page as a
// body for the wire decoder; a Query loads the table first; everything
// else is RawReader's.
func (b *Backend) Raw() rawpage.Reader { return backendRaw{b: b, db: rawReader{db: b.DB}} }

type backendRaw struct {
	b  *Backend
	db rawReader
}

func (r backendRaw) Query(ctx context.Context, in *dynamodb.QueryInput, mem memory.Allocator, keys []string) (*rawpage.Page, error) {
	if err := r.b.ensure(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	return r.db.Query(ctx, in, mem, keys)
}

func (r backendRaw) Scan(ctx context.Context, in *dynamodb.ScanInput, mem memory.Allocator, keys []string) (*rawpage.Page, error) {
	if err := r.b.ensureChain(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	lt := r.b.streamed(in)
	if lt == nil {
		return r.db.Scan(ctx, in, mem, keys)
	}
	buf := bodies.Get().(*[]byte)
	defer putBody(buf)
	var rec *recordingFeed
	out, err := r.b.streamPage(in, lt, func(src memdb.ScanSource) (*dynamodb.ScanOutput, error) {
		rec = &recordingFeed{feed: src.Feed}
		src.Feed = rec
		out, body, err := r.b.DB.ScanFeedJSON(ctx, in, src, (*buf)[:0])
		*buf = body
		rec.positioned = src.Positioned
		return out, err
	})
	if err != nil {
		return nil, err
	}
	p := &rawpage.Page{LastEvaluatedKey: out.LastEvaluatedKey, Count: out.Count, ScannedCount: out.ScannedCount, ConsumedCapacity: out.ConsumedCapacity}
	return decodeInto(p, *buf, mem, keys, func() (*rawpage.Page, error) {
		// The stream has moved on: the same items make the same page.
		o, err := r.b.DB.ScanFeed(ctx, in, memdb.ScanSource{Feed: &sliceFeed{items: rec.items}, Positioned: rec.positioned})
		if err != nil {
			return nil, err
		}
		return sdkPage(o.Items, o.LastEvaluatedKey, o.Count, o.ScannedCount, mem, keys, o.ConsumedCapacity)
	})
}

// recordingFeed keeps the items a page read, to serve that page again.
type recordingFeed struct {
	feed       memdb.Feed
	items      []memdb.FedItem
	positioned bool
}

func (f *recordingFeed) Next(ctx context.Context) (memdb.FedItem, bool, error) {
	it, ok, err := f.feed.Next(ctx)
	if ok {
		f.items = append(f.items, it)
	}
	return it, ok, err
}

// sliceFeed feeds items held in memory.
type sliceFeed struct{ items []memdb.FedItem }

func (f *sliceFeed) Next(context.Context) (memdb.FedItem, bool, error) {
	if len(f.items) == 0 {
		return memdb.FedItem{}, false, nil
	}
	it := f.items[0]
	f.items = f.items[1:]
	return it, true, nil
}
