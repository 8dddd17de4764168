package read

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// page is one Query or Scan response, decoded.
type page struct {
	items   []value.Value
	rec     arrow.RecordBatch // the fast path's decoded page (instead of items)
	count   int64             // items returned (Select=COUNT: the count)
	scanned int64             // items read (ScannedCount)
}

// pager walks the pages of one Query or Scan request, one page per call,
// resuming from LastEvaluatedKey. It never asks for a page before next.
type pager struct {
	env      *Env
	node     planner.Node
	query    *dynamodb.QueryInput
	scan     *dynamodb.ScanInput
	startKey map[string]types.AttributeValue
	read     int64 // items read so far, against the request's Limit (pagelimit.go)
	done     bool
	// batches lets the fast path (Env.Raw) return Arrow batches; callers
	// that need items (merges, lookups) leave it false.
	batches bool
	keys    []string // the table's key attributes, listed first in batches
}

func (p *pager) op() string {
	if p.query != nil {
		return "Query"
	}
	return "Scan"
}

// next returns the next page, or io.EOF after the last one. A page may be
// empty while more remain (DynamoDB stops at 1 MB read before filtering).
func (p *pager) next(ctx context.Context) (page, error) {
	if p.done {
		return page{}, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return page{}, DynamoError(p.op(), err)
	}
	var (
		raw     []map[string]types.AttributeValue
		lek     map[string]types.AttributeValue
		count   int32
		scanned int32
		cc      *types.ConsumedCapacity
	)
	if err := p.env.beforeRequest(ctx, p.op()); err != nil {
		return page{}, err
	}
	if p.batches && p.env.Raw != nil {
		return p.rawNext(ctx)
	}
	if p.query != nil {
		in := *p.query
		in.ExclusiveStartKey = p.startKey
		in.Limit = p.remaining(in.Limit)
		out, err := p.env.Client.Query(ctx, &in)
		if err != nil {
			p.env.failedRequest(p.node, "Query")
			return page{}, DynamoError("Query", err)
		}
		raw, lek, count, scanned, cc = out.Items, out.LastEvaluatedKey, out.Count, out.ScannedCount, out.ConsumedCapacity
	} else {
		in := *p.scan
		in.ExclusiveStartKey = p.startKey
		in.Limit = p.remaining(in.Limit)
		out, err := p.env.Client.Scan(ctx, &in)
		if err != nil {
			p.env.failedRequest(p.node, "Scan")
			return page{}, DynamoError("Scan", err)
		}
		raw, lek, count, scanned, cc = out.Items, out.LastEvaluatedKey, out.Count, out.ScannedCount, out.ConsumedCapacity
	}
	r := Response{Op: p.op(), Read: int64(scanned), Returned: int64(count), Page: true, Capacity: capacityOf(cc)}
	if err := p.env.afterResponse(p.node, r); err != nil {
		return page{}, err
	}
	p.advance(lek, scanned)
	items, err := convertItems(raw)
	if err != nil {
		return page{}, err
	}
	return page{items: items, count: int64(count), scanned: int64(scanned)}, nil
}

// prefetch fetches the first page of every pager concurrently, bounded by
// the environment's concurrency, so IN-list Queries and scan segments start
// together. Later pages are fetched only on demand. The first failure stops
// the fetches not yet sent; the pages already fetched are then released.
func prefetch(ctx context.Context, env *Env, pagers []*pager) ([]page, error) {
	pages := make([]page, len(pagers))
	errs := forEach(ctx, len(pagers), env.concurrency(), pagers[0].op(), func(ctx context.Context, i int) (err error) {
		pages[i], err = pagers[i].next(ctx)
		return err
	})
	if err := firstRealError(errs); err != nil {
		for _, pg := range pages {
			if pg.rec != nil {
				pg.rec.Release()
			}
		}
		return nil, err
	}
	return pages, nil
}
