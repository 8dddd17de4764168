package engine

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// BenchmarkWindow computes window functions over 1 M rows in 50
// partitions and compares them with a full ORDER BY on the same keys (the
// sort a window needs anyway): the window's own cost is the ratio.
func BenchmarkWindow(b *testing.B) {
	const rows = 1_000_000
	batches := benchRows(rows, 50)
	env := &Env{Mem: memory.DefaultAllocator}
	grp, id, amount := expr.Ref{Index: 0, Name: "grp"}, expr.Ref{Index: 1, Name: "id"}, expr.Ref{Index: 2, Name: "amount"}
	order := []expr.WindowKey{{Expr: id, NullsFirst: true}}
	window := func(fn expr.Window) func(Operator) Operator {
		fn.Partition, fn.Order = []expr.Expr{grp}, order
		n := &planner.Window{Partition: fn.Partition, Order: order, Funcs: []expr.Window{fn}}
		return func(in Operator) Operator { return newWindowOp(env, n, in) }
	}
	b.Run("sort=grp,id", func(b *testing.B) {
		runBench(b, rows, batches, func(in Operator) Operator {
			return newSortOp(env, []planner.SortKey{{Expr: grp}, {Expr: id}}, 0, in)
		})
	})
	b.Run("row_number", func(b *testing.B) {
		runBench(b, rows, batches, window(expr.Window{Func: "row_number"}))
	})
	b.Run("running_sum", func(b *testing.B) {
		runBench(b, rows, batches, window(expr.Window{Func: "sum", Args: []expr.Expr{amount}, Frame: expr.DefaultFrame(true)}))
	})
	b.Run("sum_rows_2_around", func(b *testing.B) {
		runBench(b, rows, batches, window(expr.Window{Func: "sum", Args: []expr.Expr{amount}, Frame: expr.Frame{Rows: true,
			Start: expr.FrameBound{Kind: expr.Preceding, N: 2}, End: expr.FrameBound{Kind: expr.Following, N: 2}}}))
	})
	// The same frame as RANGE over the unique id: exact decimal bounds
	// found by binary search instead of by position.
	b.Run("sum_range_2_around", func(b *testing.B) {
		runBench(b, rows, batches, window(expr.Window{Func: "sum", Args: []expr.Expr{amount}, Frame: expr.Frame{
			Start: expr.FrameBound{Kind: expr.Preceding, Offset: "2"}, End: expr.FrameBound{Kind: expr.Following, Offset: "2"}}}))
	})
	b.Run("lag", func(b *testing.B) {
		runBench(b, rows, batches, window(expr.Window{Func: "lag", N: 1, Args: []expr.Expr{amount}}))
	})
	// Within a 32MiB budget (the rows take some 200MiB as the window holds
	// them): the external sort spills runs, then one partition at a time.
	b.Run("row_number_spilled", func(b *testing.B) {
		fn := expr.Window{Func: "row_number", Partition: []expr.Expr{grp}, Order: order}
		n := &planner.Window{Partition: fn.Partition, Order: order, Funcs: []expr.Window{fn}}
		runBench(b, rows, batches, func(in Operator) Operator {
			env := &Env{Mem: memory.DefaultAllocator, Memory: spill.NewBudget(32 << 20), Spill: spill.NewDir(b.TempDir())}
			return newWindowOp(env, n, in)
		})
	})
}
