package session_test

// Statements whose operators keep values across batches — lookup joins,
// GSI back-fetches, IN-list merges, sorts, GROUP BY with MIN/MAX — over
// small pages (three items each), so every kept value comes from a batch
// already released. The session allocates with memtest's poisoning
// allocator (see run), so a value kept in place instead of owned prints
// garbage, and a batch never released fails the test; also when the
// statement stops early (LIMIT) or fails mid-stream.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/planner/value"
)

// smallPages caps every Query and Scan page at three items and fails the
// read request numbered failAt (1-based; 0: never).
type smallPages struct {
	dynamo.Client
	failAt int64
	reads  atomic.Int64
}

var errInjected = errors.New("injected failure")

func (c *smallPages) fail() error {
	if n := c.reads.Add(1); c.failAt > 0 && n == c.failAt {
		return errInjected
	}
	return nil
}

func (c *smallPages) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if err := c.fail(); err != nil {
		return nil, err
	}
	cp := *in
	if cp.Limit == nil || *cp.Limit > 3 {
		cp.Limit = aws.Int32(3)
	}
	return c.Client.Query(ctx, &cp, o...)
}

func (c *smallPages) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	if err := c.fail(); err != nil {
		return nil, err
	}
	cp := *in
	if cp.Limit == nil || *cp.Limit > 3 {
		cp.Limit = aws.Int32(3)
	}
	return c.Client.Scan(ctx, &cp, o...)
}

func (c *smallPages) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	if err := c.fail(); err != nil {
		return nil, err
	}
	return c.Client.BatchGetItem(ctx, in, o...)
}

// ownOrder is one item of the orders table.
type ownOrder struct{ pk, sk, cust, note string }

// ownTables makes orders (PK, SK; cust and note strings; GSI byCust on
// cust, KEYS_ONLY) and custs (id → name) in an in-process DynamoDB.
func ownTables(t *testing.T) (*memdb.DB, []ownOrder, map[string]string) {
	t.Helper()
	names := map[string]string{}
	var custItems []value.Value
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("c-%02d", i)
		names[id] = fmt.Sprintf("customer %s %d", strings.Repeat("xy", i%4), i)
		custItems = append(custItems, value.MapOf(map[string]value.Value{"id": value.Str(id), "name": value.Str(names[id])}))
	}
	var orders []ownOrder
	var orderItems []value.Value
	for i := 0; i < 90; i++ {
		o := ownOrder{pk: []string{"A", "B", "C"}[i%3], sk: fmt.Sprintf("o-%03d", (i*37)%90),
			cust: fmt.Sprintf("c-%02d", (i*7)%13), note: fmt.Sprintf("n%s %d", strings.Repeat("qz", (i*5)%7), i)}
		orders = append(orders, o)
		orderItems = append(orderItems, value.MapOf(map[string]value.Value{
			"PK": value.Str(o.pk), "SK": value.Str(o.sk), "cust": value.Str(o.cust), "note": value.Str(o.note)}))
	}
	s := types.ScalarAttributeTypeS
	create := func(name string, keys []types.KeySchemaElement, attrs []string, gsis []types.GlobalSecondaryIndex) *dynamodb.CreateTableInput {
		in := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			KeySchema: keys, GlobalSecondaryIndexes: gsis}
		for _, a := range attrs {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: s})
		}
		return in
	}
	hash := func(a string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(a), KeyType: types.KeyTypeHash}
	}
	rng := func(a string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(a), KeyType: types.KeyTypeRange}
	}
	db := memdb.New()
	err := fixtures.Load(context.Background(), db, "",
		&fixtures.Table{Name: "orders", Items: orderItems, Create: create("orders", []types.KeySchemaElement{hash("PK"), rng("SK")},
			[]string{"PK", "SK", "cust"}, []types.GlobalSecondaryIndex{{IndexName: aws.String("byCust"),
				KeySchema: []types.KeySchemaElement{hash("cust")}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}})},
		&fixtures.Table{Name: "custs", Items: custItems, Create: create("custs", []types.KeySchemaElement{hash("id")}, []string{"id"}, nil)})
	if err != nil {
		t.Fatal(err)
	}
	return db, orders, names
}

func TestOwnershipAcrossPages(t *testing.T) {
	db, orders, names := ownTables(t)
	csvLines := func(rows [][]string) []string {
		out := make([]string, len(rows))
		for i, r := range rows {
			out[i] = strings.Join(r, ",")
		}
		return out
	}
	inA := func(o ownOrder) bool { return o.pk == "A" }
	var joined, merged, fetched, sortedNotes [][]string
	for _, o := range orders {
		if inA(o) {
			if n, ok := names[o.cust]; ok {
				joined = append(joined, []string{o.sk, o.note, n})
			}
		}
		merged = append(merged, []string{o.sk, o.note})
		if o.cust == "c-03" {
			fetched = append(fetched, []string{o.sk, o.note})
		}
		if inA(o) {
			sortedNotes = append(sortedNotes, []string{o.note, o.sk})
		}
	}
	bySK := func(rows [][]string) { sort.Slice(rows, func(i, j int) bool { return rows[i][0] < rows[j][0] }) }
	bySK(joined)
	bySK(merged)
	bySK(fetched)
	sort.Slice(sortedNotes, func(i, j int) bool {
		if sortedNotes[i][0] != sortedNotes[j][0] {
			return sortedNotes[i][0] < sortedNotes[j][0]
		}
		return sortedNotes[i][1] < sortedNotes[j][1]
	})
	groups := map[string][2]string{}
	for _, o := range orders {
		if !inA(o) {
			continue
		}
		g, ok := groups[o.cust]
		if !ok {
			g = [2]string{o.note, o.note}
		}
		g[0], g[1] = min(g[0], o.note), max(g[1], o.note)
		groups[o.cust] = g
	}
	var extremes [][]string
	for c, g := range groups {
		extremes = append(extremes, []string{c, g[0], g[1]})
	}
	bySK(extremes)

	stmts := []struct {
		what, sql, plan string
		want            []string
	}{
		{"lookup join", "SELECT o.SK, o.note, c.name FROM orders o JOIN custs c ON o.cust = c.id WHERE o.PK = 'A' ORDER BY o.SK",
			"Lookup Join", csvLines(joined)},
		{"IN-list merge", "SELECT SK, note FROM orders WHERE PK IN ('A', 'B', 'C') ORDER BY SK",
			"merged by SK", csvLines(merged)},
		{"GSI back-fetch", "SELECT SK, note FROM orders WHERE cust = 'c-03' ORDER BY SK",
			"fetch full items", csvLines(fetched)},
		{"full sort", "SELECT note, SK FROM orders WHERE PK = 'A' ORDER BY note, SK",
			"Sort", csvLines(sortedNotes)},
		{"top-N", "SELECT note, SK FROM orders WHERE PK = 'A' ORDER BY note, SK LIMIT 4",
			"Sort", csvLines(sortedNotes[:4])},
		{"MIN/MAX by group", "SELECT cust, MIN(note), MAX(note) FROM orders WHERE PK = 'A' GROUP BY cust ORDER BY cust",
			"Aggregate", csvLines(extremes)},
	}
	for _, st := range stmts {
		t.Run(st.what, func(t *testing.T) {
			explain := run(t, db, nil, "EXPLAIN "+st.sql)
			if explain.Error != nil || !strings.Contains(explain.Out, st.plan) {
				t.Fatalf("the plan does not use what this case tests (%q): %v\n%s", st.plan, explain.Error, explain.Out)
			}
			paged := &smallPages{Client: db}
			r := run(t, paged, nil, st.sql)
			if r.Error != nil {
				t.Fatalf("%s: %v\n%s", st.sql, r.Error, r.Err)
			}
			if got := r.rows(); strings.Join(got, "\n") != strings.Join(st.want, "\n") {
				t.Errorf("%s:\n got %q\nwant %q", st.sql, got, st.want)
			}
			// Stopped before reading (run's allocator checks that nothing
			// is left when the subtest ends).
			if !strings.Contains(st.sql, "LIMIT") {
				if r := run(t, &smallPages{Client: db}, nil, st.sql+" LIMIT 0"); r.Error != nil || len(r.rows()) != 0 {
					t.Errorf("LIMIT 0: %d rows, %v", len(r.rows()), r.Error)
				}
			}
			// Failing mid-stream: at the second request and at the last.
			reads := paged.reads.Load()
			if reads < 3 {
				t.Fatalf("%d requests: the pages are not small enough to test anything", reads)
			}
			for _, at := range []int64{2, reads} {
				r := run(t, &smallPages{Client: db, failAt: at}, nil, st.sql)
				if !strings.Contains(fmt.Sprint(r.Error), errInjected.Error()) {
					t.Errorf("failing request %d of %d: %v, want the injected failure", at, reads, r.Error)
				}
			}
		})
	}
}
