// Package memtest gives tests an Arrow allocator under which reading a
// value after its batch was released fails the test instead of passing by
// luck.
//
// Phase: exec, test-only: imported by tests and benchmarks, never by
// production code.
//
// Go's allocator never reuses Arrow's memory while anything still points
// into it, so a string read from a released batch keeps its bytes and every
// result looks right. The allocator here overwrites each buffer with
// Pattern the moment Arrow frees it (and the old buffer when a reallocation
// moves it), so a kept string turns to 0xA5 bytes and the comparison that
// follows fails. Around it sits memory.NewCheckedAllocator, and the test's
// cleanup asserts that nothing is left allocated (AssertSize(t, 0)): a batch
// retained and never released fails too.
//
// Usage:
//
//	mem := memtest.Allocator(t) // checked at the end of t
//	env := &exec.Env{Mem: mem, …}
//
// Invariants:
//   - Every byte Arrow frees or moves away from is overwritten before the
//     call returns; the allocator is otherwise Go's (zeroed, 64-byte
//     aligned memory that is never reused while referenced).
//   - Allocator registers exactly one cleanup; it runs after cleanups
//     registered later (t.Cleanup is last in, first out), so a test can
//     close its operators in its own cleanup.
//   - Safe for concurrent use, as the allocators it wraps are.
package memtest
