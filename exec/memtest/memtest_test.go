package memtest

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A string read in place from a released array must show the pattern: this
// is what makes a use after release fail the test that does it.
func TestReleasedStringsArePoisoned(t *testing.T) {
	mem := Allocator(t)
	b := array.NewStringBuilder(mem)
	b.Append("hello, world")
	arr := b.NewStringArray()
	b.Release()
	view := arr.Value(0)
	owned := strings.Clone(view)
	arr.Release()
	if view == owned {
		t.Fatalf("a string read from a released array still reads %q", view)
	}
	if want := patternOf(len(owned)); view != want {
		t.Errorf("released bytes are %q, want the pattern", view)
	}
	if owned != "hello, world" {
		t.Errorf("the copy changed: %q", owned)
	}
}

// A reallocation that moves the data poisons the old bytes and keeps the
// contents; one within capacity stays in place.
func TestReallocatePoisonsMovedBuffers(t *testing.T) {
	mem := memory.NewCheckedAllocator(Poisoning(memory.NewGoAllocator()))
	defer mem.AssertSize(t, 0)
	b := mem.Allocate(8)
	copy(b, "abcdefgh")
	old := b
	grown := mem.Reallocate(4096, b)
	if string(grown[:8]) != "abcdefgh" {
		t.Errorf("reallocation lost the contents: %q", grown[:8])
	}
	if &grown[0] == &old[0] {
		t.Fatal("growing 8 bytes to 4096 did not move the buffer; the test needs a move")
	}
	if string(old) != patternOf(8) {
		t.Errorf("the buffer a reallocation moved away from reads %q", old)
	}
	same := mem.Reallocate(16, grown)
	if &same[0] != &grown[0] || string(same[:8]) != "abcdefgh" {
		t.Errorf("a reallocation within capacity moved or changed the data: %q", same[:8])
	}
	mem.Free(same)
}

// The checked allocator inside fails a test that leaks.
func TestAllocatorReportsLeaks(t *testing.T) {
	ft := &fakeT{}
	mem := memory.NewCheckedAllocator(Poisoning(memory.NewGoAllocator()))
	b := mem.Allocate(64)
	mem.AssertSize(ft, 0)
	if !ft.failed {
		t.Error("a leaked buffer did not fail the size check")
	}
	mem.Free(b)
	ft.failed = false
	mem.AssertSize(ft, 0)
	if ft.failed {
		t.Error("the size check failed after everything was freed")
	}
}

type fakeT struct{ failed bool }

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }

func patternOf(n int) string { return strings.Repeat(string([]byte{Pattern}), n) }
