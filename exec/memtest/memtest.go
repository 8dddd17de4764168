package memtest

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Pattern is the byte freed memory is overwritten with. It is not valid
// UTF-8 on its own, so a kept string cannot pass for real text.
const Pattern byte = 0xA5

// Allocator returns a checked, poisoning allocator whose size must be zero
// when t ends.
func Allocator(t testing.TB) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(Poisoning(memory.NewGoAllocator()))
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// Poisoning wraps inner so that every buffer it frees, and every buffer a
// reallocation moves away from, is overwritten with Pattern first.
func Poisoning(inner memory.Allocator) memory.Allocator {
	return poisoner{inner}
}

type poisoner struct{ inner memory.Allocator }

func (p poisoner) Allocate(size int) []byte { return p.inner.Allocate(size) }

func (p poisoner) Reallocate(size int, b []byte) []byte {
	out := p.inner.Reallocate(size, b)
	if cap(b) > 0 && (cap(out) == 0 || unsafe.SliceData(b) != unsafe.SliceData(out)) {
		// The data moved: whatever still points at the old bytes is stale.
		poison(b)
	}
	return out
}

func (p poisoner) Free(b []byte) {
	poison(b)
	p.inner.Free(b)
}

func poison(b []byte) {
	b = b[:cap(b)]
	for i := range b {
		b[i] = Pattern
	}
}
