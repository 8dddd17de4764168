package read

import (
	"context"
	"io"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// countOp runs Select=COUNT reads and yields one row: the total.
type countOp struct {
	env    *Env
	access *planner.Access
	done   bool
}

// NewCount counts the items a's requests match (Select=COUNT) and yields
// one row, planner.CountColumn.
func NewCount(env *Env, a *planner.Access) Operator { return &countOp{env: env, access: a} }

func (op *countOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if op.done {
		return nil, io.EOF
	}
	op.done = true
	// Every request of a count runs to its end, so they all start as soon
	// as the concurrency allows (a parallel Scan's segments at once).
	pagers := pagersOf(op.env, op.access, true)
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
		pg.release()
		total += pg.count
	}
	n, _ := value.Num(strconv.FormatInt(total, 10))
	b := columnar.NewRowBuilder(op.env.Mem, []string{planner.CountColumn})
	b.Append([]value.Value{n})
	return b.Build(), nil
}

func (op *countOp) Close() error { op.done = true; return nil }
