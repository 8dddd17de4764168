package engine

import (
	"context"
	"io"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// BenchmarkSortFull compares a full ORDER BY over 1 M rows with the same
// rows passed through a projection of every column (what a SELECT without
// ORDER BY does to them): the sort's cost is the ratio of the two.
func BenchmarkSortFull(b *testing.B) {
	const rows = 1_000_000
	batches := benchRows(rows, 50)
	env := &Env{Mem: memory.DefaultAllocator}
	all := []expr.Expr{col("grp"), col("id"), col("amount"), col("name")}
	names := []string{"grp", "id", "amount", "name"}
	b.Run("unsorted", func(b *testing.B) {
		runBench(b, rows, batches, func(in Operator) Operator { return newProjectOp(env, all, names, in) })
	})
	b.Run("sorted=amount", func(b *testing.B) {
		runBench(b, rows, batches, func(in Operator) Operator {
			return newProjectOp(env, all, names, newSortOp(env, []planner.SortKey{{Expr: col("amount")}}, 0, in))
		})
	})
	b.Run("sorted=name,id_desc", func(b *testing.B) {
		runBench(b, rows, batches, func(in Operator) Operator {
			return newProjectOp(env, all, names, newSortOp(env, []planner.SortKey{{Expr: col("name")}, {Expr: col("id"), Desc: true}}, 0, in))
		})
	})
}

// genOp makes n benchmark rows as they are pulled, so that the input does
// not sit in memory beside the sort.
type genOp struct {
	n, made int
	pool    []arrow.RecordBatch // one set of batches, replayed
}

func (g *genOp) Next(context.Context) (arrow.RecordBatch, error) {
	if g.made >= g.n {
		return nil, io.EOF
	}
	b := g.pool[(g.made/4096)%len(g.pool)]
	g.made += int(b.NumRows())
	b.Retain()
	return b, nil
}

func (g *genOp) Close() error { return nil }

// BenchmarkSortSpill sorts 5 M rows within a 256MiB budget (the sort's
// reservations for them come to about 600MiB), so most of them go through
// spilled runs and the merge. It reports ns/row, the budget's peak and the Go heap's peak
// growth over the run.
func BenchmarkSortSpill(b *testing.B) {
	const rows, limit = 5_000_000, 256 << 20
	// Distinct inputs would take the memory the sort must not: replay 100k
	// rows, whose ids repeat, and sort on (amount, id) — ties keep input
	// order.
	pool := benchRows(100_000, 50)
	b.ReportAllocs()
	b.ResetTimer()
	var peakHeap, peakBudget uint64
	var files int
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapInuse
		env := &Env{Mem: memory.DefaultAllocator, Memory: spill.NewBudget(limit), Spill: spill.NewDir(b.TempDir())}
		gen := &genOp{n: rows, pool: pool}
		op := newSortOp(env, []planner.SortKey{{Expr: col("amount")}, {Expr: col("id")}}, 0, gen)
		n := 0
		for {
			rec, err := op.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n += int(rec.NumRows())
			rec.Release()
			if n%(64*4096) == 0 {
				runtime.ReadMemStats(&ms)
				peakHeap = max(peakHeap, ms.HeapInuse-min(base, ms.HeapInuse))
			}
		}
		if n != gen.made {
			b.Fatalf("%d rows out of %d", n, gen.made)
		}
		files = env.Spill.Files()
		peakBudget = max(peakBudget, uint64(env.Memory.Peak()))
		op.Close()
		env.Spill.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows*b.N), "ns/row")
	b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(peakBudget)/(1<<20), "peak-budget-MiB")
	b.ReportMetric(float64(files), "runs")
}
