package read

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/planner"
)

// pagesOp reads the Queries or Scan of an Access one after another, page by
// page, in the plan's order: one request, or an IN list concatenated in
// IN-list order. With several requests their first pages are fetched
// together when the first batch is asked for; later pages only on demand.
type pagesOp struct {
	env     *Env
	access  *planner.Access
	pagers  []*pager
	heads   []page // first pages, fetched together (several requests)
	taken   []bool // heads already handed on
	started bool
	cur     int
	closed  bool
}

// NewPages reads a's requests in order, requesting each page when it is
// asked for.
func NewPages(env *Env, a *planner.Access) Operator {
	return &pagesOp{env: env, access: a, pagers: pagersOf(env, a, true)}
}

func (op *pagesOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if op.closed {
		return nil, io.EOF
	}
	if !op.started && len(op.pagers) > 1 {
		op.started = true
		heads, err := prefetch(ctx, op.env, op.pagers)
		if err != nil {
			return nil, err
		}
		op.heads, op.taken = heads, make([]bool, len(heads))
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
		if b := pageBatch(op.env, op.access.KeyAttrs, pg); b != nil {
			return b, nil
		}
		// An empty page is not the end: DynamoDB filtered a whole 1 MB.
	}
	return nil, io.EOF
}

func (op *pagesOp) Close() error {
	op.closed = true
	for i := range op.heads {
		if !op.taken[i] {
			op.heads[i].release()
		}
		op.taken[i] = true
	}
	return nil
}
