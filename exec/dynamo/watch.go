package dynamo

import (
	"context"
	"sync"
	"time"
)

// Watch records what happened to the requests of one statement sent
// through clients built by Connect: which got an answer (any HTTP
// response, error responses included) and which were still waiting when
// they ended. The session puts one in each statement's context
// (WithWatch) so that a statement stopped by its --timeout can tell "the
// endpoint never answered" from "the statement was slow". Other clients
// (the in-process backends) record nothing.
//
// Once a read has been answered the statement has made progress and no
// request can be the one it waited for in vain, so the watch keeps no
// further records: a statement of many thousand requests costs it nothing.
type Watch struct {
	mu           sync.Mutex
	answered     bool    // some request got an answer
	readAnswered bool    // some read (not DescribeTable or ListTables) did
	calls        []*call // the calls made while no read had an answer
}

// Request is one call as a Watch saw it.
type Request struct {
	Op       string // DescribeTable, Query, …
	Table    string // empty for ListTables
	Endpoint string // scheme://host[:port] the last attempt was sent to
	// Failure is the last attempt's error that was not the statement's
	// context ending (e.g. connection refused before a retry), if any.
	Failure error
}

type watchKey struct{}

// WithWatch makes calls made with ctx report to w.
func WithWatch(ctx context.Context, w *Watch) context.Context {
	return context.WithValue(ctx, watchKey{}, w)
}

func watchOf(ctx context.Context) *Watch {
	w, _ := ctx.Value(watchKey{}).(*Watch)
	return w
}

func (w *Watch) add(c *call) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	c.watch = w
	if !w.readAnswered {
		w.calls = append(w.calls, c)
	}
}

// heard notes that a call of op got an answer.
func (w *Watch) heard(op string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.answered = true
	if !isMetadata(op) {
		w.readAnswered, w.calls = true, nil
	}
}

// Answered reports whether any request of the statement got an answer.
func (w *Watch) Answered() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.answered
}

// ReadAnswered reports whether any read (GetItem, BatchGetItem, Query,
// Scan) got an answer: whether the statement made progress beyond
// DescribeTable and ListTables.
func (w *Watch) ReadAnswered() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.readAnswered
}

// Unanswered returns the first request (in the order they were made) that
// was sent and never got an answer, while no read has been answered.
func (w *Watch) Unanswered() (Request, bool) {
	w.mu.Lock()
	calls := append([]*call(nil), w.calls...)
	w.mu.Unlock()
	for _, c := range calls {
		if r, ok := c.unanswered(); ok {
			return r, true
		}
	}
	return Request{}, false
}

// call is the record of one API call (all its attempts). The middlewares
// of bounds.go fill it in; several goroutines may read it.
type call struct {
	op, table string
	watch     *Watch // the statement's, if any (set before the first attempt)

	mu       sync.Mutex
	tries    int // attempts made
	attempts int // attempts sent
	answers  int // attempts that got an HTTP response
	endpoint string
	failure  error         // the last attempt error not caused by the caller's context
	timeouts int           // attempts that ended at a per-attempt bound
	wait     time.Duration // that bound
}

type callKey struct{}

func withCall(ctx context.Context, c *call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

func callOf(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

func (c *call) unanswered() (Request, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.attempts == 0 || c.answers > 0 {
		return Request{}, false
	}
	return Request{Op: c.op, Table: c.table, Endpoint: c.endpoint, Failure: c.failure}, true
}
