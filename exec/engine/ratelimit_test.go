package engine

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// The RateLimiter tests run in a synctest bubble: time.Now and timers use
// a fake clock that advances only when every goroutine is blocked, so the
// pacing is measured exactly and the tests take no real time.

// request is one paced request: wait, take latency to answer, book cost.
func request(t *testing.T, l *RateLimiter, latency time.Duration, cost float64) {
	t.Helper()
	if err := l.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(latency)
	l.book(cost)
}

func TestRateLimiterSequential(t *testing.T) {
	for _, latency := range []time.Duration{0, 5 * time.Millisecond, 40 * time.Millisecond} {
		synctest.Test(t, func(t *testing.T) {
			const rate = 100.0 // RCU/s
			l := NewRateLimiter(rate)
			start := time.Now()
			var sends []time.Duration
			for i := 0; i < 50; i++ {
				if err := l.wait(context.Background()); err != nil {
					t.Fatal(err)
				}
				sends = append(sends, time.Since(start))
				time.Sleep(latency)
				l.book(10)
			}
			// 10 RCU every 0.1 s: request i is sent at i·100 ms, whatever
			// the latency (as long as it is below 100 ms), because a
			// request is charged from when it was sent.
			for i, at := range sends {
				if want := time.Duration(i) * 100 * time.Millisecond; at != want {
					t.Fatalf("latency %v: request %d sent at %v, want %v", latency, i, at, want)
				}
			}
		})
	}
}

func TestRateLimiterVariableCosts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const rate = 400.0
		l := NewRateLimiter(rate)
		costs := []float64{0.5, 128.5, 1, 128, 64, 0.5, 0.5, 300, 2, 128.5, 77}
		const latency = 2 * time.Millisecond
		start := time.Now()
		var want time.Duration // when request i may be sent
		for i, c := range costs {
			if err := l.wait(context.Background()); err != nil {
				t.Fatal(err)
			}
			sent := time.Since(start)
			if sent != want {
				t.Fatalf("request %d sent at %v, want %v", i, sent, want)
			}
			time.Sleep(latency)
			l.book(c)
			// The next request pays this one's cost from when it was sent
			// (or waits for its answer when that takes longer).
			want = sent + max(time.Duration(c/rate*float64(time.Second)), latency)
		}
	})
}

// Concurrent requests (Scan segments, IN-list Queries, lookups) share the
// limiter: over a few seconds they get the rate, not a multiple of it.
func TestRateLimiterConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const rate = 200.0
		const window = 5 * time.Second
		l := NewRateLimiter(rate)
		start := time.Now()
		var mu sync.Mutex
		var consumed float64
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					if err := l.wait(context.Background()); err != nil {
						t.Error(err)
						return
					}
					if time.Since(start) >= window {
						return
					}
					time.Sleep(10 * time.Millisecond)
					l.book(25)
					mu.Lock()
					consumed += 25
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		got := consumed / window.Seconds()
		// At most one round of 8 concurrent requests beyond the rate.
		if got > rate+8*25/window.Seconds() || got < rate*0.9 {
			t.Fatalf("8 concurrent readers consumed %v RCU in %v: %.1f RCU/s at a limit of %v", consumed, window, got, rate)
		}
	})
}

// Idle time is not saved up: after a pause the next request goes at once,
// and the one after waits for its cost.
func TestRateLimiterNoBurstAfterIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := NewRateLimiter(100)
		request(t, l, 0, 50)
		time.Sleep(10 * time.Second)
		start := time.Now()
		request(t, l, 0, 50)
		request(t, l, 0, 50)
		if got := time.Since(start); got != 500*time.Millisecond {
			t.Fatalf("after an idle pause two 50 RCU requests took %v, want 500ms at 100 RCU/s", got)
		}
	})
}

func TestRateLimiterCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := NewRateLimiter(1)
		request(t, l, 0, 3600) // the next request may go in an hour
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		err := l.wait(ctx)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Second {
			t.Fatalf("wait = %v after %v, want the context's deadline after 1s", err, time.Since(start))
		}
		env := &Env{Limiter: l}
		var ee *diag.Error
		if err := env.beforeRequest(ctx, "Scan"); !errors.As(err, &ee) || ee.Code != diag.CodeTimeout {
			t.Fatalf("beforeRequest = %v, want a %q error", err, diag.CodeTimeout)
		}
	})
}

func TestRateLimiterNil(t *testing.T) {
	var l *RateLimiter
	if err := l.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.book(100) // no-op, no panic
	env := &Env{}
	if err := env.beforeRequest(context.Background(), "Query"); err != nil {
		t.Fatal(err)
	}
}
