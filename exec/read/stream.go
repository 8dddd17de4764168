package read

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/planner"
)

// streamOp reads requests on a fan-out, each one's next page requested as
// soon as its previous one is handed over, and passes pages as they
// arrive: a parallel Scan's segments, all at once, or one request read
// ahead (planner.Access.ReadAhead: every page will be read anyway).
type streamOp struct {
	env     *Env
	access  *planner.Access
	workers int
	pagers  []*pager
	pages   *segmentReader
	closed  bool
}

// NewSegments reads the segments of a parallel Scan all at once:
// --segments is the parallelism.
func NewSegments(env *Env, a *planner.Access) Operator {
	pagers := pagersOf(env, a, true)
	return &streamOp{env: env, access: a, pagers: pagers, workers: len(pagers)}
}

// NewReadAhead reads a's one request, fetching its next page while the
// current one is processed.
func NewReadAhead(env *Env, a *planner.Access) Operator {
	return &streamOp{env: env, access: a, pagers: pagersOf(env, a, true), workers: 1}
}

func (op *streamOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if op.closed {
		return nil, io.EOF
	}
	if op.pages == nil {
		op.pages = startSegments(ctx, op.pagers, op.workers)
	}
	pg, err := op.pages.next(skipEmpty)
	if err != nil {
		return nil, err
	}
	return pageBatch(op.env, op.access.KeyAttrs, pg), nil
}

func (op *streamOp) Close() error {
	op.closed = true
	op.pages.stop()
	return nil
}
