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
	op := readOperator(env.reader(), a)
	if !a.Qualify || a.Count {
		return op
	}
	return &qualifyOp{input: op, source: a.Source}
}

// readOperator chooses how an Access is read.
func readOperator(env *read.Env, a *planner.Access) read.Operator {
	switch {
	case a.Count:
		return read.NewCount(env, a)
	case a.Op == planner.OpGetItem:
		return read.NewGetItems(env, a)
	case a.Op == planner.OpBatchGetItem:
		return read.NewBatchGets(env, a)
	case len(a.Scans) > 1:
		return read.NewSegments(env, a)
	case a.Merge != nil:
		return read.NewMerge(env, a)
	case a.ReadAhead && len(a.Queries)+len(a.Scans) == 1:
		return read.NewReadAhead(env, a)
	}
	return read.NewPages(env, a)
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
