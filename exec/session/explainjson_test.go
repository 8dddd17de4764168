package session_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/session"
)

// ownersDB holds the app fixture and the table owners (id, handle) whose
// handles own app's documents: a join from owners looks app up by GSI
// ByOwner, which does not project status, so each lookup is followed by a
// fetch of the full items.
func ownersDB(t *testing.T) *memdb.DB {
	t.Helper()
	ctx := context.Background()
	db := memdb.New()
	if err := fixtures.Load(ctx, db, "", fixtures.App()); err != nil {
		t.Fatal(err)
	}
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("owners"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}}})
	if err != nil {
		t.Fatal(err)
	}
	for id, handle := range map[string]string{"o1": "u_alice", "o2": "u_bob"} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("owners"), Item: map[string]types.AttributeValue{
			"id": &types.AttributeValueMemberS{Value: id}, "handle": &types.AttributeValueMemberS{Value: handle}}}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

const ownersJoin = "SELECT o.id, a.title, a.status FROM owners o JOIN app a ON a.owner = o.handle WHERE o.id IN ('o1', 'o2')"

// TestExplainAnalyzeLookupFetch: a lookup's fetch is no node of the plan
// tree, yet its requests are counted: the text EXPLAIN ANALYZE gives it a
// "fetch actual:" line and the JSON one an actual in "fetch", and with
// them the figures add up to the statement's.
func TestExplainAnalyzeLookupFetch(t *testing.T) {
	db := ownersDB(t)
	plain := mustRun(t, db, nil, ownersJoin).Stats
	if plain.Rows == 0 || plain.ByOperation["BatchGetItem"] == 0 {
		t.Fatalf("the join should return rows and fetch them: %+v", *plain)
	}
	r := mustRun(t, db, nil, "EXPLAIN ANALYZE "+ownersJoin)
	if !strings.Contains(r.Out, "fetch actual: rows counted by the join; 1 request, ") {
		t.Errorf("no fetch actual line:\n%s", r.Out)
	}
	var reqs int
	var read int64
	var rcu float64
	for _, m := range actualRE.FindAllStringSubmatch(r.Out, -1) {
		n, _ := strconv.Atoi(m[1])
		i, _ := strconv.ParseInt(m[3], 10, 64)
		u, _ := strconv.ParseFloat(m[5], 64)
		reqs, read, rcu = reqs+n, read+i, rcu+u
	}
	if st := r.Stats; reqs != st.Requests || read != st.ItemsRead || !near(rcu, st.RCU) {
		t.Errorf("actual lines add up to %d requests, %d items read, %v RCU; stats say %+v\n%s", reqs, read, rcu, *st, r.Out)
	}
}

// explainDoc is the part of EXPLAIN's JSON document these tests read.
type explainDoc struct {
	Version        int            `json:"version"`
	Notes          []string       `json:"notes"`
	Plan           explainNode    `json:"plan"`
	EstimatedTotal map[string]any `json:"estimated_total"`
	ActualTotal    *statsJSON     `json:"actual_total"`
}

type explainNode struct {
	Kind     string         `json:"kind"`
	Title    string         `json:"title"`
	Table    string         `json:"table"`
	Requests []any          `json:"requests"`
	Estimate map[string]any `json:"estimate"`
	Actual   *struct {
		Ran           bool    `json:"ran"`
		Rows          int64   `json:"rows"`
		Requests      int     `json:"requests"`
		Pages         int     `json:"pages"`
		ItemsRead     int64   `json:"items_read"`
		ItemsReturned int64   `json:"items_returned"`
		RCU           float64 `json:"consumed_rcu"`
	} `json:"actual"`
	Fetch    *explainNode  `json:"fetch"`
	Children []explainNode `json:"children"`
}

func decodeExplain(t *testing.T, sql, out string) explainDoc {
	t.Helper()
	var d explainDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%s: EXPLAIN printed no JSON document: %v\n%s", sql, err, out)
	}
	if d.Version != 1 {
		t.Fatalf("%s: version %d, want 1", sql, d.Version)
	}
	return d
}

func withFormat(format string, more func(*session.Config)) func(*session.Config) {
	return func(cfg *session.Config) {
		cfg.Format = format
		if more != nil {
			more(cfg)
		}
	}
}

// TestExplainJSONFormats: with --format json EXPLAIN prints one indented
// document, with ndjson the same document on one line, and with any other
// format the text tree; the note that a plan needs --allow-scan is in the
// document's notes; and EXPLAIN sends no read.
func TestExplainJSONFormats(t *testing.T) {
	db := memClient(t)
	const sql = "EXPLAIN SELECT SK FROM app WHERE PK = 'WS#acme' AND begins_with(SK, 'DOC#')"
	spied := spy(db)
	js := run(t, spied, withFormat("json", nil), sql)
	if js.Error != nil {
		t.Fatal(js.Error)
	}
	if n := len(spied.requests()); n != 0 {
		t.Fatalf("EXPLAIN sent %d reads", n)
	}
	doc := decodeExplain(t, sql, js.Out)
	if !strings.Contains(js.Out, "\n  \"plan\"") {
		t.Errorf("json: the document is not indented:\n%s", js.Out)
	}
	q := doc.Plan.Children[0]
	if q.Kind != "Query" || len(q.Requests) != 1 || doc.Plan.Kind != "Project" {
		t.Errorf("unexpected tree: %+v", doc.Plan)
	}
	if doc.EstimatedTotal["text"] != "≥1 request, ≥1 item, ≥0.5 RCU" {
		t.Errorf("estimated total %v", doc.EstimatedTotal)
	}

	nd := run(t, db, withFormat("ndjson", nil), sql)
	if nd.Error != nil {
		t.Fatal(nd.Error)
	}
	if strings.Count(nd.Out, "\n") != 1 || !strings.HasSuffix(nd.Out, "\n") {
		t.Errorf("ndjson: want one line, got %q", nd.Out)
	}
	var a, b any
	_ = json.Unmarshal([]byte(js.Out), &a)
	_ = json.Unmarshal([]byte(nd.Out), &b)
	if ja, _ := json.Marshal(a); string(ja) != func() string { jb, _ := json.Marshal(b); return string(jb) }() {
		t.Errorf("ndjson and json documents differ:\n%s\n%s", js.Out, nd.Out)
	}

	for _, format := range []string{"table", "csv"} {
		txt := run(t, db, withFormat(format, nil), sql)
		if txt.Error != nil || !strings.HasPrefix(txt.Out, "Project: SK\n└─ Query app") {
			t.Errorf("%s: want the text tree, got %v\n%s", format, txt.Error, txt.Out)
		}
	}

	scan := run(t, db, withFormat("json", nil), "EXPLAIN SELECT * FROM customers")
	if scan.Error != nil {
		t.Fatal(scan.Error)
	}
	sd := decodeExplain(t, "scan", scan.Out)
	if len(sd.Notes) != 1 || !strings.Contains(sd.Notes[0], "--allow-scan") {
		t.Errorf("notes of a Scan plan without --allow-scan: %q", sd.Notes)
	}
	if sd.Plan.Children[0].Kind != "Scan" {
		t.Errorf("want a Scan: %+v", sd.Plan)
	}
}

// TestExplainAnalyzeJSON: EXPLAIN ANALYZE in JSON gives each node's
// actuals, the DynamoDB reads' figures add up to the statement's
// statistics, the root's rows are the statement's rows, and the document
// carries the actual total.
func TestExplainAnalyzeJSON(t *testing.T) {
	db := memClient(t)
	stmts := []string{
		"SELECT * FROM app WHERE PK = 'WS#acme' AND SK = 'META'",
		"SELECT SK FROM app WHERE PK = 'WS#big' AND seq > 2400",
		"SELECT * FROM app WHERE owner = 'u_alice'",
		"SELECT COUNT(*) FROM app",
		"SELECT a.SK, c.name FROM app a JOIN customers c ON a.owner = c.id WHERE a.PK = 'WS#acme'",
		"SELECT SK FROM app WHERE PK = 'WS#acme' LIMIT 1",
	}

	owners := ownersDB(t)
	for _, sql := range append(stmts, ownersJoin) {
		db := db
		if sql == ownersJoin {
			db = owners
		}
		plain := mustRun(t, db, allowScan, sql).Stats
		r := mustRun(t, db, withFormat("json", allowScan), "EXPLAIN ANALYZE "+sql)
		doc := decodeExplain(t, sql, r.Out)
		var reqs, pages int
		var read int64
		var rcu float64
		fetches := 0
		var walk func(n explainNode)
		walk = func(n explainNode) {
			if n.Actual == nil {
				t.Errorf("%s: node %s has no actual", sql, n.Title)
				return
			}
			reqs, pages, read, rcu = reqs+n.Actual.Requests, pages+n.Actual.Pages, read+n.Actual.ItemsRead, rcu+n.Actual.RCU
			if f := n.Fetch; f != nil {
				if f.Actual == nil {
					t.Errorf("%s: the lookup's fetch has no actual", sql)
				} else {
					reqs, pages, read, rcu = reqs+f.Actual.Requests, pages+f.Actual.Pages, read+f.Actual.ItemsRead, rcu+f.Actual.RCU
					fetches++
				}
			}
			for _, c := range n.Children {
				walk(c)
			}
		}
		walk(doc.Plan)
		if sql == ownersJoin && fetches != 1 {
			t.Errorf("%s: want the lookup's fetch with its actuals, found %d", sql, fetches)
		}
		st := r.Stats
		if reqs != st.Requests || pages != st.Pages || read != st.ItemsRead || !near(rcu, st.RCU) {
			t.Errorf("%s: actuals add up to %d requests, %d pages, %d items read, %v RCU; stats say %+v\n%s", sql, reqs, pages, read, rcu, *st, r.Out)
		}
		if doc.Plan.Actual != nil && doc.Plan.Actual.Rows != plain.Rows {
			t.Errorf("%s: root actual rows %d, the statement returned %d", sql, doc.Plan.Actual.Rows, plain.Rows)
		}
		if doc.ActualTotal == nil || doc.ActualTotal.Requests != st.Requests || !near(doc.ActualTotal.RCU, st.RCU) || doc.ActualTotal.Rows != plain.Rows {
			t.Errorf("%s: actual_total %+v, stats %+v", sql, doc.ActualTotal, *st)
		}
		if doc.EstimatedTotal["text"] == nil {
			t.Errorf("%s: no estimated total", sql)
		}
	}
}
