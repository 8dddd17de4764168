package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/planner"
)

// buildAccess builds the operator of a DynamoDB read (exec/read's), whose
// columns are named by attribute; a read that is one side of a join has
// them named by its FROM item too.
func buildAccess(env *Env, a *planner.Access) Operator {
	op := read.NewAccess(env.reader(), a)
	if !a.Qualify || a.Count {
		return op
	}
	return &qualifyOp{input: op, source: a.Source}
}

// qualifyOp names the columns of its input's batches by FROM item.
type qualifyOp struct {
	input  Operator
	source int
}

func (op *qualifyOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := op.input.Next(ctx)
	if err != nil {
		return nil, err
	}
	return qualifyBatch(b, op.source), nil
}

func (op *qualifyOp) Close() error { return op.input.Close() }
