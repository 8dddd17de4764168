package engine

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// otFilterValue draws a cell for column kind k: 0 strings, 1 integers,
// 2 numbers with fractions, 3 anything (a mixed column).
func otFilterValue(r *rand.Rand, k int) value.Value {
	if r.IntN(6) == 0 {
		return value.MissingValue()
	}
	if k == 3 {
		k = r.IntN(3)
		if r.IntN(5) == 0 {
			return value.NullValue()
		}
	}
	switch k {
	case 0:
		return otS([]string{"", "a", "ab", "b", "B", "10", "9"}[r.IntN(7)])
	case 1:
		return otN(strconv.Itoa(r.IntN(7) - 3))
	}
	return otN([]string{"-1.5", "0.5", "2.25"}[r.IntN(3)])
}

// otFilterLiteral draws a literal a conjunct compares with.
func otFilterLiteral(r *rand.Rand) expr.Expr {
	switch r.IntN(5) {
	case 0:
		return otLit(otS([]string{"", "a", "ab", "B", "10"}[r.IntN(5)]))
	case 1:
		return otLit(otN([]string{"1.5", "-0.5", "12345678901234567890"}[r.IntN(3)]))
	case 2:
		return otLit(value.NullValue())
	}
	return otLit(otN(strconv.Itoa(r.IntN(7) - 3)))
}

// A filter that decides comparisons column-wise keeps exactly the rows,
// and fails with exactly the error, of the row-by-row evaluation of the
// same predicate, over columns of every encoding, absent columns, and
// conjuncts it must evaluate (one of which fails on strings).
func TestFilterCellsMatchRowByRow(t *testing.T) {
	r := otRand(t)
	ops := []expr.Op{expr.OpEq, expr.OpNe, expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe}
	cols := []string{"a", "b", "c"}
	for iter := 0; iter < 300; iter++ {
		var conjuncts []expr.Expr
		for k, n := 0, 1+r.IntN(4); k < n; k++ {
			col := otCol(cols[r.IntN(len(cols))])
			switch r.IntN(5) {
			case 0: // evaluated row by row; a type error on a string
				conjuncts = append(conjuncts, expr.Binary{Op: expr.OpGt,
					L: expr.Binary{Op: expr.OpAdd, L: col, R: otLit(otN("1"))}, R: otLit(otN("0"))})
			case 1: // literal first
				conjuncts = append(conjuncts, expr.Binary{Op: ops[r.IntN(len(ops))], L: otFilterLiteral(r), R: col})
			default:
				conjuncts = append(conjuncts, expr.Binary{Op: ops[r.IntN(len(ops))], L: col, R: otFilterLiteral(r)})
			}
		}
		pred := expr.And(conjuncts)
		var batches []otBatch
		for b, nb := 0, 1+r.IntN(3); b < nb; b++ {
			kinds := []int{r.IntN(4), r.IntN(4), r.IntN(4)}
			names := []string{"a", "b", "c"}[:1+r.IntN(3)]
			batch := otBatch{names: names}
			for i, n := 0, r.IntN(20); i < n; i++ {
				row := make([]value.Value, len(names))
				for c := range row {
					row[c] = otFilterValue(r, kinds[c])
				}
				batch.rows = append(batch.rows, row)
			}
			batches = append(batches, batch)
		}
		env := otEnv(t)
		fast := otMustBuild(t, env, &planner.Filter{Input: &otLeaf{op: otSrc(env, batches...)}, Pred: pred})
		got, _, gotErr := otDrain(fast)
		fast.Close()
		slow := &filterOp{env: env, pred: pred, input: otSrc(env, batches...), row: newBatchRow(pred)}
		want, _, wantErr := otDrain(slow)
		slow.Close()
		if otCode(gotErr) != otCode(wantErr) {
			t.Fatalf("WHERE %s: error %v, row by row %v", pred, gotErr, wantErr)
		}
		otSameRows(t, "WHERE "+pred.String(), got, want)
	}
}
