package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// errStatementTimeout is the cause of a statement context that --timeout
// ended, as opposed to the caller's (Ctrl-C in the REPL, a signal).
var errStatementTimeout = errors.New("the statement's --timeout passed")

// statement is what one running statement carries in its context: the
// clock of its --timeout and the watch over its DynamoDB requests.
type statement struct {
	clock *clock // nil without --timeout
	watch *dynamo.Watch
}

type statementKey struct{}

func statementOf(ctx context.Context) *statement {
	st, _ := ctx.Value(statementKey{}).(*statement)
	return st
}

// begin starts a statement whose clock started at start. Its context ends
// when --timeout has run out: everything the statement does (planning with
// DescribeTable and ListTables, EXPLAIN, SHOW, the reads, back-fetches and
// join lookups) runs under it. end releases the timer.
func (s *Session) begin(ctx context.Context, start time.Time) (context.Context, func()) {
	st := &statement{watch: &dynamo.Watch{}}
	ctx = dynamo.WithWatch(context.WithValue(ctx, statementKey{}, st), st.watch)
	ctx, cancel := context.WithCancelCause(ctx)
	if s.cfg.Timeout > 0 {
		st.clock = startClock(s.cfg.Timeout-time.Since(start), func() { cancel(errStatementTimeout) })
	}
	return ctx, func() {
		st.clock.stop()
		cancel(context.Canceled)
	}
}

// clock fires once a statement has run for its --timeout; it can be paused
// while the statement waits for the user (ConfirmScan), whose thinking time
// is not the statement's.
type clock struct {
	mu     sync.Mutex
	timer  *time.Timer
	left   time.Duration
	since  time.Time
	fire   func()
	paused bool
}

func startClock(left time.Duration, fire func()) *clock {
	c := &clock{left: left, since: time.Now(), fire: fire}
	c.timer = time.AfterFunc(max(left, 0), fire)
	return c
}

// pause stops the clock and returns the function that restarts it with
// the time that was left.
func (c *clock) pause() (resume func()) {
	if c == nil {
		return func() {}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused || !c.timer.Stop() {
		return func() {} // paused already, or fired
	}
	c.paused = true
	c.left -= time.Since(c.since)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.paused = false
		c.since = time.Now()
		c.timer = time.AfterFunc(max(c.left, 0), c.fire)
	}
}

func (c *clock) stop() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.timer.Stop()
	c.mu.Unlock()
}

// timeoutCause marks the error of a statement that --timeout stopped.
type timeoutCause struct{ noAnswer bool }

func (c *timeoutCause) Error() string { return errStatementTimeout.Error() }

// timedOut replaces the error of a statement stopped by its --timeout (a
// context error, or whatever an operator made of it) by one that says what
// happened:
//   - no read of the statement got an answer (DescribeTable and ListTables
//     answers are not progress) and a request was left without one: "no
//     answer from http://host:port within 2s (DescribeTable app)", naming
//     the first such request — or, when its attempts had failed otherwise
//     (connection refused) and the retries ran into the deadline, that
//     failure;
//   - otherwise the statement was making progress, or waiting on nothing
//     DynamoDB does: "statement did not finish within --timeout 2s", to
//     which explainFailure adds what it had read.
func (s *Session) timedOut(ctx context.Context, err error) error {
	var done *timeoutCause
	if err == nil || !errors.Is(context.Cause(ctx), errStatementTimeout) || errors.As(err, &done) {
		return err
	}
	if st := statementOf(ctx); st != nil && !st.watch.ReadAnswered() {
		if r, ok := st.watch.Unanswered(); ok {
			if r.Failure != nil {
				var ee *diag.Error
				if errors.As(engine.DynamoError(dynamo.Target(r.Op, r.Table), r.Failure), &ee) && ee.Phase == diag.Execute && ee.Code == diag.CodeUnreachable {
					out := *ee
					out.Msg = fmt.Sprintf("%s (retried until --timeout %s passed)", ee.Msg, s.cfg.Timeout)
					out.Cause = &timeoutCause{noAnswer: true}
					return &out
				}
			}
			return &diag.Error{Phase: diag.Execute, Code: diag.CodeTimeout, Cause: &timeoutCause{noAnswer: true},
				Msg: fmt.Sprintf("no answer from %s within %s (%s)", r.Endpoint, s.cfg.Timeout, dynamo.Target(r.Op, r.Table))}
		}
	}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeTimeout, Cause: &timeoutCause{},
		Msg:  fmt.Sprintf("statement did not finish within --timeout %s", s.cfg.Timeout),
		Hint: "allow more time with --timeout, or narrow the statement (EXPLAIN shows its reads)"}
}

// noAnswer reports whether err says the endpoint never answered: nothing
// was read, so there is nothing to add about partial results.
func noAnswer(err error) bool {
	var c *timeoutCause
	return errors.As(err, &c) && c.noAnswer
}
