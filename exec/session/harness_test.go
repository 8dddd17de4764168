package session_test

// Helpers shared by cost_test.go and faults_test.go: a spying client, a
// one-statement runner that parses the --stats json line, EXPLAIN estimate
// parsing, and the fixture backends (memdb with live DescribeTable figures,
// dynalite with DynamoDB's capacity rounding).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/planner/value"
)

// spyClient records every read request: its operation, QueryInput.Select,
// when it was sent and answered, and the capacity the response reported.
// Opts are appended to every call's option functions.
type spyClient struct {
	dynamo.Client
	Opts []func(*dynamodb.Options)
	sdk  *dynamodb.Client // the SDK client underneath, when there is one

	mu      sync.Mutex
	reqs    []spyRequest
	selects []types.Select
}

type spyRequest struct {
	Op         string
	Start, End time.Time
	RCU        float64
	Err        error
}

func spy(c dynamo.Client) *spyClient { return &spyClient{Client: c} }

func (c *spyClient) record(op string, start time.Time, err error, caps ...*types.ConsumedCapacity) {
	r := spyRequest{Op: op, Start: start, End: time.Now(), Err: err}
	for _, cc := range caps {
		if cc != nil && cc.CapacityUnits != nil {
			r.RCU += *cc.CapacityUnits
		}
	}
	c.mu.Lock()
	c.reqs = append(c.reqs, r)
	c.mu.Unlock()
}

func (c *spyClient) opts(o []func(*dynamodb.Options)) []func(*dynamodb.Options) {
	return append(append([]func(*dynamodb.Options){}, o...), c.Opts...)
}

func (c *spyClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.mu.Lock()
	c.selects = append(c.selects, in.Select)
	c.mu.Unlock()
	start := time.Now()
	out, err := c.Client.Query(ctx, in, c.opts(o)...)
	var cc *types.ConsumedCapacity
	if out != nil {
		cc = out.ConsumedCapacity
	}
	c.record("Query", start, err, cc)
	return out, err
}

func (c *spyClient) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	start := time.Now()
	out, err := c.Client.Scan(ctx, in, c.opts(o)...)
	var cc *types.ConsumedCapacity
	if out != nil {
		cc = out.ConsumedCapacity
	}
	c.record("Scan", start, err, cc)
	return out, err
}

func (c *spyClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	start := time.Now()
	out, err := c.Client.GetItem(ctx, in, c.opts(o)...)
	var cc *types.ConsumedCapacity
	if out != nil {
		cc = out.ConsumedCapacity
	}
	c.record("GetItem", start, err, cc)
	return out, err
}

func (c *spyClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	start := time.Now()
	out, err := c.Client.BatchGetItem(ctx, in, c.opts(o)...)
	var caps []*types.ConsumedCapacity
	if out != nil {
		for i := range out.ConsumedCapacity {
			caps = append(caps, &out.ConsumedCapacity[i])
		}
	}
	c.record("BatchGetItem", start, err, caps...)
	return out, err
}

func (c *spyClient) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	return c.Client.DescribeTable(ctx, in, c.opts(o)...)
}

// requests returns the read requests recorded so far.
func (c *spyClient) requests() []spyRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]spyRequest(nil), c.reqs...)
}

func (c *spyClient) querySelects() []types.Select {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]types.Select(nil), c.selects...)
}

// statsJSON is the --stats json object.
type statsJSON struct {
	Rows          int64              `json:"rows"`
	Requests      int                `json:"requests"`
	ByOperation   map[string]int     `json:"by_operation"`
	Pages         int                `json:"pages"`
	ItemsRead     int64              `json:"items_read"`
	ItemsReturned int64              `json:"items_returned"`
	RCU           float64            `json:"rcu"`
	ByIndex       map[string]float64 `json:"by_index"`
	ElapsedMS     float64            `json:"elapsed_ms"`
	CostUSD       float64            `json:"cost_usd"`
}

// result is what one statement printed and returned.
type result struct {
	Out, Err string
	Error    error
	Stats    *statsJSON // nil when no stats line was printed
}

// run executes sql in a fresh session over client with --stats json and CSV
// output; setup adjusts the session's configuration first.
func run(t testing.TB, client dynamo.Client, setup func(*session.Config), sql string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	cfg := session.DefaultConfig()
	cfg.Mem = memtest.Allocator(t)
	cfg.Format = "csv"
	cfg.Stats = session.StatsJSON
	if setup != nil {
		setup(&cfg)
	}
	s := session.New(client, &out, &errOut, cfg)
	err := s.RunScript(context.Background(), sql)
	r := result{Out: out.String(), Err: errOut.String(), Error: err}
	for _, line := range strings.Split(strings.TrimSpace(errOut.String()), "\n") {
		if strings.HasPrefix(line, "{") {
			var st statsJSON
			if jerr := json.Unmarshal([]byte(line), &st); jerr != nil {
				t.Fatalf("stats line %q: %v", line, jerr)
			}
			r.Stats = &st
		}
	}
	return r
}

// mustRun is run that fails the test on an error or a missing stats line.
func mustRun(t testing.TB, client dynamo.Client, setup func(*session.Config), sql string) result {
	t.Helper()
	r := run(t, client, setup, sql)
	if r.Error != nil {
		t.Fatalf("%s: %v\nstderr: %s", sql, r.Error, r.Err)
	}
	if r.Stats == nil {
		t.Fatalf("%s: no stats line on stderr: %q", sql, r.Err)
	}
	return r
}

// rows returns the CSV data lines (without the header).
func (r result) rows() []string {
	lines := strings.Split(strings.TrimRight(r.Out, "\n"), "\n")
	if len(lines) <= 1 {
		return nil
	}
	return lines[1:]
}

// estimate is one "estimate:" or "estimated total:" line of EXPLAIN.
type estimate struct {
	Requests, Items int64
	RCU             float64
	AtLeast         bool
}

var estimateRE = regexp.MustCompile(`(≥?)(\d+) requests?, (≥?)(\d+) items?, (≥?)([0-9.]+) RCU`)

func parseEstimate(t testing.TB, line string) estimate {
	t.Helper()
	m := estimateRE.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("no estimate in %q", line)
	}
	if m[1] != m[3] || m[3] != m[5] {
		t.Fatalf("estimate %q marks only some figures as lower bounds", line)
	}
	e := estimate{AtLeast: m[1] != ""}
	e.Requests, _ = strconv.ParseInt(m[2], 10, 64)
	e.Items, _ = strconv.ParseInt(m[4], 10, 64)
	e.RCU, _ = strconv.ParseFloat(m[6], 64)
	return e
}

// explainTotal runs EXPLAIN and returns the estimated total.
func explainTotal(t testing.TB, client dynamo.Client, setup func(*session.Config), sql string) estimate {
	t.Helper()
	r := run(t, client, setup, "EXPLAIN "+sql)
	if r.Error != nil {
		t.Fatalf("EXPLAIN %s: %v", sql, r.Error)
	}
	for _, line := range strings.Split(r.Out, "\n") {
		if strings.HasPrefix(line, "estimated total: ") {
			return parseEstimate(t, line)
		}
	}
	t.Fatalf("EXPLAIN %s printed no estimated total:\n%s", sql, r.Out)
	return estimate{}
}

// Uniform fixture: every item has the same attribute names and value
// lengths, so every item has the same size, and DescribeTable's average is
// every item's size. Estimates from it can be exact.
const (
	uniformItems     = 3000
	uniformBodyBytes = 1000
)

func uniformTable() *fixtures.Table {
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(h, r string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(r), KeyType: types.KeyTypeRange}}
	}
	t := &fixtures.Table{Name: "uniform", Create: &dynamodb.CreateTableInput{
		TableName:            aws.String("uniform"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{s("PK"), s("SK"), s("G"), s("GS")},
		KeySchema:            key("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("ByG"), KeySchema: key("G", "GS"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
			// Its entries are only keys (of fixed lengths): reads through it
			// fetch the items, so a Fetch's estimate can be checked exactly.
			{IndexName: aws.String("ByGKeys"), KeySchema: key("G", "GS"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
	}}
	body := strings.Repeat("u", uniformBodyBytes)
	for i := 0; i < uniformItems; i++ {
		// Ten partitions of 300 items; the GSI holds all of them in one.
		t.Items = append(t.Items, value.MapOf(map[string]value.Value{
			"PK":   value.Str(fmt.Sprintf("P#%d", i%10)),
			"SK":   value.Str(fmt.Sprintf("S#%05d", i)),
			"G":    value.Str("G"),
			"GS":   value.Str(fmt.Sprintf("%05d", i)),
			"body": value.Str(body),
		}))
	}
	return t
}

// memFixtures is one in-process DynamoDB holding every fixture table and
// the uniform table, shared by the tests (they only read).
var memFixtures = sync.OnceValues(func() (*memdb.DB, error) {
	db := memdb.New()
	tables := append(fixtures.All(), uniformTable())
	return db, fixtures.Load(context.Background(), db, "", tables...)
})

func memClient(t testing.TB) *memdb.DB {
	t.Helper()
	db, err := memFixtures()
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// dynaliteApp loads the app fixture into dynalite under a fresh prefix and
// returns the client and the table's name.
func dynaliteApp(t testing.TB) (dynamo.Client, string) {
	t.Helper()
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	app := fixtures.App()
	if err := fixtures.Load(context.Background(), client, prefix, app); err != nil {
		t.Fatal(err)
	}
	return client, app.Named(prefix)
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
