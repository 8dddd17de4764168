package read

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// RateLimiter keeps reads at an average of Rate capacity units per second.
// DynamoDB reports a request's cost only in its response, so each response
// books its units and the next request waits until the booked time has
// passed (cost-based pacing; no burst beyond the requests in flight). A
// request is charged from when it was sent, so response latency does not
// lower the rate; idle time is not saved up.
type RateLimiter struct {
	mu   sync.Mutex
	rate float64
	next time.Time
}

// NewRateLimiter paces to rcuPerSecond (must be > 0).
func NewRateLimiter(rcuPerSecond float64) *RateLimiter { return &RateLimiter{rate: rcuPerSecond} }

// wait blocks until the next request may be sent.
func (l *RateLimiter) wait(ctx context.Context) error {
	if l == nil {
		return nil
	}
	for {
		l.mu.Lock()
		now := time.Now()
		d := l.next.Sub(now)
		if d <= 0 {
			// Send now; what this request costs is booked from here.
			l.next = now
			l.mu.Unlock()
			return nil
		}
		l.mu.Unlock()
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// book charges consumed units against the rate.
func (l *RateLimiter) book(units float64) {
	if l == nil || units <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.next = l.next.Add(time.Duration(units / l.rate * float64(time.Second)))
}

// beforeRequest is called before every DynamoDB read.
func (e *Env) beforeRequest(ctx context.Context, op string) error {
	if err := e.Limiter.wait(ctx); err != nil {
		return DynamoError(op, err)
	}
	return nil
}

// afterResponse records a response for the statement and for the plan node
// that sent it, paces the limiter, and enforces the RCU budget: once the
// statement has consumed more than Budget, it stops with an error rather
// than return a partial result.
func (e *Env) afterResponse(node planner.Node, r tally) error {
	e.Stats.record(r)
	if e.NodeStats != nil {
		e.NodeStats(node).record(r)
	}
	var units float64
	for _, c := range r.Capacity {
		if c.CapacityUnits != nil {
			units += *c.CapacityUnits
		}
	}
	e.Limiter.book(units)
	if e.Budget > 0 {
		if used := e.Stats.Snapshot().RCU; used > e.Budget {
			return &diag.Error{Phase: diag.Execute, Code: diag.CodeBudget, Msg: fmt.Sprintf("stopped after consuming %s RCU, more than the --max-rcu budget of %s; the result would be incomplete, so none is reported as complete",
				planner.FormatRCU(used), planner.FormatRCU(e.Budget))}
		}
	}
	return nil
}

// failedRequest records a request that returned an error.
func (e *Env) failedRequest(node planner.Node, op string) {
	e.Stats.recordFailure(op)
	if e.NodeStats != nil {
		e.NodeStats(node).recordFailure(op)
	}
}
