package planner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestExplainJSONRequestsAsSent proves that EXPLAIN's JSON requests are the
// requests exec sends. For every request of each plan it has the SDK
// serialize the plan's own input (what exec passes to the SDK), checks that
// the body equals EXPLAIN's "input" as JSON, and then sends EXPLAIN's input
// itself, byte for byte, as the body of a real SDK call to dynalite, which
// must accept it. Templates (lookups, fetches) are completed the way exec
// completes them, in the document and in the plan alike.
func TestExplainJSONRequestsAsSent(t *testing.T) {
	ctx := context.Background()
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	tables := []*fixtures.Table{fixtures.App(), fixtures.Customers(), fixtures.Products(), fixtures.Users()}
	if err := fixtures.Load(ctx, client, prefix, tables...); err != nil {
		t.Fatal(err)
	}
	names := strings.NewReplacer("{app}", "`"+prefix+"app`", "{customers}", "`"+prefix+"customers`",
		"{products}", "`"+prefix+"products`", "{users}", "`"+prefix+"users`")
	cat := dynamo.NewCatalog(client)
	cases := []struct {
		sql  string
		opts planner.Options
	}{
		{sql: "SELECT * FROM {app} WHERE PK = 'WS#acme' AND SK = 'META'"},
		{sql: "SELECT id, name FROM {customers} WHERE id IN ('c_0001', 'c_0002', 'c_0003')", opts: planner.Options{Consistent: true}},
		{sql: "SELECT SK, status FROM {app} WHERE PK = 'WS#acme' AND begins_with(SK, 'DOC#') AND status = 'open'"},
		{sql: "SELECT * FROM {app} WHERE GSI1PK = 'STATUS#REVIEW' ORDER BY GSI1SK DESC LIMIT 20"},
		{sql: "SELECT SK FROM {app} USE INDEX (ByCreated) WHERE PK = 'WS#acme' AND createdAt > '2026-02-01'", opts: planner.Options{Consistent: true}},
		{sql: "SELECT title, status FROM {app} WHERE owner = 'u_alice'"},
		{sql: "SELECT id FROM {customers} WHERE tier = 'gold'", opts: planner.Options{AllowScan: true, Segments: 3}},
		{sql: "SELECT count(*) FROM {app} WHERE PK = 'WS#acme'"},
		{sql: "SELECT PK, SK FROM {app} WHERE PK IN ('WS#acme', 'WS#globex') ORDER BY SK"},
		{sql: "SELECT SK FROM {app} WHERE PK = 'WS#acme' AND (SK = 'META' OR begins_with(SK, 'DOC#001'))"},
		{sql: "SELECT c.name, p.name, p.price FROM {customers} c JOIN {products} p ON c.favoriteSku = p.sku WHERE c.id = 'c_0001'"},
		{sql: "SELECT c.id, u.SK, u.total FROM {customers} c LEFT JOIN {users} u ON u.PK = c.status WHERE c.id = 'c_0001' AND begins_with(u.SK, 'ORDER#')"},
		{sql: "SELECT c.id, p.sku FROM {customers} c JOIN {products} p ON p.category = c.tier WHERE c.id IN ('c_0001', 'c_0002')"},
		{sql: "SELECT c.id, a.title, a.status FROM {customers} c JOIN {app} a ON a.owner = c.id WHERE c.id = 'c_0001'"},
		{sql: "SELECT c.id, p.sku FROM {customers} c JOIN {products} p ON c.name = p.name WHERE c.id = 'c_0001'", opts: planner.Options{AllowScan: true}},
	}
	sent := 0
	for _, tc := range cases {
		sql := names.Replace(tc.sql)
		p, errText := planFor(cat, sql, tc.opts)
		if errText != "" {
			t.Fatalf("%s: %s", tc.sql, errText)
		}
		doc, err := planner.ExplainJSON(p, planner.JSONOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		var root struct {
			Version int            `json:"version"`
			Plan    map[string]any `json:"plan"`
		}
		if err := json.Unmarshal(doc, &root); err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		if root.Version != 1 {
			t.Errorf("%s: version %d, want 1", tc.sql, root.Version)
		}
		fromDoc := docRequests(root.Plan)
		fromPlan := planRequests(p.Root)
		if len(fromDoc) != len(fromPlan) || len(fromDoc) == 0 {
			t.Fatalf("%s: the document lists %d requests, the plan holds %d", tc.sql, len(fromDoc), len(fromPlan))
		}
		for i, want := range fromPlan {
			got := fromDoc[i]
			if got.op != want.op {
				t.Fatalf("%s: request %d is %s in the document, %s in the plan", tc.sql, i, got.op, want.op)
			}
			body := fillTemplate(t, got, want)
			checkSent(ctx, t, client, tc.sql, want, body)
			sent++
		}
	}
	if sent < 15 {
		t.Fatalf("only %d requests checked", sent)
	}
}

// docRequest is one entry of a node's "requests" in the document.
type docRequest struct {
	op    string
	input map[string]any
	fill  map[string]any // nil unless a template
}

func docRequests(n map[string]any) []docRequest {
	var out []docRequest
	for _, c := range n["children"].([]any) {
		out = append(out, docRequests(c.(map[string]any))...)
	}
	collect := func(list any) {
		reqs, _ := list.([]any)
		for _, r := range reqs {
			m := r.(map[string]any)
			fill, _ := m["fill"].(map[string]any)
			out = append(out, docRequest{op: m["operation"].(string), input: m["input"].(map[string]any), fill: fill})
		}
	}
	collect(n["requests"])
	if f, ok := n["fetch"].(map[string]any); ok {
		collect(f["requests"])
	}
	return out
}

// planRequest is a request of the plan, completed as exec completes it:
// a lookup with one value, a fetch with one key.
type planRequest struct {
	op    string
	input any
	// lookup value or fetch key a template is completed with
	value value.Value
	key   map[string]types.AttributeValue
}

// planRequests walks the plan in the document's order: inputs first, then
// the node's own requests, then a lookup's fetch.
func planRequests(n planner.Node) []planRequest {
	var out []planRequest
	for _, in := range n.Inputs() {
		out = append(out, planRequests(in)...)
	}
	switch t := n.(type) {
	case *planner.Access:
		for _, g := range t.Gets {
			out = append(out, planRequest{op: "GetItem", input: g})
		}
		for _, b := range t.Batches {
			out = append(out, planRequest{op: "BatchGetItem", input: b})
		}
		for _, q := range t.Queries {
			out = append(out, planRequest{op: "Query", input: q})
		}
		for _, s := range t.Scans {
			out = append(out, planRequest{op: "Scan", input: s})
		}
	case *planner.Fetch:
		out = append(out, fetchRequest(t))
	case *planner.LookupJoin:
		v := sampleValue(t.KeyType)
		if t.Op == planner.OpBatchGetItem {
			out = append(out, planRequest{op: "BatchGetItem", input: t.BatchRequest([]value.Value{v}), value: v})
		} else {
			out = append(out, planRequest{op: "Query", input: t.QueryFor(v), value: v})
		}
		if t.Fetch != nil {
			out = append(out, fetchRequest(t.Fetch))
		}
	}
	return out
}

func fetchRequest(f *planner.Fetch) planRequest {
	key := map[string]types.AttributeValue{}
	for _, k := range f.KeyAttrs {
		key[k] = &types.AttributeValueMemberS{Value: "no-such-" + k}
	}
	return planRequest{op: "BatchGetItem", input: f.Request([]map[string]types.AttributeValue{key}), key: key}
}

func sampleValue(k value.Kind) value.Value {
	if k == value.Number {
		return value.NumTrusted("42")
	}
	return value.Str("no-such-value")
}

// fillTemplate completes a template of the document with what the plan's
// request was completed with, following its "fill" field, and returns the
// body to send.
func fillTemplate(t *testing.T, got docRequest, want planRequest) []byte {
	t.Helper()
	if got.fill != nil {
		field := got.fill["field"].(string)
		var entry []byte
		switch {
		case want.key != nil:
			entry = mustJSON(t, itemJSON(t, want.key))
		case want.value.Kind() != value.Missing:
			entry = value.AppendDynamoJSON(nil, want.value)
		default:
			t.Fatalf("the document has a template (%s) where the plan has a complete request", field)
		}
		switch {
		case strings.HasPrefix(field, "ExpressionAttributeValues."):
			vals, _ := got.input["ExpressionAttributeValues"].(map[string]any)
			if vals == nil {
				vals = map[string]any{}
				got.input["ExpressionAttributeValues"] = vals
			}
			vals[strings.TrimPrefix(field, "ExpressionAttributeValues.")] = json.RawMessage(entry)
		case strings.HasPrefix(field, "RequestItems.") && strings.HasSuffix(field, ".Keys"):
			table := strings.TrimSuffix(strings.TrimPrefix(field, "RequestItems."), ".Keys")
			ka := got.input["RequestItems"].(map[string]any)[table].(map[string]any)
			if keys, _ := ka["Keys"].([]any); len(keys) != 0 {
				t.Fatalf("template %s already has %d keys", field, len(keys))
			}
			var key map[string]any
			if want.key != nil {
				key = map[string]any{}
				for k, v := range want.key {
					key[k] = json.RawMessage(mustJSON(t, attrJSON(t, v)))
				}
			} else {
				// the lookup attribute and the fixed key part, as the plan's request has them
				in := want.input.(*dynamodb.BatchGetItemInput)
				key = map[string]any{}
				for k, v := range in.RequestItems[table].Keys[0] {
					key[k] = json.RawMessage(mustJSON(t, attrJSON(t, v)))
				}
			}
			ka["Keys"] = []any{key}
		default:
			t.Fatalf("unknown template field %q", field)
		}
	} else if want.key != nil || want.value.Kind() != value.Missing {
		t.Fatalf("the plan's %s is a template, the document's is not", want.op)
	}
	body, err := json.Marshal(got.input)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func itemJSON(t *testing.T, m map[string]types.AttributeValue) json.RawMessage {
	v, err := value.FromItem(m)
	if err != nil {
		t.Fatal(err)
	}
	return value.AppendItemJSON(nil, v)
}

func attrJSON(t *testing.T, av types.AttributeValue) json.RawMessage {
	v, err := value.FromAttributeValue(av)
	if err != nil {
		t.Fatal(err)
	}
	return value.AppendDynamoJSON(nil, v)
}

func mustJSON(t *testing.T, raw json.RawMessage) []byte {
	if !json.Valid(raw) {
		t.Fatalf("invalid JSON %s", raw)
	}
	return raw
}

// checkSent sends the plan's request through the SDK with its body
// replaced by the document's, after checking that the SDK's own
// serialization of the plan's request says the same.
func checkSent(ctx context.Context, t *testing.T, c *dynamodb.Client, sql string, want planRequest, body []byte) {
	t.Helper()
	var serialized []byte
	swap := func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
			return s.Build.Add(middleware.BuildMiddlewareFunc("explainJSONBody", func(ctx context.Context, in middleware.BuildInput, next middleware.BuildHandler) (middleware.BuildOutput, middleware.Metadata, error) {
				req := in.Request.(*smithyhttp.Request)
				b, err := io.ReadAll(req.GetStream())
				if err != nil {
					return middleware.BuildOutput{}, middleware.Metadata{}, err
				}
				serialized = b
				if in.Request, err = req.SetStream(bytes.NewReader(body)); err != nil {
					return middleware.BuildOutput{}, middleware.Metadata{}, err
				}
				return next.HandleBuild(ctx, in)
			}), middleware.Before)
		})
	}
	var err error
	switch in := want.input.(type) {
	case *dynamodb.GetItemInput:
		_, err = c.GetItem(ctx, in, swap)
	case *dynamodb.BatchGetItemInput:
		_, err = c.BatchGetItem(ctx, in, swap)
	case *dynamodb.QueryInput:
		_, err = c.Query(ctx, in, swap)
	case *dynamodb.ScanInput:
		_, err = c.Scan(ctx, in, swap)
	default:
		t.Fatalf("unexpected input %T", in)
	}
	if err != nil {
		t.Errorf("%s: dynalite rejected the %s request from EXPLAIN: %v\n%s", sql, want.op, err, body)
	}
	var a, b any
	if err := json.Unmarshal(serialized, &a); err != nil {
		t.Fatalf("the SDK's body is not JSON: %v", err)
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s: EXPLAIN's %s request differs from what the SDK sends for the plan:\nEXPLAIN: %s\nSDK:     %s", sql, want.op, body, serialized)
	}
}
