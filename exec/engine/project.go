package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
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

func newProjectOp(env *Env, exprs []expr.Expr, names []string, input Operator) *projectOp {
	return &projectOp{env: env, exprs: exprs, names: names, input: input, row: newBatchRow(exprs...)}
}

func (op *projectOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	in, err := op.input.Next(ctx)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	n := int(in.NumRows())
	op.row.reset(in)
	if out, ok := op.selectColumns(in); ok {
		return out, nil
	}
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

// selectColumns handles a projection of plain attributes and input
// positions without touching the values: the output shares the input's
// arrays. ok is false when any expression needs evaluating or is absent
// from the batch.
func (op *projectOp) selectColumns(in arrow.RecordBatch) (arrow.RecordBatch, bool) {
	cols := make([]arrow.Array, len(op.exprs))
	fields := make([]arrow.Field, len(op.exprs))
	for i, e := range op.exprs {
		idx := -1
		switch t := e.(type) {
		case expr.Ref:
			idx = t.Index
		case expr.Column:
			if len(t.Path) != 1 || t.Path[0].IsIndex {
				return nil, false
			}
			if int(t.ID) < len(op.row.slots) && t.ID > expr.NoColumn {
				idx = op.row.slots[t.ID]
			}
		default:
			return nil, false
		}
		if idx < 0 || idx >= int(in.NumCols()) {
			return nil, false
		}
		cols[i] = in.Column(idx)
		// A projection's columns are positions: drop the FROM item.
		fields[i] = withFromItem(in.Schema().Field(idx), -1)
		fields[i].Name = op.names[i]
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, in.NumRows()), true
}
