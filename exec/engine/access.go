package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// readOp runs the Queries or Scans of one Access. Several requests (IN
// lists, scan segments) start concurrently; their results are concatenated
// in request order, or merged by sort key when the plan asks.
type readOp struct {
	env     *Env
	access  *planner.Access
	pagers  []*pager
	heads   []page // first pages, fetched together
	taken   []bool // heads already handed on
	started bool
	cur     int
	merge   *merger
	scan    *segmentReader // parallel Scan segments
	closed  bool
}

func newReadOp(env *Env, a *planner.Access) *readOp {
	op := &readOp{env: env, access: a}
	fast := a.Merge == nil
	for _, q := range a.Queries {
		op.pagers = append(op.pagers, &pager{env: env, node: a, query: q, batches: fast, keys: a.KeyAttrs})
	}
	for _, s := range a.Scans {
		op.pagers = append(op.pagers, &pager{env: env, node: a, scan: s, batches: fast, keys: a.KeyAttrs})
	}
	return op
}

func (op *readOp) start(ctx context.Context) error {
	op.started = true
	if len(op.pagers) == 1 {
		if op.access.ReadAhead {
			// Overlap fetching the next page with processing this one.
			op.scan = startSegments(ctx, op.pagers, 1)
		}
		return nil
	}
	if len(op.access.Scans) > 1 {
		// Every segment reads at once: --segments is the parallelism.
		op.scan = startSegments(ctx, op.pagers, len(op.pagers))
		return nil
	}
	heads, err := prefetch(ctx, op.env, op.pagers)
	if err != nil {
		return err
	}
	op.heads, op.taken = heads, make([]bool, len(heads))
	if op.access.Merge != nil {
		op.merge = newMerger(op.env, op.pagers, heads, op.access.Merge)
	}
	return nil
}

func (op *readOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if op.closed {
		return nil, io.EOF
	}
	if !op.started {
		if err := op.start(ctx); err != nil {
			return nil, err
		}
	}
	if op.scan != nil {
		pg, err := op.scan.next(skipEmpty)
		if err != nil {
			return nil, err
		}
		return op.batch(pg.items, pg.rec), nil
	}
	if op.merge != nil {
		items, err := op.merge.next(ctx)
		if err != nil {
			return nil, err
		}
		return itemsBatch(op.env.Mem, items, op.access.KeyAttrs), nil
	}
	for op.cur < len(op.pagers) {
		var pg page
		if op.heads != nil && !op.taken[op.cur] {
			pg, op.taken[op.cur] = op.heads[op.cur], true
			op.heads[op.cur] = page{}
		} else {
			var err error
			pg, err = op.pagers[op.cur].next(ctx)
			if err == io.EOF {
				op.cur++
				continue
			}
			if err != nil {
				return nil, err
			}
		}
		if pg.rec != nil && pg.rec.NumRows() == 0 {
			pg.rec.Release()
			pg.rec = nil
		}
		if len(pg.items) == 0 && pg.rec == nil {
			continue // an empty page is not the end: DynamoDB filtered a whole 1 MB
		}
		return op.batch(pg.items, pg.rec), nil
	}
	return nil, io.EOF
}

// batch turns a page into the operator's output batch.
func (op *readOp) batch(items []value.Value, rec arrow.RecordBatch) arrow.RecordBatch {
	if rec != nil {
		return rec
	}
	return itemsBatch(op.env.Mem, items, op.access.KeyAttrs)
}

func (op *readOp) Close() error {
	op.closed = true
	for i := range op.heads {
		if !op.taken[i] && op.heads[i].rec != nil {
			op.heads[i].rec.Release()
		}
		op.taken[i] = true
	}
	op.scan.stop()
	return nil
}

// countOp runs Select=COUNT reads and yields one row: the total.
type countOp struct {
	env    *Env
	access *planner.Access
	done   bool
}

func (op *countOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if op.done {
		return nil, io.EOF
	}
	op.done = true
	// Every request of a count runs to its end, so they all start as soon
	// as the concurrency allows (a parallel Scan's segments at once).
	pagers := newReadOp(op.env, op.access).pagers
	workers := op.env.concurrency()
	if len(op.access.Scans) > 1 {
		workers = len(pagers)
	}
	segs := startSegments(ctx, pagers, workers)
	defer segs.stop()
	var total int64
	for {
		pg, err := segs.next(keepEmpty)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		total += pg.count
	}
	n, _ := value.Num(itoa64(total))
	return valuesBatch(op.env, []string{planner.CountColumn}, [][]value.Value{{n}}), nil
}

func (op *countOp) Close() error { op.done = true; return nil }
