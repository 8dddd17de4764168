package engine

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// filterOp keeps rows where the predicate is TRUE (not FALSE, not NULL).
type filterOp struct {
	env   *Env
	pred  expr.Expr
	input Operator
	row   batchRow
}

func newFilterOp(env *Env, pred expr.Expr, input Operator) *filterOp {
	return &filterOp{env: env, pred: pred, input: input, row: newBatchRow(pred)}
}

func (op *filterOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		in, err := op.input.Next(ctx)
		if err != nil {
			return nil, err
		}
		out, err := op.apply(ctx, in)
		if err != nil {
			return nil, err
		}
		if out != nil {
			return out, nil
		}
	}
}

// apply returns the surviving rows (nil when none) and releases in.
func (op *filterOp) apply(ctx context.Context, in arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(in.NumRows())
	mask := array.NewBooleanBuilder(op.env.Mem)
	defer mask.Release()
	mask.Reserve(n)
	op.row.reset(in)
	kept := 0
	for i := 0; i < n; i++ {
		op.row.i = i
		t, err := eval.Test(op.pred, &op.row)
		if err != nil {
			in.Release()
			return nil, evalError(err)
		}
		keep := t == eval.True
		if keep {
			kept++
		}
		mask.UnsafeAppend(keep)
	}
	return keepRows(ctx, op.env, in, mask, kept, "filter")
}

func (op *filterOp) Close() error { return op.input.Close() }

// evalError wraps an evaluation failure, keeping its hint.
func evalError(err error) error {
	out := &Error{Code: CodeEval, Msg: err.Error(), Err: err}
	var ee *eval.Error
	if errors.As(err, &ee) {
		out.Hint = ee.Hint
	}
	return out
}
