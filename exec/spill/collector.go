package spill

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
)

// collectorHeadroom is what the Go heap may hold past the live heap and
// the budget before the collector works harder: read buffers, output,
// garbage between cycles.
const collectorHeadroom = 96 << 20

// SteerCollector points the Go runtime's soft memory limit at what a
// statement about to run may need: the heap live now (an offline
// session's tables, the catalog) plus the budget plus a quarter of it and
// some headroom. Without it the collector lets the heap grow to about
// twice what operators retain (GOGC=100), so a 256 MiB budget would still
// reach 500 MiB of RSS; with it, the heap stays near the budget. Because
// the live heap is counted, the limit never sits below what the process
// must keep, which would make the collector run without pause. A budget of
// 0 (no limit) removes the soft limit. The process runs one statement at
// a time, so this process-wide setting belongs to the statement running.
func SteerCollector(b *Budget) {
	limit := b.Limit()
	if limit <= 0 {
		debug.SetMemoryLimit(math.MaxInt64)
		return
	}
	debug.SetMemoryLimit(liveHeap() + limit + limit/4 + collectorHeadroom)
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
