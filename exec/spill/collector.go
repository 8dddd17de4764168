package spill

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
)

// collectorHeadroom is what the Go heap may hold past the live heap and
// the budget, besides an eighth of the budget: read pages in flight,
// output buffers, garbage between cycles. It was 96 MiB plus a quarter of
// the budget; measured at the process level (cmd/ddbsql
// BenchmarkPeakRSSSpill) that let ORDER BY at 256 MiB reach 444 MiB of
// RSS and GROUP BY at 128 MiB 275 MiB, while the heap live after each
// collection stayed within a few MiB of the budget: the slack was
// garbage, not memory anyone needed.
const collectorHeadroom = 32 << 20

// SteerCollector points the Go runtime's soft memory limit at what a
// statement about to run may need: the heap live now (an offline
// session's tables, the catalog) plus the budget plus an eighth of it and
// some headroom. Without it the collector lets the heap grow to about
// twice what operators retain (GOGC=100), so a 256 MiB budget would still
// reach 500 MiB of RSS; with it, the heap stays near the budget and the
// collector runs more often instead. Because the live heap is counted,
// the limit never sits below what the process must keep, and where
// operators hold more than they reserved the runtime caps the collector's
// share of the CPU, so a statement slows down rather than stalls. A
// budget of 0 (no limit) removes the soft limit. The process runs one
// statement at a time, so this process-wide setting belongs to the
// statement running.
func SteerCollector(b *Budget) {
	limit := b.Limit()
	if limit <= 0 {
		debug.SetMemoryLimit(math.MaxInt64)
		return
	}
	debug.SetMemoryLimit(liveHeap() + limit + limit/8 + collectorHeadroom)
}

// liveHeap is the heap the last collection found live.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
