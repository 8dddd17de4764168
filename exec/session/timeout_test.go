package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// stuckClient passes the operations in pass on to its client; every other
// call waits until its context ends, like an endpoint that never answers.
type stuckClient struct {
	dynamo.Client
	pass map[string]bool
}

func (c stuckClient) stuck(ctx context.Context, op string) (bool, error) {
	if c.pass[op] {
		return false, nil
	}
	<-ctx.Done()
	return true, ctx.Err()
}

func (c stuckClient) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	if stuck, err := c.stuck(ctx, "DescribeTable"); stuck {
		return nil, err
	}
	return c.Client.DescribeTable(ctx, in, o...)
}

func (c stuckClient) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	if stuck, err := c.stuck(ctx, "ListTables"); stuck {
		return nil, err
	}
	return c.Client.ListTables(ctx, in, o...)
}

func (c stuckClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if stuck, err := c.stuck(ctx, "Query"); stuck {
		return nil, err
	}
	return c.Client.Query(ctx, in, o...)
}

func (c stuckClient) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	if stuck, err := c.stuck(ctx, "Scan"); stuck {
		return nil, err
	}
	return c.Client.Scan(ctx, in, o...)
}

func (c stuckClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	if stuck, err := c.stuck(ctx, "GetItem"); stuck {
		return nil, err
	}
	return c.Client.GetItem(ctx, in, o...)
}

func (c stuckClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	if stuck, err := c.stuck(ctx, "BatchGetItem"); stuck {
		return nil, err
	}
	return c.Client.BatchGetItem(ctx, in, o...)
}

// hangBound is how long a statement may take here before it counts as
// hanging; a hang check, not a speed assertion.
const hangBound = 15 * time.Second

// runBounded runs sql in s and fails the test when it does not return
// within hangBound.
func runBounded(t *testing.T, ctx context.Context, s *session.Session, sql string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.RunScript(ctx, sql) }()
	select {
	case err := <-done:
		return err
	case <-time.After(hangBound):
		t.Fatalf("%s was still running after %v", sql, hangBound)
	}
	return nil
}

func errorCode(err error) diag.Code {
	var de *diag.Error
	if errors.As(err, &de) {
		return de.Code
	}
	return diag.Code(fmt.Sprintf("%T", err))
}

// TestTimeoutCoversEveryPhase checks that --timeout bounds planning
// (DescribeTable, ListTables), EXPLAIN, DESCRIBE, SHOW, EXPLAIN ANALYZE,
// the reads, back-fetches and join lookups: each statement waits on one
// call that never answers and fails with the timeout code.
func TestTimeoutCoversEveryPhase(t *testing.T) {
	db := memdb.New()
	orders, custs := joinTables()
	if err := fixtures.Load(context.Background(), db, "", fixtures.App(), orders, custs); err != nil {
		t.Fatal(err)
	}
	metadata := map[string]bool{"DescribeTable": true, "ListTables": true}
	cases := []struct {
		name, sql string
		pass      map[string]bool // the calls that get through
	}{
		{name: "SELECT plans", sql: "SELECT * FROM app WHERE PK = 'WS#acme'"},
		{name: "EXPLAIN", sql: "EXPLAIN SELECT * FROM app WHERE PK = 'WS#acme'"},
		{name: "DESCRIBE", sql: "DESCRIBE app"},
		{name: "SHOW INDEXES", sql: "SHOW INDEXES FROM app"},
		{name: "SHOW TABLES", sql: "SHOW TABLES"},
		{name: "the read", sql: "SELECT * FROM app WHERE PK = 'WS#acme'", pass: metadata},
		{name: "EXPLAIN ANALYZE", sql: "EXPLAIN ANALYZE SELECT * FROM app WHERE PK = 'WS#acme'", pass: metadata},
		{name: "GetItem", sql: "SELECT * FROM app WHERE PK = 'WS#acme' AND SK = 'META'", pass: metadata},
		{name: "join lookups", sql: "SELECT o.SK, c.name FROM orders o JOIN custs c ON o.cust = c.id WHERE o.PK = 'ORD'",
			pass: map[string]bool{"DescribeTable": true, "Query": true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out, errOut bytes.Buffer
			s := session.New(stuckClient{Client: db, pass: tc.pass}, &out, &errOut, timeoutConfig(300*time.Millisecond))
			err := runBounded(t, context.Background(), s, tc.sql)
			if errorCode(err) != diag.CodeTimeout || !strings.HasPrefix(err.Error(), "statement did not finish within --timeout 300ms") {
				t.Fatalf("err = %v (code %s), want the --timeout error", err, errorCode(err))
			}
			// Once a read was sent, the error says what the statement
			// had sent and read.
			if sent := strings.Contains(err.Error(), "any rows printed are incomplete"); sent != (tc.pass != nil) {
				t.Errorf("err = %q; says what was sent: %v, want %v", err, sent, tc.pass != nil)
			}
		})
	}
}

// TestCancelIsNotTimeout checks that the caller's cancellation (Ctrl-C in
// the REPL) composes with --timeout: it stops the statement at once and is
// reported as a cancellation, not a timeout.
func TestCancelIsNotTimeout(t *testing.T) {
	s := session.New(stuckClient{Client: memClient(t)}, &bytes.Buffer{}, &bytes.Buffer{}, timeoutConfig(time.Minute))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	err := runBounded(t, ctx, s, "SELECT * FROM app WHERE PK = 'WS#acme'")
	if errorCode(err) != diag.CodeCancelled {
		t.Fatalf("err = %v (code %s), want cancelled", err, errorCode(err))
	}
}

// TestConfirmScanPausesTimeout checks that the time the user takes to
// answer "Run it? [y/N]" does not count against --timeout.
func TestConfirmScanPausesTimeout(t *testing.T) {
	var out bytes.Buffer
	cfg := timeoutConfig(time.Second)
	cfg.Format = "csv"
	asked := 0
	cfg.ConfirmScan = func(ctx context.Context, _ planner.ScanEstimate) bool {
		asked++
		select {
		case <-time.After(1500 * time.Millisecond): // a user thinking longer than --timeout
		case <-ctx.Done():
			return false
		}
		return true
	}
	s := session.New(memClient(t), &out, &bytes.Buffer{}, cfg)
	if err := runBounded(t, context.Background(), s, "SELECT PK, SK FROM app WHERE status = 'review'"); err != nil {
		t.Fatalf("the statement failed after the user said yes: %v", err)
	}
	if asked != 1 || strings.Count(out.String(), "\n") < 2 {
		t.Fatalf("asked %d times; output %q", asked, out.String())
	}
}

// TestTimeoutAfterRefusedAttempts checks what a statement says when its
// read kept being refused and the retries ran into --timeout: the refusal,
// not a silent endpoint.
func TestTimeoutAfterRefusedAttempts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there any more: connections are refused
	conn, err := dynamo.Connect(context.Background(), dynamo.ConnectOptions{EndpointURL: endpoint, MaxAttempts: 50})
	if err != nil {
		t.Fatal(err)
	}
	// The table was described before the endpoint went away.
	client := describedElsewhere{Client: conn.Client, describer: memClient(t)}
	s := session.New(client, &bytes.Buffer{}, &bytes.Buffer{}, timeoutConfig(500*time.Millisecond))
	err = runBounded(t, context.Background(), s, "SELECT * FROM app WHERE PK = 'WS#acme'")
	want := "cannot reach " + endpoint + " (Query app): connection refused (retried until --timeout 500ms passed)"
	if errorCode(err) != diag.CodeUnreachable || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %v (code %s)\nwant %q", err, errorCode(err), want)
	}
}

// timeoutConfig is the default configuration with --timeout d.
func timeoutConfig(d time.Duration) session.Config {
	cfg := session.DefaultConfig()
	cfg.Timeout = d
	return cfg
}

// describedElsewhere answers DescribeTable from another backend, and every
// other call from its own client.
type describedElsewhere struct {
	dynamo.Client
	describer dynamo.Client
}

func (c describedElsewhere) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	return c.describer.DescribeTable(ctx, in, o...)
}
