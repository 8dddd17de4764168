package engine

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// joinedBenchRows builds n joined rows: benchRows' columns of FROM item 0
// followed by those of FROM item 1, each marked with its FROM item.
func joinedBenchRows(n int) []arrow.RecordBatch {
	left := qualifiedBatches(benchRows(n, 50), 0)
	right := qualifiedBatches(benchRows(n, 1000), 1)
	out := make([]arrow.RecordBatch, len(left))
	for i := range left {
		fields := append(append([]arrow.Field(nil), left[i].Schema().Fields()...), right[i].Schema().Fields()...)
		cols := append(append([]arrow.Array(nil), left[i].Columns()...), right[i].Columns()...)
		out[i] = array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, left[i].NumRows())
	}
	return out
}

func benchLitN(s string) expr.Expr { return expr.Literal{Value: value.NumTrusted(s)} }
func benchLitS(s string) expr.Expr { return expr.Literal{Value: value.Str(s)} }

// filterPred is amount > 500 AND name <> 'name-7', amount of FROM item l
// and name of FROM item r.
func filterPred(l, r int) expr.Expr {
	return expr.Binary{Op: expr.OpAnd,
		L: expr.Binary{Op: expr.OpGt, L: otQCol(l, "amount"), R: benchLitN("500")},
		R: expr.Binary{Op: expr.OpNe, L: otQCol(r, "name"), R: benchLitS("name-7")}}
}

// projExprs is amount + 1, name, id (name of FROM item r, the others of l).
func projExprs(l, r int) []expr.Expr {
	return []expr.Expr{expr.Binary{Op: expr.OpAdd, L: otQCol(l, "amount"), R: benchLitN("1")}, otQCol(r, "name"), otQCol(l, "id")}
}

type filterProjectCase struct {
	name    string
	batches []arrow.RecordBatch
	right   int // the FROM item name is read from
}

func filterProjectCases(rows int) []filterProjectCase {
	return []filterProjectCase{{"single", benchRows(rows, 50), 0}, {"joined", joinedBenchRows(rows), 1}}
}

// BenchmarkClientFilter measures a client-side WHERE over 1 M rows, of one
// table and of joined rows.
func BenchmarkClientFilter(b *testing.B) {
	const rows = 1_000_000
	for _, tc := range filterProjectCases(rows) {
		b.Run(tc.name, func(b *testing.B) {
			env := &Env{Mem: memory.DefaultAllocator}
			pred := filterPred(0, tc.right)
			runBench(b, rows, tc.batches, func(in Operator) Operator { return newFilterOp(env, pred, in) })
		})
	}
}

// BenchmarkProjection measures a select list with a computed column over
// 1 M rows, of one table and of joined rows.
func BenchmarkProjection(b *testing.B) {
	const rows = 1_000_000
	for _, tc := range filterProjectCases(rows) {
		b.Run(tc.name, func(b *testing.B) {
			env := &Env{Mem: memory.DefaultAllocator}
			exprs := projExprs(0, tc.right)
			runBench(b, rows, tc.batches, func(in Operator) Operator {
				return newProjectOp(env, exprs, []string{"a", "name", "id"}, in)
			})
		})
	}
}

// stringPred is grp <> 'G000007' AND name <> 'name-7' (grp of FROM item l,
// name of r): the common shape of a client filter on string attributes,
// which reads its cells without copying them.
func stringPred(l, r int) expr.Expr {
	return expr.Binary{Op: expr.OpAnd,
		L: expr.Binary{Op: expr.OpNe, L: otQCol(l, "grp"), R: benchLitS("G000007")},
		R: expr.Binary{Op: expr.OpNe, L: otQCol(r, "name"), R: benchLitS("name-7")}}
}

// BenchmarkClientFilterStrings is BenchmarkClientFilter with stringPred.
func BenchmarkClientFilterStrings(b *testing.B) {
	const rows = 1_000_000
	for _, tc := range []struct {
		name    string
		batches []arrow.RecordBatch
		r       int
	}{{"single", benchRows(rows, 50), 0}, {"joined", joinedBenchRows(rows), 1}} {
		b.Run(tc.name, func(b *testing.B) {
			env := &Env{Mem: memory.DefaultAllocator}
			pred := stringPred(0, tc.r)
			runBench(b, rows, tc.batches, func(in Operator) Operator { return newFilterOp(env, pred, in) })
		})
	}
}
