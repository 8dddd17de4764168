package engine

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// batchesOp replays prepared batches (retaining each for its consumer).
type batchesOp struct {
	batches []arrow.RecordBatch
	pos     int
}

func (o *batchesOp) Next(context.Context) (arrow.RecordBatch, error) {
	if o.pos >= len(o.batches) {
		return nil, io.EOF
	}
	b := o.batches[o.pos]
	o.pos++
	b.Retain()
	return b, nil
}

func (o *batchesOp) Close() error { return nil }

// benchRows builds n rows in batches of 4096: group (string, `groups`
// distinct values), id (int), amount (int), name (string).
func benchRows(n, groups int) []arrow.RecordBatch {
	names := []string{"grp", "id", "amount", "name"}
	var out []arrow.RecordBatch
	b := columnar.NewRowBuilder(memory.DefaultAllocator, names)
	for i := 0; i < n; i++ {
		b.Append([]value.Value{
			value.Str(fmt.Sprintf("G%06d", (i*7919)%groups)),
			value.NumTrusted(fmt.Sprint(i)),
			value.NumTrusted(fmt.Sprint((i * 31) % 1000)),
			value.Str(fmt.Sprintf("name-%d", i%5000)),
		})
		if b.Len() == 4096 {
			out = append(out, b.Build())
		}
	}
	if b.Len() > 0 {
		out = append(out, b.Build())
	}
	return out
}

func col(name string) expr.Expr { return otQCol(0, name) }

func runBench(b *testing.B, rows int, batches []arrow.RecordBatch, build func(Operator) Operator) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		op := build(&batchesOp{batches: batches})
		for {
			rec, err := op.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
		op.Close()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkGroupBy measures GROUP BY with COUNT and SUM over 1 M rows.
func BenchmarkGroupBy(b *testing.B) {
	const rows = 1_000_000
	for _, groups := range []int{50, 100_000} {
		batches := benchRows(rows, groups)
		b.Run(fmt.Sprintf("groups=%d", groups), func(b *testing.B) {
			env := &Env{Mem: memory.DefaultAllocator}
			node := &planner.Aggregate{Groups: []expr.Expr{col("grp")}, Aggs: []expr.Aggregate{
				{Func: "count"}, {Func: "sum", Arg: col("amount")}}}
			runBench(b, rows, batches, func(in Operator) Operator { return newAggregateOp(env, node, in) })
		})
	}
}

// BenchmarkDistinct measures SELECT DISTINCT over 1 M rows with 5,000 values.
func BenchmarkDistinct(b *testing.B) {
	const rows = 1_000_000
	batches := benchRows(rows, 50)
	env := &Env{Mem: memory.DefaultAllocator}
	project := func(in Operator) Operator {
		return newProjectOp(env, []expr.Expr{col("name")}, []string{"name"}, in)
	}
	runBench(b, rows, batches, func(in Operator) Operator { return &distinctOp{env: env, input: project(in)} })
}

// BenchmarkTopN measures ORDER BY amount DESC LIMIT 10 over 1 M rows.
func BenchmarkTopN(b *testing.B) {
	const rows = 1_000_000
	batches := benchRows(rows, 50)
	env := &Env{Mem: memory.DefaultAllocator}
	runBench(b, rows, batches, func(in Operator) Operator {
		return newLimitOp(newSortOp(env, []planner.SortKey{{Expr: col("amount"), Desc: true}}, 10, in), 0, 10)
	})
}

// BenchmarkSort measures a full ORDER BY name (a string with 5,000 values)
// over 1 M rows: every row is kept until the sort ends.
func BenchmarkSort(b *testing.B) {
	const rows = 1_000_000
	batches := benchRows(rows, 50)
	env := &Env{Mem: memory.DefaultAllocator}
	runBench(b, rows, batches, func(in Operator) Operator {
		return newSortOp(env, []planner.SortKey{{Expr: col("name")}, {Expr: col("id")}}, 0, in)
	})
}

// BenchmarkMinMax measures GROUP BY with MIN and MAX of a string over 1 M
// rows: the extremes are kept across batches.
func BenchmarkMinMax(b *testing.B) {
	const rows = 1_000_000
	for _, groups := range []int{50, 100_000} {
		batches := benchRows(rows, groups)
		b.Run(fmt.Sprintf("groups=%d", groups), func(b *testing.B) {
			env := &Env{Mem: memory.DefaultAllocator}
			node := &planner.Aggregate{Groups: []expr.Expr{col("grp")}, Aggs: []expr.Aggregate{
				{Func: "min", Arg: col("name")}, {Func: "max", Arg: col("name")}}}
			runBench(b, rows, batches, func(in Operator) Operator { return newAggregateOp(env, node, in) })
		})
	}
}

// qualifiedBatches marks the columns of batches as FROM item source's (as
// joined rows carry them).
func qualifiedBatches(batches []arrow.RecordBatch, source int) []arrow.RecordBatch {
	out := make([]arrow.RecordBatch, len(batches))
	for i, rec := range batches {
		rec.Retain()
		from := make([]int, rec.NumCols())
		for c := range from {
			from[c] = source
		}
		out[i] = withFromItems(rec, from)
	}
	return out
}

// BenchmarkHashJoin measures a join of 1 M probe rows to a 100,000-row
// build side on a string key (the build side is kept while probing).
func BenchmarkHashJoin(b *testing.B) {
	const rows = 1_000_000
	probe := qualifiedBatches(benchRows(rows, 100_000), 0)
	build := qualifiedBatches(benchRows(100_000, 100_000), 1)
	env := &Env{Mem: memory.DefaultAllocator}
	node := &planner.HashJoin{Kind: planner.JoinInner,
		ProbeKeys: []expr.Expr{otQCol(0, "grp")},
		BuildKeys: []expr.Expr{otQCol(1, "grp")}}
	runBench(b, rows, probe, func(in Operator) Operator {
		return newHashJoinOp(env, node, in, &batchesOp{batches: build})
	})
}

// BenchmarkTopNAscending measures ORDER BY id DESC LIMIT 10 over 1 M rows
// arriving in ascending id order: every row enters the top 10 (and most
// leave it within the same batch).
func BenchmarkTopNAscending(b *testing.B) {
	const rows = 1_000_000
	batches := benchRows(rows, 50)
	env := &Env{Mem: memory.DefaultAllocator}
	runBench(b, rows, batches, func(in Operator) Operator {
		return newLimitOp(newSortOp(env, []planner.SortKey{{Expr: col("id"), Desc: true}}, 10, in), 0, 10)
	})
}

// BenchmarkMaxAscending measures GROUP BY grp with MAX of a string that
// grows with every row (as a timestamp does over a partition read in key
// order): every row replaces its group's maximum.
func BenchmarkMaxAscending(b *testing.B) {
	const rows = 1_000_000
	names := []string{"grp", "ts"}
	var batches []arrow.RecordBatch
	rb := columnar.NewRowBuilder(memory.DefaultAllocator, names)
	for i := 0; i < rows; i++ {
		rb.Append([]value.Value{value.Str(fmt.Sprintf("G%02d", i%50)), value.Str(fmt.Sprintf("2026-01-01T%012d", i))})
		if rb.Len() == 4096 {
			batches = append(batches, rb.Build())
		}
	}
	if rb.Len() > 0 {
		batches = append(batches, rb.Build())
	}
	env := &Env{Mem: memory.DefaultAllocator}
	node := &planner.Aggregate{Groups: []expr.Expr{col("grp")}, Aggs: []expr.Aggregate{{Func: "max", Arg: col("ts")}}}
	runBench(b, rows, batches, func(in Operator) Operator { return newAggregateOp(env, node, in) })
}
