package engine

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// filterOp keeps rows where the predicate is TRUE (not FALSE, not NULL).
// Conjuncts that compare an attribute with a literal are decided column by
// column where the batch allows it (filtercells.go).
type filterOp struct {
	env   *Env
	pred  expr.Expr
	input Operator
	row   batchRow
	// conjuncts are pred's, in order; tests[k] is conjunct k as a cellTest,
	// or nil. Both are nil when no conjunct is one.
	conjuncts []expr.Expr
	tests     []*cellTest
	decided   [][]eval.Truth // per conjunct: this batch's truths, or nil
	buffers   [][]eval.Truth // the storage decided points into
}

func newFilterOp(env *Env, pred expr.Expr, input Operator) *filterOp {
	op := &filterOp{env: env, pred: pred, input: input, row: newBatchRow(pred)}
	conjuncts := expr.Conjuncts(pred)
	tests := make([]*cellTest, len(conjuncts))
	some := false
	for k, c := range conjuncts {
		if t, ok := cellTestOf(c); ok {
			tests[k], some = t, true
		}
	}
	if some {
		op.conjuncts, op.tests = conjuncts, tests
		op.decided, op.buffers = make([][]eval.Truth, len(conjuncts)), make([][]eval.Truth, len(conjuncts))
	}
	return op
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
	decided := op.decide(n)
	kept := 0
	for i := 0; i < n; i++ {
		op.row.i = i
		var t eval.Truth
		var err error
		if decided {
			t, err = op.testConjuncts(i)
		} else {
			t, err = eval.Test(op.pred, &op.row)
		}
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

// decide works out, column-wise, the conjuncts the current batch allows;
// false when it decided none.
func (op *filterOp) decide(n int) bool {
	some := false
	for k, t := range op.tests {
		op.decided[k] = nil
		if t == nil {
			continue
		}
		col, present := op.row.column(t.id)
		out := op.decidedBuffer(k, n)
		if t.decide(col, present, out) {
			op.decided[k], some = out, true
		}
	}
	return some
}

// decidedBuffer is conjunct k's truth buffer for n rows, reused across
// batches.
func (op *filterOp) decidedBuffer(k, n int) []eval.Truth {
	if cap(op.buffers[k]) < n {
		op.buffers[k] = make([]eval.Truth, n)
	}
	return op.buffers[k][:n]
}

// testConjuncts is the predicate's truth for row i: the conjuncts in
// order, as AND evaluates them, stopping at the first FALSE.
func (op *filterOp) testConjuncts(i int) (eval.Truth, error) {
	res := eval.True
	for k, c := range op.conjuncts {
		var t eval.Truth
		if d := op.decided[k]; d != nil {
			t = d[i]
		} else {
			var err error
			if t, err = eval.Test(c, &op.row); err != nil {
				return eval.False, err
			}
		}
		switch t {
		case eval.False:
			return eval.False, nil
		case eval.Unknown:
			res = eval.Unknown
		}
	}
	return res, nil
}

func (op *filterOp) Close() error { return op.input.Close() }

// evalError wraps an evaluation failure, keeping its hint apart from its
// message.
func evalError(err error) error {
	out := &diag.Error{Phase: diag.Execute, Code: diag.CodeEval, Msg: err.Error(), Cause: err}
	var ee *diag.Error
	if errors.As(err, &ee) && ee.Phase == diag.Evaluate {
		out.Hint = ee.Hint
		if err == error(ee) {
			out.Msg = ee.Msg // its Error() would repeat the hint
		}
	}
	return out
}
