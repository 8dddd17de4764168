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
// reference or Ref is bound to its input column once per batch and passed
// through (the output shares the input's array); only the other
// expressions are evaluated, row by row.
type projectOp struct {
	env    *Env
	exprs  []expr.Expr
	names  []string
	input  Operator
	row    batchRow
	direct []int // per output column: the input column it passes, or -1
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
	op.bindDirect(in)
	// Evaluated columns hold values read in place until they are built,
	// while in is retained.
	vals := make([][]value.Value, len(op.exprs))
	for c, idx := range op.direct {
		if idx < 0 {
			vals[c] = make([]value.Value, n)
		}
	}
	for i := 0; i < n; i++ {
		op.row.i = i
		for c, e := range op.exprs {
			if vals[c] == nil {
				continue
			}
			v, err := eval.Eval(e, &op.row)
			if err != nil {
				return nil, evalError(err)
			}
			vals[c][i] = v
		}
	}
	fields := make([]arrow.Field, len(op.exprs))
	cols := make([]arrow.Array, len(op.exprs))
	for c, idx := range op.direct {
		if idx >= 0 {
			// A projection's columns are positions: drop the FROM item.
			fields[c] = withFromItem(in.Schema().Field(idx), -1)
			fields[c].Name = op.names[c]
			cols[c] = in.Column(idx)
			cols[c].Retain()
			continue
		}
		fields[c], cols[c] = columnar.BuildColumn(op.env.Mem, op.names[c], vals[c])
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	for _, a := range cols {
		a.Release()
	}
	return out, nil
}

// bindDirect finds, for each output column, the input column that a plain
// attribute or an input position reads in this batch (-1: evaluate it,
// also when the batch lacks the attribute).
func (op *projectOp) bindDirect(in arrow.RecordBatch) {
	op.direct = op.direct[:0]
	for _, e := range op.exprs {
		idx := -1
		switch t := e.(type) {
		case expr.Ref:
			if t.Index >= 0 && t.Index < int(in.NumCols()) {
				idx = t.Index
			}
		case expr.Column:
			if len(t.Path) == 1 && !t.Path[0].IsIndex && int(t.ID) < len(op.row.slots) && t.ID > expr.NoColumn {
				idx = op.row.slots[t.ID]
			}
		}
		op.direct = append(op.direct, idx)
	}
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
