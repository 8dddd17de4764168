package main

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/replay"
	"github.com/ddbsql/ddbsql/parser/diag"
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
			t.Parallel()
			r := invokeBounded(t, "--endpoint-url", endpoint, "-e", st.sql)
			want := "error: no answer from " + endpoint + " within 300ms per attempt, 3 attempts (" + st.request + ")\n"
			if r.code != exitError || r.errorCode() != diag.CodeUnreachable || !startsWith(r.err, want) {
				t.Fatalf("exit %d, code %q, stderr:\n%s\nwant exit 1, code %q, stderr starting %q", r.code, r.errorCode(), r.err, diag.CodeUnreachable, want)
			}
		})
	}
}

func startsWith(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// TestTimeoutBoundsEveryStatement checks that --timeout bounds the whole
// statement, planning and metadata included, against an endpoint that
// accepts connections and never answers: each statement fails with the
// request it was waiting for, exit status 1, instead of hanging.
func TestTimeoutBoundsEveryStatement(t *testing.T) {
	endpoint := silentEndpoint(t)
	for _, st := range metadataStatements {
		t.Run(st.sql, func(t *testing.T) {
			t.Parallel()
			r := invokeBounded(t, "--endpoint-url", endpoint, "--timeout", "2s", "-e", st.sql)
			want := "error: no answer from " + endpoint + " within 2s (" + st.request + ")\n"
			if r.code != exitError || r.errorCode() != diag.CodeTimeout || r.err != want {
				t.Fatalf("exit %d, code %q, stderr:\n%s\nwant exit 1, code %q, stderr %q", r.code, r.errorCode(), r.err, diag.CodeTimeout, want)
			}
		})
	}
	t.Run("the timeout as written", func(t *testing.T) {
		t.Parallel()
		r := invokeBounded(t, "--endpoint-url", endpoint, "--timeout", "1500ms", "-e", "SHOW TABLES")
		if want := "error: no answer from " + endpoint + " within 1.5s (ListTables)\n"; r.err != want {
			t.Fatalf("stderr %q, want %q", r.err, want)
		}
	})
	t.Run("a script stops at the first statement", func(t *testing.T) {
		t.Parallel()
		r := invokeBounded(t, "--endpoint-url", endpoint, "--timeout", "1s", "-e", "SHOW TABLES; DESCRIBE app")
		if want := "error: no answer from " + endpoint + " within 1s (ListTables)\n"; r.code != exitError || r.err != want {
			t.Fatalf("exit %d, stderr %q, want %q", r.code, r.err, want)
		}
	})
}

// stallingProxy forwards requests to target until reads (Query, Scan,
// GetItem, BatchGetItem) have been answered healthy times, then holds every
// further read unanswered until the client gives up: a server that stops
// answering in the middle of a statement.
func stallingProxy(t *testing.T, target string, healthy int64) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	forward := httputil.NewSingleHostReverseProxy(u)
	var reads atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op := r.Header.Get("X-Amz-Target")
		if !strings.HasSuffix(op, ".DescribeTable") && !strings.HasSuffix(op, ".ListTables") && reads.Add(1) > healthy {
			// Reading the body first lets the server notice when the
			// client closes the connection (and end r.Context()).
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

var unfinishedRE = regexp.MustCompile(`^error: statement did not finish within --timeout 3s \(the statement had sent (\d+) requests, read (\d+) items and consumed ([0-9.]+) RCU; any rows printed are incomplete\)\nhint: allow more time with --timeout`)

// TestTimeoutMidRead checks the two ways a statement that got answers can
// run out of time: after reading pages it "did not finish" and says what
// it had read; when its first read is never answered it says so, though
// DescribeTable was.
func TestTimeoutMidRead(t *testing.T) {
	backend := replay.New(replay.Options{Items: 2000, PartitionSize: 2000, PageBytes: 8 << 10})
	t.Cleanup(backend.Close)
	sql := "SELECT sk, amount FROM t WHERE pk = 'TENANT#00000'"

	t.Run("after two pages", func(t *testing.T) {
		t.Parallel()
		endpoint := stallingProxy(t, backend.URL, 2)
		r := invokeBounded(t, "--endpoint-url", endpoint, "--timeout", "3s", "--format", "csv", "-e", sql)
		t.Logf("stderr: %s", r.err)
		m := unfinishedRE.FindStringSubmatch(r.err)
		if r.code != exitError || r.errorCode() != diag.CodeTimeout || m == nil {
			t.Fatalf("exit %d, code %q, stderr:\n%s", r.code, r.errorCode(), r.err)
		}
		if m[1] != "3" || m[2] == "0" {
			t.Errorf("the error reports %s requests and %s items; want 3 requests (two answered) and the items of two pages", m[1], m[2])
		}
	})
	t.Run("a parallel Scan", func(t *testing.T) {
		// Segments read on their own goroutines, one page ahead: all of
		// them must stop at the deadline.
		t.Parallel()
		endpoint := stallingProxy(t, backend.URL, 6)
		r := invokeBounded(t, "--endpoint-url", endpoint, "--timeout", "3s", "--allow-scan", "--segments", "4", "-e", "SELECT COUNT(*) FROM t")
		if r.code != exitError || r.errorCode() != diag.CodeTimeout || unfinishedRE.FindStringSubmatch(r.err) == nil {
			t.Fatalf("exit %d, code %q, stderr:\n%s", r.code, r.errorCode(), r.err)
		}
	})
	t.Run("before the first page", func(t *testing.T) {
		t.Parallel()
		endpoint := stallingProxy(t, backend.URL, 0)
		r := invokeBounded(t, "--endpoint-url", endpoint, "--timeout", "3s", "-e", sql)
		if want := "error: no answer from " + endpoint + " within 3s (Query t)\n"; r.code != exitError || r.err != want {
			t.Fatalf("exit %d, stderr %q, want %q", r.code, r.err, want)
		}
	})
}
