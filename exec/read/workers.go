package read

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// fanOut is the one way this package runs requests concurrently (IN-list
// first pages, parallel segments, read-ahead, lookups, BatchGetItem
// chunks): task(ctx, i) for every i in [0, n) on at most workers
// goroutines, never one per task (an IN list or a lookup round may hold
// thousands). Each task runs under Safely, so a panic is its task's error.
// The first task that fails (io.EOF, a read that ended, is not a failure)
// cancels the context the others see; the tasks not started by then fail
// with that cancellation without running.
type fanOut struct {
	ctx    context.Context // what the tasks see; done once one fails
	cancel context.CancelFunc
	op     string // Query, Scan, …: for the error of a task never run
	errs   []error
	wg     sync.WaitGroup
}

// startFanOut starts the workers and returns at once.
func startFanOut(ctx context.Context, n, workers int, op string, task func(ctx context.Context, i int) error) *fanOut {
	ctx, cancel := context.WithCancel(ctx)
	f := &fanOut{ctx: ctx, cancel: cancel, op: op, errs: make([]error, n)}
	var next atomic.Int64
	for range min(n, max(workers, 1)) {
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					f.errs[i] = DynamoError(op, err)
					continue
				}
				f.errs[i] = Safely(func() error { return task(ctx, i) })
				if f.errs[i] != nil && f.errs[i] != io.EOF {
					cancel()
				}
			}
		}()
	}
	return f
}

// wait waits for every task and returns each one's error.
func (f *fanOut) wait() []error {
	f.wg.Wait()
	f.cancel()
	return f.errs
}

// stop cancels the tasks still running and waits for them; it returns the
// error that failed the fan-out, if a task failed before the stop.
func (f *fanOut) stop() error {
	f.cancel()
	return firstRealError(f.wait())
}

// forEach runs the tasks of a fan-out to their end and returns each one's
// error.
func forEach(ctx context.Context, n, workers int, op string, task func(ctx context.Context, i int) error) []error {
	return startFanOut(ctx, n, workers, op, task).wait()
}

// firstRealError prefers the error that caused a cancellation over the
// cancellations it caused (io.EOF, a read that ended, is no error). It
// returns nil when there is no error.
func firstRealError(errs []error) error {
	var fallback error
	for _, err := range errs {
		if err == nil || err == io.EOF {
			continue
		}
		if e, ok := err.(*diag.Error); ok && e.Code == diag.CodeCancelled {
			if fallback == nil {
				fallback = err
			}
			continue
		}
		return err
	}
	return fallback
}
