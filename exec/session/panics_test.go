package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// faultyDemo is the demo data in the in-process backend, with a fault that
// tests choose per statement: it runs at the start of every request.
type faultyDemo struct {
	db    *memdb.DB
	fault atomic.Pointer[func(ctx context.Context, op string, input any) error]
}

func newFaultyDemo(t *testing.T) *faultyDemo {
	t.Helper()
	f := &faultyDemo{}
	f.db = memdb.New(memdb.WithRequestHook(func(ctx context.Context, op string, input any) error {
		if h := f.fault.Load(); h != nil {
			return (*h)(ctx, op, input)
		}
		return nil
	}))
	if _, err := offline.LoadDemo(context.Background(), f.db); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *faultyDemo) set(h func(ctx context.Context, op string, input any) error) { f.fault.Store(&h) }

// stalled stands for a request still in flight when another one fails: it
// returns only when its context is cancelled. If nobody cancels it, it
// gives up after a while and counts itself, and the test fails.
func stalled(ctx context.Context, leftRunning *atomic.Int32) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(20 * time.Second):
		leftRunning.Add(1)
		return errors.New("never cancelled")
	}
}

// TestPanicInWorkers checks that a panic inside any goroutine the engine
// starts fails the statement with an internal error instead of crashing
// the process: the panic is recovered on the worker (its stack shows the
// worker's frame, so it did not reach the statement's own recover), the
// requests still in flight are cancelled, and no Arrow memory is left
// allocated.
func TestPanicInWorkers(t *testing.T) {
	demo := newFaultyDemo(t)
	cases := []struct {
		name     string
		sql      string
		segments int
		// panics says whether a request panics; the others stall until
		// cancelled when stallOthers is set.
		panics      func(op string, input any) bool
		stallOthers string // the operation whose other requests stall
		frame       string // a function on the panicking goroutine's stack
	}{
		{name: "read-ahead pages of one Query", sql: "SELECT * FROM app WHERE PK = 'WS#acme'",
			panics: isOp("Query"), frame: "engine.(*segmentReader).read"},
		{name: "parallel Scan segments", sql: "SELECT * FROM app", segments: 4,
			panics:      func(op string, in any) bool { s, ok := in.(*dynamodb.ScanInput); return ok && *s.Segment == 2 },
			stallOthers: "Scan", frame: "engine.(*segmentReader).read"},
		{name: "COUNT over parallel segments", sql: "SELECT COUNT(*) FROM app", segments: 3,
			panics:      func(op string, in any) bool { s, ok := in.(*dynamodb.ScanInput); return ok && *s.Segment == 0 },
			stallOthers: "Scan", frame: "engine.(*segmentReader).read"},
		{name: "concurrent IN-list Queries", sql: "SELECT * FROM app WHERE PK IN ('WS#acme', 'WS#hooli', 'WS#initech')",
			panics: queryFor("WS#hooli"), stallOthers: "Query", frame: "engine.forEach"},
		{name: "IN-list Queries merged in sort-key order", sql: "SELECT PK, SK FROM app WHERE PK IN ('WS#acme', 'WS#hooli') ORDER BY SK",
			panics: queryFor("WS#acme"), stallOthers: "Query", frame: "engine.forEach"},
		{name: "lookup join by BatchGetItem",
			sql:    "SELECT o.SK, o.total, c.name FROM orders o JOIN customers c ON o.customer_id = c.id WHERE o.PK = 'USER#u_001'",
			panics: isOp("BatchGetItem"), frame: "engine.forEach"},
		{name: "lookup join by concurrent Queries",
			sql:    "SELECT c.id, o.SK FROM customers c JOIN orders o ON o.status = c.status WHERE c.id IN ('u_001', 'u_002', 'u_003')",
			panics: isOp("Query"), frame: "engine.forEach"},
		{name: "union of key conditions", sql: "SELECT SK, title FROM app WHERE PK = 'WS#hooli' OR GSI1PK = 'STATUS#REVIEW'",
			panics: func(op string, in any) bool { q, ok := in.(*dynamodb.QueryInput); return ok && q.IndexName != nil },
			frame:  "engine.(*segmentReader).read"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var panicked, leftRunning atomic.Int32
			demo.set(func(ctx context.Context, op string, input any) error {
				if tc.panics(op, input) {
					panicked.Add(1)
					panic(fmt.Sprintf("injected fault in %s", op))
				}
				if op == tc.stallOthers {
					return stalled(ctx, &leftRunning)
				}
				return nil
			})
			defer demo.set(nil)
			var out, errOut bytes.Buffer
			cfg := session.DefaultConfig()
			cfg.Mem = memtest.Allocator(t)
			cfg.Plan.AllowScan = true
			cfg.Plan.Segments = tc.segments
			s := session.New(demo.db, &out, &errOut, cfg)
			err := s.RunScript(context.Background(), tc.sql)
			if panicked.Load() == 0 {
				t.Fatalf("the fault never fired (err %v)", err)
			}
			var ee *diag.Error
			if !errors.As(err, &ee) || ee.Code != diag.CodeInternal {
				t.Fatalf("error %T %v, want code %q", err, err, diag.CodeInternal)
			}
			if !strings.HasPrefix(ee.Msg, "internal error: injected fault in ") || !strings.Contains(ee.Msg, "(please report this statement)") {
				t.Errorf("message %q", ee.Msg)
			}
			if stack := string(engine.PanicStack(err)); !strings.Contains(stack, tc.frame) {
				t.Errorf("the panic was not recovered on the worker (%s not on its stack):\n%s", tc.frame, stack)
			}
			if n := leftRunning.Load(); n > 0 {
				t.Errorf("%d requests were not cancelled after the panic", n)
			}
			if out.Len() > 0 {
				t.Errorf("a failed statement printed rows:\n%s", out.String())
			}
		})
	}
}

func isOp(want string) func(string, any) bool {
	return func(op string, _ any) bool { return op == want }
}

// queryFor selects the Query whose key condition takes the value pk.
func queryFor(pk string) func(string, any) bool {
	return func(op string, in any) bool {
		q, ok := in.(*dynamodb.QueryInput)
		if !ok {
			return false
		}
		for _, v := range q.ExpressionAttributeValues {
			if s, ok := v.(*types.AttributeValueMemberS); ok && s.Value == pk {
				return true
			}
		}
		return false
	}
}

// panicWriter panics on the first write, as a bug in drawing would.
type panicWriter struct{ writes atomic.Int32 }

func (w *panicWriter) Write(b []byte) (int, error) {
	w.writes.Add(1)
	panic("injected fault in the progress line")
}

// TestPanicInProgressLine checks that a panic while drawing the progress
// line (its own goroutine) fails the statement with an internal error
// rather than crashing the process or passing unnoticed.
func TestPanicInProgressLine(t *testing.T) {
	defer session.SetProgressDelay(0)()
	demo := newFaultyDemo(t)
	w := &panicWriter{}
	// Hold the read until the line has been drawn once.
	demo.set(func(ctx context.Context, op string, _ any) error {
		deadline := time.Now().Add(10 * time.Second)
		for op == "Query" && w.writes.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		return nil
	})
	defer demo.set(nil)
	var out bytes.Buffer
	cfg := session.DefaultConfig()
	cfg.Progress, cfg.OutRedirected = w, true
	cfg.Mem = memtest.Allocator(t)
	s := session.New(demo.db, &out, io.Discard, cfg)
	err := s.RunScript(context.Background(), "SELECT SK FROM app WHERE PK = 'WS#acme'")
	if w.writes.Load() == 0 {
		t.Fatal("the progress line was never drawn")
	}
	var ee *diag.Error
	if !errors.As(err, &ee) || ee.Code != diag.CodeInternal || !strings.Contains(ee.Msg, "injected fault in the progress line") {
		t.Fatalf("error %T %v, want an internal error", err, err)
	}
}

// TestPanicOnStatementGoroutine checks the statement's own recover: a
// panic in the request made from the statement's goroutine (a GetItem) is
// the same internal error.
func TestPanicOnStatementGoroutine(t *testing.T) {
	demo := newFaultyDemo(t)
	demo.set(func(_ context.Context, op string, _ any) error {
		if op == "GetItem" {
			panic("injected fault in GetItem")
		}
		return nil
	})
	defer demo.set(nil)
	cfg := session.DefaultConfig()
	cfg.Mem = memtest.Allocator(t)
	s := session.New(demo.db, io.Discard, io.Discard, cfg)
	err := s.RunScript(context.Background(), "SELECT * FROM app WHERE PK = 'WS#acme' AND SK = 'META'")
	var ee *diag.Error
	if !errors.As(err, &ee) || ee.Code != diag.CodeInternal || !strings.Contains(ee.Msg, "internal error: injected fault in GetItem") {
		t.Fatalf("error %T %v, want an internal error", err, err)
	}
}
