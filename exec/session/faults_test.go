package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/wire"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// The fault tests put an HTTP proxy between a real SDK client (built by
// dynamo.Connect: adaptive retries) and dynalite. The proxy fails chosen
// attempts the way DynamoDB and networks fail: throttling and
// provisioned-throughput errors (HTTP 400 with DynamoDB's __type), HTTP
// 500s, connections reset before or in the middle of a response, and
// stalls. Whatever happens, a statement must end either with exactly the
// result it has without faults, or with an error that says what had been
// read and consumed: never with fewer rows presented as the result.

type fault int

const (
	faultNone fault = iota
	faultThrottling
	faultProvisioned
	faultServerError
	faultReset
	faultResetMidBody
	faultStall
)

var faultNames = map[fault]string{faultNone: "none", faultThrottling: "ThrottlingException",
	faultProvisioned: "ProvisionedThroughputExceededException", faultServerError: "HTTP 500",
	faultReset: "connection reset", faultResetMidBody: "reset mid-body", faultStall: "stall"}

// faultProxy forwards requests to dynalite and fails some attempts. Which
// attempt fails, and how, is a hash of the seed, the operation, the request
// body and the SDK's attempt number: deterministic whatever the order in
// which concurrent requests arrive.
type faultProxy struct {
	t      testing.TB
	target string
	prefix string // the tables' name prefix, left out of the hash
	client *http.Client
	seed   uint64
	rate   float64 // share of attempts that fail
	kinds  []fault
	stall  time.Duration
	// healthy lets this many requests through before faults start.
	healthy int64

	seen atomic.Int64
	mu   sync.Mutex
	hits map[fault]int
}

func newFaultProxy(t testing.TB, target, prefix string, seed uint64, rate float64, kinds ...fault) (*faultProxy, *httptest.Server) {
	p := &faultProxy{t: t, target: target, prefix: prefix, client: &http.Client{Timeout: time.Minute}, seed: seed, rate: rate, kinds: kinds,
		stall: 3 * time.Second, hits: map[fault]int{}}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv
}

func (p *faultProxy) choose(r *http.Request, body []byte) fault {
	if p.seen.Add(1) <= p.healthy || p.rate == 0 || len(p.kinds) == 0 {
		return faultNone
	}
	h := fnv.New64a()
	// amz-sdk-request is "attempt=N; max=M" (plus a ttl= on retries).
	attempt := attemptRE.FindString(r.Header.Get("Amz-Sdk-Request"))
	fmt.Fprintf(h, "%d|%s|%s|", p.seed, r.Header.Get("X-Amz-Target"), attempt)
	h.Write(bytes.ReplaceAll(canonicalJSON(body), []byte(p.prefix), nil))
	sum := h.Sum64()
	if float64(sum%1_000_000)/1_000_000 >= p.rate {
		return faultNone
	}
	return p.kinds[(sum/1_000_000)%uint64(len(p.kinds))]
}

func (p *faultProxy) counts() map[fault]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[fault]int{}
	for k, v := range p.hits {
		out[k] = v
	}
	return out
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	f := faultNone
	if strings.HasSuffix(r.Header.Get("X-Amz-Target"), "Item") || strings.Contains(r.Header.Get("X-Amz-Target"), "Query") ||
		strings.Contains(r.Header.Get("X-Amz-Target"), "Scan") {
		f = p.choose(r, body) // reads only: DescribeTable is left alone
	}
	p.mu.Lock()
	p.hits[f]++
	p.mu.Unlock()
	switch f {
	case faultNone:
		p.forward(w, r, body)
	case faultThrottling:
		dynamoError(w, http.StatusBadRequest, "ThrottlingException", "Rate of requests exceeds the allowed throughput.")
	case faultProvisioned:
		dynamoError(w, http.StatusBadRequest, "ProvisionedThroughputExceededException",
			"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.")
	case faultServerError:
		dynamoError(w, http.StatusInternalServerError, "InternalServerError", "Internal server error")
	case faultReset:
		resetConn(w, nil)
	case faultResetMidBody:
		rec := httptest.NewRecorder()
		p.forward(rec, r, body)
		var head bytes.Buffer
		resp := rec.Result()
		fmt.Fprintf(&head, "HTTP/1.1 %d %s\r\n", resp.StatusCode, http.StatusText(resp.StatusCode))
		_ = resp.Header.Write(&head)
		fmt.Fprintf(&head, "\r\n")
		b := rec.Body.Bytes()
		head.Write(b[:len(b)/2])
		resetConn(w, head.Bytes())
	case faultStall:
		select {
		case <-time.After(p.stall):
			p.forward(w, r, body)
		case <-r.Context().Done():
		}
	}
}

// forward sends the request on to dynalite and copies the answer back. The
// upstream request is not tied to the client's: a client that gives up (a
// timeout, a cancelled segment) must not abort a request dynalite is still
// answering, which makes the shared dynalite process exit.
func (p *faultProxy) forward(w http.ResponseWriter, r *http.Request, body []byte) {
	req, err := http.NewRequestWithContext(context.Background(), r.Method, p.target+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		panic(err)
	}
	req.Header = r.Header.Clone()
	resp, err := p.client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

var attemptRE = regexp.MustCompile(`attempt=\d+`)

// canonicalJSON re-encodes a request body with sorted object keys: the SDK
// writes map members in Go's random map order.
func canonicalJSON(body []byte) []byte {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// dynamoError answers as DynamoDB does: a JSON body with __type.
func dynamoError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.Header().Set("X-Amzn-Requestid", "FAULTPROXY")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":%q}`, typ, msg)
}

// resetConn writes prefix (when any) and closes the connection with a TCP
// reset.
func resetConn(w http.ResponseWriter, prefix []byte) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	if len(prefix) > 0 {
		_, _ = buf.Write(prefix)
		_ = buf.Flush()
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// faultClient is a dynamo.Connect client pointed at the proxy. The backoff
// between attempts is capped (throttling backoff starts at 1 s) and, when
// timeout is set, each attempt times out after it.
func faultClient(t testing.TB, endpoint string, attempts int, timeout time.Duration) *spyClient {
	t.Helper()
	conn, err := dynamo.Connect(context.Background(), dynamo.ConnectOptions{EndpointURL: endpoint, MaxAttempts: attempts})
	if err != nil {
		t.Fatal(err)
	}
	sp := spy(conn.Client)
	sp.sdk = conn.Client
	sp.Opts = append(sp.Opts, func(o *dynamodb.Options) { o.Retryer = retry.AddWithMaxBackoffDelay(o.Retryer, 20*time.Millisecond) })
	if timeout > 0 {
		hc := awshttp.NewBuildableClient().WithTimeout(timeout)
		sp.Opts = append(sp.Opts, func(o *dynamodb.Options) { o.HTTPClient = hc })
	}
	return sp
}

type faultStatement struct {
	name, sql string
	segments  int
	unordered bool // rows from parallel segments: compare as multisets
	fast      bool // decode pages with exec/dynamo/wire (Session.Raw)
}

func faultStatements(app, orders, custs string) []faultStatement {
	var keys []string
	for i := 1; i <= 150; i += 5 {
		keys = append(keys, fmt.Sprintf("'DOC#B%05d'", i))
	}
	return []faultStatement{
		{name: "Query 4 pages", sql: fmt.Sprintf("SELECT SK, seq FROM `%s` WHERE PK = 'WS#big'", app)},
		{name: "Scan 4 segments", sql: fmt.Sprintf("SELECT PK, SK FROM `%s`", app), segments: 4, unordered: true},
		{name: "COUNT Scan 3 segments", sql: fmt.Sprintf("SELECT COUNT(*) FROM `%s`", app), segments: 3},
		{name: "BatchGetItem", sql: fmt.Sprintf("SELECT SK, title FROM `%s` WHERE PK = 'WS#big' AND SK IN (%s)", app, strings.Join(keys, ", "))},
		{name: "GetItem", sql: fmt.Sprintf("SELECT * FROM `%s` WHERE PK = 'WS#acme' AND SK = 'META'", app)},
		{name: "IN merge", sql: fmt.Sprintf("SELECT PK, SK FROM `%s` WHERE PK IN ('WS#acme', 'WS#globex', 'WS#initech') ORDER BY SK", app)},
		{name: "lookup join", sql: fmt.Sprintf("SELECT o.SK, c.name FROM `%s` o JOIN `%s` c ON o.cust = c.id WHERE o.PK = 'ORD'", orders, custs)},
	}
}

func (fs faultStatement) setup(cfg *session.Config) {
	cfg.Plan.AllowScan = true
	cfg.Plan.Segments = fs.segments
	cfg.Concurrency = 4
}

func (fs faultStatement) rows(r result) []string {
	rows := r.rows()
	if fs.unordered {
		sort.Strings(rows)
	}
	return rows
}

var failureRE = regexp.MustCompile(`had sent (\d+) requests?, read (\d+) items and consumed ([0-9.]+) RCU; any rows printed are incomplete`)

// checkOutcome accepts the complete result or a clear error that reports
// the statement's own figures.
func checkOutcome(t *testing.T, fs faultStatement, want []string, r result) (failed bool) {
	t.Helper()
	if r.Error == nil {
		got := fs.rows(r)
		if len(got) != len(want) {
			t.Fatalf("%s succeeded with %d rows; without faults it has %d", fs.name, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s succeeded with row %d = %q; without faults %q", fs.name, i, got[i], want[i])
			}
		}
		return false
	}
	var ee *diag.Error
	if !errors.As(r.Error, &ee) {
		t.Fatalf("%s: error %v (%T) is not an exec error", fs.name, r.Error, r.Error)
	}
	m := failureRE.FindStringSubmatch(ee.Msg)
	if m == nil {
		t.Fatalf("%s: error %q does not say what was read and consumed", fs.name, ee.Msg)
	}
	if r.Stats == nil {
		t.Fatalf("%s: failed without a stats line", fs.name)
	}
	if m[1] != strconv.Itoa(r.Stats.Requests) || m[2] != strconv.FormatInt(r.Stats.ItemsRead, 10) || m[3] != strconv.FormatFloat(r.Stats.RCU, 'f', -1, 64) {
		t.Fatalf("%s: error says %q; stats say %d requests, %d items, %v RCU", fs.name, m[0], r.Stats.Requests, r.Stats.ItemsRead, r.Stats.RCU)
	}
	return true
}

func TestFaults(t *testing.T) {
	ctx := context.Background()
	loadStart := time.Now()
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	app := fixtures.App()
	orders, custs := joinTables()
	if err := fixtures.Load(ctx, client, prefix, app, orders, custs); err != nil {
		t.Fatal(err)
	}
	stmts := faultStatements(app.Named(prefix), orders.Named(prefix), custs.Named(prefix))
	want := map[string][]string{}
	for _, fs := range stmts {
		r := mustRun(t, client, fs.setup, fs.sql)
		want[fs.name] = fs.rows(r)
		if len(want[fs.name]) == 0 {
			t.Fatalf("%s: no rows without faults", fs.name)
		}
	}
	endpoint := dynalitetest.Endpoint(t)

	t.Logf("loaded in %v", time.Since(loadStart))

	// runFaults runs fs through proxies with successive seeds until at least
	// minHits attempts failed with one of kinds (at most 12 seeds), checking
	// every outcome; it returns the faults injected and the failures.
	runFaults := func(t *testing.T, fs faultStatement, seedBase uint64, rate float64, attempts int, timeout time.Duration, minHits int, kinds ...fault) (map[fault]int, int) {
		total, failures := map[fault]int{}, 0
		for seed := seedBase; seed < seedBase+12 && sumFaults(total) < minHits; seed++ {
			proxy, srv := newFaultProxy(t, endpoint, prefix, seed, rate, kinds...)
			sp := faultClient(t, srv.URL, attempts, timeout)
			setup := fs.setup
			if fs.fast {
				setup = func(cfg *session.Config) { fs.setup(cfg); cfg.Raw = wire.New(sp.sdk) }
			}
			r := run(t, sp, setup, fs.sql)
			if checkOutcome(t, fs, want[fs.name], r) {
				failures++
				t.Logf("%s (seed %d): %v", fs.name, seed, r.Error)
			}
			for k, v := range proxy.counts() {
				total[k] += v
			}
		}
		if sumFaults(total) < minHits {
			t.Fatalf("%s: only %d faults injected in 12 seeds", fs.name, sumFaults(total))
		}
		return total, failures
	}

	t.Run("retried faults give the full result", func(t *testing.T) {
		// HTTP 500s and resets (before or in the middle of a response) at
		// 35% of attempts, with 10 attempts per request.
		for i, fs := range stmts {
			hits, failures := runFaults(t, fs, uint64(1000+100*i), 0.35, 10, 0, 3, faultServerError, faultReset, faultResetMidBody)
			if failures > 0 {
				t.Fatalf("%s failed %d times although every request had 10 attempts", fs.name, failures)
			}
			t.Logf("%s: %s", fs.name, describeHits(hits))
		}
	})

	t.Run("fast path: retried faults give the full result", func(t *testing.T) {
		// The same with Query and Scan pages decoded straight into Arrow
		// (exec/dynamo/wire), whose decoder sees every attempt's body.
		for i, fs := range stmts[:3] {
			fs.fast = true
			hits, failures := runFaults(t, fs, uint64(1500+100*i), 0.35, 10, 0, 3, faultServerError, faultReset, faultResetMidBody)
			if failures > 0 {
				t.Fatalf("%s failed %d times although every request had 10 attempts", fs.name, failures)
			}
			t.Logf("%s (fast path): %s", fs.name, describeHits(hits))
		}
	})

	t.Run("throttling is retried", func(t *testing.T) {
		// Throttling makes the SDK's adaptive mode slow the client down
		// (seconds per request on a new client), so fewer statements.
		for i, fs := range []faultStatement{stmts[0], stmts[3], stmts[6]} {
			t.Run(fs.name, func(t *testing.T) {
				t.Parallel()
				hits, failures := runFaults(t, fs, uint64(2000+100*i), 0.25, 10, 0, 1, faultThrottling, faultProvisioned)
				if failures > 0 {
					t.Fatalf("%s failed %d times although every request had 10 attempts", fs.name, failures)
				}
				t.Logf("%s: %s", fs.name, describeHits(hits))
			})
		}
	})

	t.Run("stalls past the attempt timeout are retried", func(t *testing.T) {
		// The attempt timeout leaves room for a loaded dynalite; a stall
		// lasts 3 s.
		for i, fs := range stmts[:2] {
			hits, failures := runFaults(t, fs, uint64(3000+100*i), 0.2, 6, 800*time.Millisecond, 1, faultStall)
			if failures > 0 {
				t.Fatalf("%s failed %d times although every request had 6 attempts", fs.name, failures)
			}
			t.Logf("%s: %s", fs.name, describeHits(hits))
		}
	})

	t.Run("a stall past --timeout fails with what was read", func(t *testing.T) {
		fs := stmts[0]
		proxy, srv := newFaultProxy(t, endpoint, prefix, 4000, 1, faultStall)
		proxy.healthy = 2 // two pages, then the third stalls
		proxy.stall = 10 * time.Second
		r := run(t, faultClient(t, srv.URL, 3, 0), func(cfg *session.Config) { fs.setup(cfg); cfg.Timeout = 1500 * time.Millisecond }, fs.sql)
		if !checkOutcome(t, fs, want[fs.name], r) {
			t.Fatal("the statement succeeded through a stall longer than --timeout")
		}
		var ee *diag.Error
		if errors.As(r.Error, &ee); ee.Code != diag.CodeTimeout || r.Stats.ItemsRead == 0 {
			t.Fatalf("err = %v (code %s), items read %d; want a timeout after two pages", r.Error, ee.Code, r.Stats.ItemsRead)
		}
	})

	t.Run("exhausted retries fail clearly", func(t *testing.T) {
		cases := []struct {
			kind  fault
			code  diag.Code
			says  []string
			stmts []faultStatement
		}{
			{faultThrottling, diag.CodeThrottled, []string{"throttled", "retries were exhausted", "gave up after 2 attempts"}, []faultStatement{stmts[0]}},
			{faultProvisioned, diag.CodeThrottled, []string{"throttled", "retries were exhausted", "gave up after 2 attempts"}, []faultStatement{stmts[6]}},
			{faultServerError, diag.CodeDynamo, []string{"InternalServerError", "gave up after 2 attempts"}, []faultStatement{stmts[0], stmts[1], stmts[3], stmts[6]}},
			{faultReset, diag.CodeUnreachable, []string{"connection was reset", "attempts"}, []faultStatement{stmts[0], stmts[1], stmts[3], stmts[6]}},
			{faultResetMidBody, "", []string{"attempts"}, []faultStatement{stmts[0], stmts[3]}},
		}
		for _, c := range cases {
			for _, fs := range c.stmts {
				t.Run(faultNames[c.kind]+"/"+fs.name, func(t *testing.T) {
					t.Parallel()
					// The first request gets through (the join's driving
					// Query, the first page or segment), then every attempt
					// fails; a single BatchGetItem fails at once.
					proxy, srv := newFaultProxy(t, endpoint, prefix, 5000, 1, c.kind)
					if fs.name != "BatchGetItem" {
						proxy.healthy = 1
					}
					r := run(t, faultClient(t, srv.URL, 2, 0), fs.setup, fs.sql)
					if !checkOutcome(t, fs, want[fs.name], r) {
						t.Fatalf("succeeded although every attempt after the first request failed")
					}
					var ee *diag.Error
					errors.As(r.Error, &ee)
					if c.code != "" && ee.Code != c.code {
						t.Errorf("code %q, want %q: %v", ee.Code, c.code, r.Error)
					}
					for _, s := range c.says {
						if !strings.Contains(r.Error.Error(), s) {
							t.Errorf("error does not say %q: %v", s, r.Error)
						}
					}
					if r.Stats.ItemsRead == 0 && proxy.healthy > 0 && fs.segments == 0 {
						t.Errorf("the first request got through, but the error reports nothing read: %v", r.Error)
					}
					t.Logf("%v", r.Error)
				})
			}
		}
	})
}

func sumFaults(h map[fault]int) int {
	n := 0
	for k, v := range h {
		if k != faultNone {
			n += v
		}
	}
	return n
}

func describeHits(h map[fault]int) string {
	var parts []string
	for k := faultNone; k <= faultStall; k++ {
		if h[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", faultNames[k], h[k]))
		}
	}
	return strings.Join(parts, ", ")
}
