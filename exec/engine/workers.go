package engine

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// forEach runs task(ctx, i) for every i in [0, n) on at most workers
// goroutines and returns each task's error. Each task runs under Safely,
// so a panic is its task's error. The first task that fails (io.EOF, a
// read that ended, is not a failure) cancels the context the others see;
// the tasks not started by then fail with that cancellation without
// running. A bounded pool rather than a goroutine per task: an IN list or a
// lookup round may hold thousands of tasks.
func forEach(ctx context.Context, n, workers int, op string, task func(ctx context.Context, i int) error) []error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(n, max(workers, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					errs[i] = DynamoError(op, err)
					continue
				}
				errs[i] = Safely(func() error { return task(ctx, i) })
				if errs[i] != nil && errs[i] != io.EOF {
					cancel()
				}
			}
		}()
	}
	wg.Wait()
	return errs
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
