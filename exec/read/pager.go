package read

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
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
	done    bool              // not a page: its request has ended (segments.go)
}

// empty says whether the page holds no items (more may follow: DynamoDB
// stops a page at 1 MB read, before filtering).
func (pg page) empty() bool {
	return len(pg.items) == 0 && (pg.rec == nil || pg.rec.NumRows() == 0)
}

// release frees the fast path's batch of a page nobody takes.
func (pg page) release() {
	if pg.rec != nil {
		pg.rec.Release()
	}
}

// pager walks the pages of one request, one page per call, resuming from
// LastEvaluatedKey. It never asks for a page before next.
type pager struct {
	env      *Env
	node     planner.Node
	req      request
	startKey map[string]types.AttributeValue
	read     int64 // items read so far, against the request's Limit (pagelimit.go)
	done     bool
	// batches lets the fast path (Env.Raw) return Arrow batches; callers
	// that need items (merges, lookups) leave it false.
	batches bool
	keys    []string // the table's key attributes, listed first in batches
}

// pagersOf makes a pager for each request of a, in the plan's order.
func pagersOf(env *Env, a *planner.Access, batches bool) []*pager {
	var out []*pager
	for _, q := range a.Queries {
		out = append(out, &pager{env: env, node: a, req: queryRequest{q}, batches: batches, keys: a.KeyAttrs})
	}
	for _, s := range a.Scans {
		out = append(out, &pager{env: env, node: a, req: scanRequest{s}, batches: batches, keys: a.KeyAttrs})
	}
	return out
}

func (p *pager) op() string { return p.req.op() }

// next returns the next page, or io.EOF after the last one. A page may be
// empty while more remain (DynamoDB stops at 1 MB read before filtering).
func (p *pager) next(ctx context.Context) (page, error) {
	if p.done {
		return page{}, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return page{}, DynamoError(p.op(), err)
	}
	if err := p.env.beforeRequest(ctx, p.op()); err != nil {
		return page{}, err
	}
	raw := p.batches && p.env.Raw != nil
	resp, err := p.req.send(ctx, p.env, raw, p.keys, p.startKey, p.remaining())
	if err != nil {
		p.env.failedRequest(p.node, p.op())
		return page{}, DynamoError(p.op(), err)
	}
	pg := page{rec: resp.rec, count: int64(resp.count), scanned: int64(resp.scanned)}
	r := tally{Op: p.op(), Read: pg.scanned, Returned: pg.count, Page: true, Capacity: capacityOf(resp.capacity)}
	if err := p.env.afterResponse(p.node, r); err != nil {
		pg.release()
		return page{}, err
	}
	p.advance(resp.lastKey, resp.scanned)
	if !raw {
		if pg.items, err = convertItems(resp.items); err != nil {
			return page{}, err
		}
	}
	return pg, nil
}

// prefetch fetches the first page of every pager on a fan-out bounded by
// the environment's concurrency, so IN-list Queries start together. Later
// pages are fetched only on demand. The first failure stops the fetches
// not yet sent; the pages already fetched are then released.
func prefetch(ctx context.Context, env *Env, pagers []*pager) ([]page, error) {
	pages := make([]page, len(pagers))
	errs := forEach(ctx, len(pagers), env.concurrency(), pagers[0].op(), func(ctx context.Context, i int) (err error) {
		pages[i], err = pagers[i].next(ctx)
		return err
	})
	if err := firstRealError(errs); err != nil {
		for _, pg := range pages {
			pg.release()
		}
		return nil, err
	}
	return pages, nil
}
