package exec

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner"
)

// RateLimiter keeps a statement's reads at an average of Rate capacity
// units per second. DynamoDB reports a request's cost only in its response,
// so each response books its units and the next request waits until the
// booked time has passed (cost-based pacing; no burst beyond one request).
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
	l.mu.Lock()
	d := time.Until(l.next)
	l.mu.Unlock()
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// book charges consumed units against the rate.
func (l *RateLimiter) book(units float64) {
	if l == nil || units <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if l.next.Before(now) {
		l.next = now
	}
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
func (e *Env) afterResponse(node planner.Node, op string, read, returned int64, page bool, capacity ...types.ConsumedCapacity) error {
	e.Stats.Request(op, read, returned, page, capacity...)
	if e.Analysis != nil {
		e.Analysis.stats(node).Request(op, read, returned, page, capacity...)
	}
	var units float64
	for _, c := range capacity {
		if c.CapacityUnits != nil {
			units += *c.CapacityUnits
		}
	}
	e.Limiter.book(units)
	if e.Budget > 0 {
		if used := e.Stats.Snapshot().RCU; used > e.Budget {
			return &Error{Code: CodeBudget, Msg: fmt.Sprintf("stopped after consuming %s RCU, more than the --max-rcu budget of %s; the result would be incomplete, so none is reported as complete",
				planner.FormatRCU(used), planner.FormatRCU(e.Budget))}
		}
	}
	return nil
}

// failedRequest records a request that returned an error.
func (e *Env) failedRequest(node planner.Node, op string) {
	e.Stats.UnitRequest(op)
	if e.Analysis != nil {
		e.Analysis.stats(node).UnitRequest(op)
	}
}
