package main

import (
	"net"
	"sync"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec"
)

// silentEndpoint accepts TCP connections and never answers: an endpoint
// that is up but dead. It is closed when the test ends.
func silentEndpoint(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

// hangBound is how long a statement against a dead endpoint may take in
// these tests before it counts as hanging: far above the bounds under
// test, far below "forever". It is not a speed assertion.
const hangBound = 15 * time.Second

// invokeBounded runs ddbsql and fails the test when it does not return
// within hangBound.
func invokeBounded(t *testing.T, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() { done <- invoke(args, "") }()
	select {
	case r := <-done:
		return r
	case <-time.After(hangBound):
		t.Fatalf("ddbsql %v was still running after %v", args, hangBound)
	}
	return result{}
}

// metadataStatements are the statements that need DescribeTable or
// ListTables before anything else, with the request they wait for.
var metadataStatements = []struct{ sql, request string }{
	{"SELECT * FROM app WHERE PK = 'x'", "DescribeTable app"},
	{"EXPLAIN SELECT * FROM app WHERE PK = 'x'", "DescribeTable app"},
	{"DESCRIBE app", "DescribeTable app"},
	{"SHOW INDEXES FROM app", "DescribeTable app"},
	{"SHOW TABLES", "ListTables"},
}

// TestDeadEndpointWithoutTimeout checks the bound every statement has
// without --timeout: each DescribeTable or ListTables attempt ends after
// the per-attempt bound (10 s in production, shortened here), and after
// its attempts the statement fails saying so.
func TestDeadEndpointWithoutTimeout(t *testing.T) {
	endpoint := silentEndpoint(t)
	metadataAttemptTimeout = 300 * time.Millisecond
	t.Cleanup(func() { metadataAttemptTimeout = 0 })
	for _, st := range metadataStatements {
		t.Run(st.sql, func(t *testing.T) {
			r := invokeBounded(t, "--endpoint-url", endpoint, "-e", st.sql)
			want := "error: no answer from " + endpoint + " within 300ms per attempt, 3 attempts (" + st.request + ")\n"
			if r.code != exitError || r.errorCode() != exec.CodeUnreachable || !startsWith(r.err, want) {
				t.Fatalf("exit %d, code %q, stderr:\n%s\nwant exit 1, code %q, stderr starting %q", r.code, r.errorCode(), r.err, exec.CodeUnreachable, want)
			}
		})
	}
}

func startsWith(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }
