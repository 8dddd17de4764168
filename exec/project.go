package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// projectOp computes output columns from each input row. A plain column
// reference or Ref is read straight from the input; anything else is evaluated.
type projectOp struct {
	env   *Env
	exprs []expr.Expr
	names []string
	input Operator
	row   batchRow
}

func (op *projectOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	in, err := op.input.Next(ctx)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	n := int(in.NumRows())
	op.row.reset(in)
	b := columnar.NewRowBuilder(op.env.Mem, op.names)
	vals := make([]value.Value, len(op.exprs))
	for i := 0; i < n; i++ {
		op.row.i = i
		for c, e := range op.exprs {
			v, err := eval.Eval(e, &op.row)
			if err != nil {
				return nil, evalError(err)
			}
			vals[c] = v
		}
		b.Append(vals)
	}
	return b.Build(), nil
}

func (op *projectOp) Close() error { return op.input.Close() }

// valuesBatch builds a batch from literal rows.
func valuesBatch(env *Env, names []string, rows [][]value.Value) arrow.RecordBatch {
	b := columnar.NewRowBuilder(env.Mem, names)
	for _, r := range rows {
		b.Append(r)
	}
	return b.Build()
}
