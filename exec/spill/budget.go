package spill

import (
	"fmt"
	"sync/atomic"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// Budget is the memory a statement's blocking operators may retain
// together, in bytes. Reservations are estimates of retained bytes (Arrow
// buffers, hash-table entries, copied keys), not Go heap readings: they
// are what keeps the process inside the limit, so operators round up.
type Budget struct {
	limit  int64
	used   atomic.Int64
	peak   atomic.Int64
	parent *Budget // a share's statement budget (share.go); nil for that one
}

// NewBudget returns a budget of limit bytes; limit <= 0 means no limit.
func NewBudget(limit int64) *Budget {
	return &Budget{limit: limit}
}

// Limit is the budget's size in bytes (0: unlimited).
func (b *Budget) Limit() int64 {
	if b == nil {
		return 0
	}
	return b.limit
}

// TryReserve takes n bytes from the budget and reports whether it could:
// false leaves the budget unchanged, and the caller should spill what it
// holds (releasing it) and try again.
func (b *Budget) TryReserve(n int64) bool {
	if b != nil && b.parent != nil {
		if !b.parent.TryReserve(n) {
			return false
		}
		b.notePeak(b.used.Add(n))
		return true
	}
	if b == nil || b.limit <= 0 {
		if b != nil {
			b.notePeak(b.used.Add(n))
		}
		return true
	}
	for {
		used := b.used.Load()
		if used+n > b.limit {
			return false
		}
		if b.used.CompareAndSwap(used, used+n) {
			b.notePeak(used + n)
			return true
		}
	}
}

// Reserve takes n bytes whether or not they fit: for memory an operator
// cannot avoid holding (the one row or group it is working on). A
// reservation past the limit shows in Over.
func (b *Budget) Reserve(n int64) {
	if b != nil {
		if b.parent != nil {
			b.parent.Reserve(n)
		}
		b.notePeak(b.used.Add(n))
	}
}

// Release returns n bytes taken by TryReserve or Reserve.
func (b *Budget) Release(n int64) {
	if b != nil {
		if b.parent != nil {
			b.parent.Release(n)
		}
		b.used.Add(-n)
	}
}

// Used is the bytes reserved now.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// Peak is the most bytes reserved at once so far.
func (b *Budget) Peak() int64 {
	if b == nil {
		return 0
	}
	return b.peak.Load()
}

// Over reports whether more is reserved than the limit allows.
func (b *Budget) Over() bool {
	if b != nil && b.parent != nil {
		return b.parent.Over()
	}
	return b != nil && b.limit > 0 && b.used.Load() > b.limit
}

func (b *Budget) notePeak(used int64) {
	for {
		p := b.peak.Load()
		if used <= p || b.peak.CompareAndSwap(p, used) {
			return
		}
	}
}

// Exceeded is the error of an operator that cannot stay inside the limit
// even by spilling: what it is, what it needed and what to do.
func Exceeded(operator string, b *Budget, need int64) error {
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeMemoryLimit,
		Msg: fmt.Sprintf("%s needs %s but --memory-limit is %s", operator,
			FormatSize(need), FormatSize(b.Limit())),
		Hint: "raise --memory-limit (for example --memory-limit 4GiB) or give --temp-dir a disk with room to spill"}
}

// FormatSize writes n bytes as the size flags read it back (KiB, MiB,
// GiB), rounded to one decimal.
func FormatSize(n int64) string {
	const k = 1024
	switch {
	case n >= k*k*k:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(k*k*k))) + "GiB"
	case n >= k*k:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(k*k))) + "MiB"
	case n >= k:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/k)) + "KiB"
	}
	return fmt.Sprintf("%dB", n)
}

func trimZero(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}
