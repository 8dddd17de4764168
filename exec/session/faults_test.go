package session_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/faultproxy"
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

// The proxy is exec/dynamo/faultproxy; these names keep the tests short.
type fault = faultproxy.Fault

const (
	faultNone         = faultproxy.None
	faultThrottling   = faultproxy.Throttling
	faultProvisioned  = faultproxy.Provisioned
	faultServerError  = faultproxy.ServerError
	faultReset        = faultproxy.Reset
	faultResetMidBody = faultproxy.ResetMidBody
	faultStall        = faultproxy.Stall
)

var newFaultProxy = faultproxy.New

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
			for k, v := range proxy.Counts() {
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
		proxy.Healthy = 2 // two pages, then the third stalls
		proxy.Stall = 10 * time.Second
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
				t.Run(c.kind.String()+"/"+fs.name, func(t *testing.T) {
					t.Parallel()
					// The first request gets through (the join's driving
					// Query, the first page or segment), then every attempt
					// fails; a single BatchGetItem fails at once.
					proxy, srv := newFaultProxy(t, endpoint, prefix, 5000, 1, c.kind)
					if fs.name != "BatchGetItem" {
						proxy.Healthy = 1
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
					if r.Stats.ItemsRead == 0 && proxy.Healthy > 0 && fs.segments == 0 {
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
			parts = append(parts, fmt.Sprintf("%s %d", k.String(), h[k]))
		}
	}
	return strings.Join(parts, ", ")
}
