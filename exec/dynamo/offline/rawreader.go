package offline

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/exec/dynamo/wire"
)

// RawReader is the fast read path over a loaded DB, as exec/dynamo/wire is
// for DynamoDB: memdb renders each Query or Scan page as the JSON body
// DynamoDB would send and the wire decoder turns it into one Arrow batch, so
// a Scan of a large offline table never builds SDK item maps. Results are
// those of the SDK path (the decoder's contract); a body the decoder
// declines is served again through the SDK path.
func RawReader(db *memdb.DB) rawpage.Reader { return rawReader{db: db} }

type rawReader struct{ db *memdb.DB }

// bodies recycles page bodies: the decoder copies what it keeps.
var bodies = sync.Pool{New: func() any { b := make([]byte, 0, 1<<20); return &b }}

func (r rawReader) Query(ctx context.Context, in *dynamodb.QueryInput, mem memory.Allocator, keys []string) (*rawpage.Page, error) {
	buf := bodies.Get().(*[]byte)
	defer putBody(buf)
	out, body, err := r.db.QueryJSON(ctx, in, (*buf)[:0])
	*buf = body
	if err != nil {
		return nil, err
	}
	p := &rawpage.Page{LastEvaluatedKey: out.LastEvaluatedKey, Count: out.Count, ScannedCount: out.ScannedCount, ConsumedCapacity: out.ConsumedCapacity}
	return decodeInto(p, body, mem, keys, func() (*rawpage.Page, error) {
		o, err := r.db.Query(ctx, in)
		if err != nil {
			return nil, err
		}
		return sdkPage(o.Items, o.LastEvaluatedKey, o.Count, o.ScannedCount, mem, keys, o.ConsumedCapacity)
	})
}

func (r rawReader) Scan(ctx context.Context, in *dynamodb.ScanInput, mem memory.Allocator, keys []string) (*rawpage.Page, error) {
	buf := bodies.Get().(*[]byte)
	defer putBody(buf)
	out, body, err := r.db.ScanJSON(ctx, in, (*buf)[:0])
	*buf = body
	if err != nil {
		return nil, err
	}
	p := &rawpage.Page{LastEvaluatedKey: out.LastEvaluatedKey, Count: out.Count, ScannedCount: out.ScannedCount, ConsumedCapacity: out.ConsumedCapacity}
	return decodeInto(p, body, mem, keys, func() (*rawpage.Page, error) {
		o, err := r.db.Scan(ctx, in)
		if err != nil {
			return nil, err
		}
		return sdkPage(o.Items, o.LastEvaluatedKey, o.Count, o.ScannedCount, mem, keys, o.ConsumedCapacity)
	})
}

// decodeInto decodes body's items into p; when the decoder declines the
// body, sdk serves the page instead.
func decodeInto(p *rawpage.Page, body []byte, mem memory.Allocator, keys []string, sdk func() (*rawpage.Page, error)) (*rawpage.Page, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	dp, err := wire.DecodePage(body, mem, keys)
	if wire.IsUnsupported(err) {
		return sdk()
	}
	if err != nil {
		return nil, err
	}
	p.Batch = dp.Batch
	return p, nil
}

func putBody(b *[]byte) {
	if cap(*b) <= 8<<20 {
		*b = (*b)[:0]
		bodies.Put(b)
	}
}

// sdkPage converts an SDK page as exec's SDK path does.
func sdkPage(items []map[string]types.AttributeValue, lek map[string]types.AttributeValue, count, scanned int32, mem memory.Allocator, keys []string, cc *types.ConsumedCapacity) (*rawpage.Page, error) {
	p := &rawpage.Page{LastEvaluatedKey: lek, Count: count, ScannedCount: scanned, ConsumedCapacity: cc}
	if items == nil {
		return p, nil
	}
	rec, err := rawpage.ItemsBatch(mem, items, keys)
	if err != nil {
		return nil, err
	}
	p.Batch = rec
	return p, nil
}
