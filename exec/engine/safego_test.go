package engine

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestSafely(t *testing.T) {
	if err := Safely(func() error { return nil }); err != nil {
		t.Errorf("nil: %v", err)
	}
	plain := errors.New("plain")
	if err := Safely(func() error { return plain }); err != plain || PanicStack(err) != nil {
		t.Errorf("an error passes through as it is: %v", err)
	}
	err := Safely(func() error {
		var m map[string]int
		m["x"] = 1 // a runtime error, as a bug makes
		return nil
	})
	var ee *diag.Error
	if !errors.As(err, &ee) || ee.Code != diag.CodeInternal {
		t.Fatalf("panic: %T %v, want code %q", err, err, diag.CodeInternal)
	}
	if want := "internal error: assignment to entry in nil map (please report this statement)"; ee.Msg != want {
		t.Errorf("message %q, want %q", ee.Msg, want)
	}
	if stack := string(PanicStack(err)); !strings.Contains(stack, "engine.TestSafely") {
		t.Errorf("the stack is not the panic's:\n%s", stack)
	}
}

// TestForEach checks the worker pool: at most the given number of tasks
// at once, every task run once, a failure (a panic included) cancelling
// the tasks in flight and failing those not started, io.EOF no failure.
func TestForEach(t *testing.T) {
	t.Run("bounded", func(t *testing.T) {
		var running, most, ran atomic.Int32
		errs := forEach(context.Background(), 200, 3, "Query", func(ctx context.Context, i int) error {
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			ran.Add(1)
			running.Add(-1)
			if i%2 == 0 {
				return io.EOF
			}
			return nil
		})
		if err := firstRealError(errs); err != nil {
			t.Fatal(err)
		}
		if ran.Load() != 200 || most.Load() > 3 {
			t.Errorf("ran %d tasks, %d at once; want 200, at most 3", ran.Load(), most.Load())
		}
	})
	t.Run("a panic cancels the rest", func(t *testing.T) {
		var ran atomic.Int32
		errs := forEach(context.Background(), 100, 2, "Query", func(ctx context.Context, i int) error {
			ran.Add(1)
			if i == 0 {
				panic("boom")
			}
			<-ctx.Done() // in flight: only the cancellation ends it
			return DynamoError("Query", ctx.Err())
		})
		err := firstRealError(errs)
		var ee *diag.Error
		if !errors.As(err, &ee) || ee.Code != diag.CodeInternal || !strings.Contains(ee.Msg, "boom") {
			t.Fatalf("error %v, want the panic's", err)
		}
		if ran.Load() > 2 {
			t.Errorf("%d tasks ran after the failure", ran.Load()-2)
		}
		for i, err := range errs {
			if err == nil {
				t.Errorf("task %d has no error: it looks done", i)
			}
		}
	})
	t.Run("a cancelled statement fails every task", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		errs := forEach(ctx, 5, 2, "Query", func(ctx context.Context, i int) error { return nil })
		var ee *diag.Error
		if err := firstRealError(errs); !errors.As(err, &ee) || ee.Code != diag.CodeCancelled {
			t.Fatalf("error %v, want %q", err, diag.CodeCancelled)
		}
	})
}
