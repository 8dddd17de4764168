package engine

import (
	"context"
	"io"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// distinctKeysOp makes n rows in batches of 4096 as they are pulled, so
// the input is not part of the heap measured: k (a string, every row its
// own group), x (an int).
type distinctKeysOp struct{ n, pos int }

func (o *distinctKeysOp) Next(context.Context) (arrow.RecordBatch, error) {
	if o.pos >= o.n {
		return nil, io.EOF
	}
	b := columnar.NewRowBuilder(memory.DefaultAllocator, []string{"k", "x"})
	for ; o.pos < o.n && b.Len() < 4096; o.pos++ {
		i := (o.pos * 7919) % o.n // spread, not ascending
		b.Append([]value.Value{value.Str("key-" + strconv.Itoa(i)), value.NumTrusted(strconv.Itoa(o.pos % 1000))})
	}
	return b.Build(), nil
}

func (o *distinctKeysOp) Close() error { return nil }

// heapPeak samples the live heap until stop is called.
func heapPeak() (stop func() uint64) {
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { close(done); wg.Wait(); return peak }
}

// BenchmarkGroupBySpill aggregates 2M distinct keys without a limit and
// within 128MiB (spilling); compare ns/row and peak-heap-MiB.
func BenchmarkGroupBySpill(b *testing.B) {
	const rows = 2_000_000
	for _, limit := range []int64{0, 128 << 20} {
		name := "unlimited"
		if limit > 0 {
			name = spill.FormatSize(limit)
		}
		b.Run(name, func(b *testing.B) {
			var peak uint64
			var files int
			var budgetPeak int64
			for i := 0; i < b.N; i++ {
				runtime.GC()
				env := &Env{Mem: memory.DefaultAllocator, Stats: NewStats()}
				if limit > 0 {
					env.Memory = spill.NewBudget(limit)
					env.Spill = spill.NewDir(b.TempDir())
				}
				stop := heapPeak()
				op, err := otBuild(env, &planner.Aggregate{Input: &otLeaf{op: &distinctKeysOp{n: rows}},
					Groups: []expr.Expr{col("k")},
					Aggs:   []expr.Aggregate{otAgg("count", nil, false), otAgg("sum", col("x"), false)}})
				if err != nil {
					b.Fatal(err)
				}
				got := 0
				for {
					rec, err := op.Next(context.Background())
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					got += int(rec.NumRows())
					rec.Release()
				}
				_ = op.Close()
				peak = max(peak, stop())
				budgetPeak = env.Memory.Peak()
				if env.Spill != nil {
					files = env.Spill.Files()
					_ = env.Spill.Close()
				}
				if got != rows {
					b.Fatalf("%d groups, want %d", got, rows)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(files), "spill-files")
			if limit > 0 {
				b.ReportMetric(float64(budgetPeak)/(1<<20), "budget-peak-MiB")
			}
		})
	}
}
