package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Join tests through the CLI, on both backends. Besides the fixture tables
// ({customers}, {products}, {metrics}, {app}, …) they load four small
// tables of their own (joinTables):
//
//	{orders}  PK, SK: USER#u_001 has ORDER#01..07 whose customer_id is
//	          c_0001, c_0002, c_0001 again, missing, NULL, c_9999 (no such
//	          customer) and the number 7 (wrong type), and whose sku is
//	          SKU-0003, missing, SKU-0003, SKU-0010, SKU-9999 (no such
//	          product), SKU-0001, SKU-0002; USER#u_002 has ORDER#01 for
//	          c_0003 (a customer without favoriteSku) and SKU-0004.
//	{teams}   team: alpha, bravo, charlie.
//	{agents}  agent_id, GSI ByTeam (team): a1 alpha, a2 and a3 bravo, a4
//	          without a team, a5 in delta (no such team).
//	{events}  PK "E", SK 1..300, 10 KB each (so a Query page holds about 100):
//	          item n references products by sku (SKU-0001..0010 on the first
//	          hundred, 0011..0020 on the next, …) and metrics by device (1 on
//	          the first 150, 2 on the next hundred, 3 after).

type order struct {
	sk, customer string // customer "" missing, "NULL" DynamoDB NULL, "7" a number
	total        int
	sku          string // "" missing
}

var joinOrders = []order{
	{"ORDER#01", "c_0001", 10, "SKU-0003"}, {"ORDER#02", "c_0002", 20, ""}, {"ORDER#03", "c_0001", 30, "SKU-0003"},
	{"ORDER#04", "", 40, "SKU-0010"}, {"ORDER#05", "NULL", 50, "SKU-9999"}, {"ORDER#06", "c_9999", 60, "SKU-0001"},
	{"ORDER#07", "7", 70, "SKU-0002"},
}

const eventCount = 300

func joinTables() []*fixtures.Table {
	keys := func(pk, pkType, sk, skType string) *dynamodb.CreateTableInput {
		in := &dynamodb.CreateTableInput{
			BillingMode:          types.BillingModePayPerRequest,
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}},
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String(pk), AttributeType: types.ScalarAttributeType(pkType)}},
		}
		if sk != "" {
			in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(sk), AttributeType: types.ScalarAttributeType(skType)})
		}
		return in
	}
	orders := &fixtures.Table{Name: "orders", Create: keys("PK", "S", "SK", "S")}
	for _, o := range joinOrders {
		a := map[string]value.Value{"PK": value.Str("USER#u_001"), "SK": value.Str(o.sk), "total": value.NumTrusted(strconv.Itoa(o.total))}
		if o.sku != "" {
			a["sku"] = value.Str(o.sku)
		}
		switch o.customer {
		case "":
		case "NULL":
			a["customer_id"] = value.NullValue()
		case "7":
			a["customer_id"] = value.NumTrusted("7")
		default:
			a["customer_id"] = value.Str(o.customer)
		}
		orders.Items = append(orders.Items, value.MapOf(a))
	}
	orders.Items = append(orders.Items, value.MapOf(map[string]value.Value{
		"PK": value.Str("USER#u_002"), "SK": value.Str("ORDER#01"), "customer_id": value.Str("c_0003"), "total": value.NumTrusted("5"), "sku": value.Str("SKU-0004")}))

	teams := &fixtures.Table{Name: "teams", Create: keys("team", "S", "", "")}
	for _, tm := range []string{"alpha", "bravo", "charlie"} {
		teams.Items = append(teams.Items, value.MapOf(map[string]value.Value{"team": value.Str(tm), "lead": value.Str("lead of " + tm)}))
	}
	agents := &fixtures.Table{Name: "agents", Create: keys("agent_id", "S", "", "")}
	agents.Create.AttributeDefinitions = append(agents.Create.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("team"), AttributeType: types.ScalarAttributeTypeS})
	agents.Create.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("ByTeam"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("team"), KeyType: types.KeyTypeHash}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	for _, ag := range [][2]string{{"a1", "alpha"}, {"a2", "bravo"}, {"a3", "bravo"}, {"a4", ""}, {"a5", "delta"}} {
		a := map[string]value.Value{"agent_id": value.Str(ag[0])}
		if ag[1] != "" {
			a["team"] = value.Str(ag[1])
		}
		agents.Items = append(agents.Items, value.MapOf(a))
	}

	events := &fixtures.Table{Name: "events", Create: keys("PK", "S", "SK", "N")}
	pad := value.Str(strings.Repeat("e", 10<<10))
	for n := range eventCount {
		events.Items = append(events.Items, value.MapOf(map[string]value.Value{
			"PK": value.Str("E"), "SK": value.NumTrusted(strconv.Itoa(n + 1)),
			"sku":    value.Str(fmt.Sprintf("SKU-%04d", (n/100)*10+n%10+1)),
			"device": value.NumTrusted(strconv.Itoa(1 + min(n/150, 1) + min(n/250, 1))),
			"pad":    pad,
		}))
	}
	for _, t := range []*fixtures.Table{orders, teams, agents, events} {
		t.Create.TableName = aws.String(t.Name)
	}
	return []*fixtures.Table{orders, teams, agents, events}
}

// joinCLI is a cli with the join tables loaded.
type joinCLI struct {
	*cli
	tables []*fixtures.Table
}

func newJoinCLI(t *testing.T, c *cli) *joinCLI {
	t.Helper()
	jc := &joinCLI{cli: c, tables: joinTables()}
	if err := fixtures.Load(context.Background(), jc.writer(t), c.prefix, jc.tables...); err != nil {
		t.Fatalf("loading join tables: %v", err)
	}
	return jc
}

// backendClient is the client the cli's statements reach.
func (jc *joinCLI) backendClient(t *testing.T) dynamo.Client {
	if jc.mem != nil {
		return jc.mem
	}
	return dynalitetest.Client(t)
}

func (jc *joinCLI) writer(t *testing.T) dynamo.Writer {
	if jc.mem != nil {
		return jc.mem
	}
	return dynalitetest.Client(t)
}

// x expands the join tables' placeholders (the fixtures' are expanded by cli.run).
func (jc *joinCLI) x(sql string) string {
	for _, t := range jc.tables {
		sql = strings.ReplaceAll(sql, "{"+t.Name+"}", "`"+t.Named(jc.prefix)+"`")
	}
	return jc.expand(sql)
}

// stats runs a statement with --stats json and returns its rows and the
// requests per operation.
func (jc *joinCLI) stats(t *testing.T, extra []string, sql string) ([]map[string]any, map[string]int) {
	t.Helper()
	args := append(append([]string{}, extra...), "--stats", "json", "--format", "ndjson", "-e", jc.x(sql))
	r := jc.run(args...)
	if r.code != 0 {
		t.Fatalf("ddbsql %v: exit %d\nstderr: %s", args, r.code, r.err)
	}
	var st struct {
		ByOperation map[string]int `json:"by_operation"`
	}
	lines := strings.Split(strings.TrimSpace(r.err), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &st); err != nil {
		t.Fatalf("--stats json: %v in %q", err, r.err)
	}
	var rows []map[string]any
	dec := json.NewDecoder(strings.NewReader(r.out))
	dec.UseNumber()
	for dec.More() {
		var row map[string]any
		if err := dec.Decode(&row); err != nil {
			t.Fatalf("bad ndjson %q: %v", r.out, err)
		}
		rows = append(rows, row)
	}
	return rows, st.ByOperation
}

// readCounter counts the reads that reach the backend (DescribeTable, which
// planning needs, is not a read).
type readCounter struct {
	dynamo.Client
	mu    sync.Mutex
	reads map[string]int
}

func (c *readCounter) add(op string) {
	c.mu.Lock()
	c.reads[op]++
	c.mu.Unlock()
}

func (c *readCounter) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.add("GetItem")
	return c.Client.GetItem(ctx, in, o...)
}

func (c *readCounter) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.add("BatchGetItem")
	return c.Client.BatchGetItem(ctx, in, o...)
}

func (c *readCounter) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.add("Query")
	return c.Client.Query(ctx, in, o...)
}

func (c *readCounter) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.add("Scan")
	return c.Client.Scan(ctx, in, o...)
}

// rejected runs a statement that must fail before any read: exit status 1,
// stderr "error: …" with every want, and no GetItem/BatchGetItem/Query/Scan.
func (jc *joinCLI) rejected(t *testing.T, extra []string, sql string, want ...string) {
	t.Helper()
	rc := &readCounter{Client: jc.backendClient(t), reads: map[string]int{}}
	args := append(append([]string{}, extra...), "-e", jc.x(sql))
	r := invokeWith(args, "", rc)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
	}
	if !strings.HasPrefix(r.err, "error: ") || strings.Contains(r.err, "panic") || strings.Contains(r.err, "goroutine ") {
		t.Errorf("stderr must be a clean 'error: …', got:\n%s", r.err)
	}
	for _, w := range want {
		if w = jc.x(w); !strings.Contains(r.err, strings.ReplaceAll(w, "`", "")) {
			t.Errorf("stderr lacks %q:\n%s", w, r.err)
		}
	}
	if len(rc.reads) != 0 || r.out != "" {
		t.Errorf("a rejected statement must send nothing: reads %v, stdout %q", rc.reads, r.out)
	}
}

func customerByID(id string) (value.Value, bool) {
	for _, it := range fixtures.Customers().Items {
		if it.Attr("id").Text() == id {
			return it, true
		}
	}
	return value.Value{}, false
}

func productBySKU(sku string) (value.Value, bool) {
	for _, it := range fixtures.Products().Items {
		if it.Attr("sku").Text() == sku {
			return it, true
		}
	}
	return value.Value{}, false
}

// TestJoins runs joins end to end on dynalite and on the in-process backend.
func TestJoins(t *testing.T) { backends(t, testJoins) }

func testJoins(t *testing.T, c *cli) {
	jc := newJoinCLI(t, c)

	t.Run("lookup by table key: one Query, one BatchGetItem", func(t *testing.T) {
		rows, ops := jc.stats(t, nil, "SELECT o.SK, o.total, c.name FROM {orders} o JOIN {customers} c ON o.customer_id = c.id WHERE o.PK = 'USER#u_001'")
		var want []string
		for _, o := range joinOrders {
			if cu, ok := customerByID(o.customer); ok {
				want = append(want, o.sk+" "+strconv.Itoa(o.total)+" "+cu.Attr("name").Text())
			}
		}
		got := make([]string, len(rows))
		for i, r := range rows {
			got[i] = fmt.Sprintf("%v %v %v", r["SK"], r["total"], r["name"])
		}
		requireEqual(t, "rows (duplicates on the driving side kept, in its order)", got, want)
		requireEqual(t, "requests", ops, map[string]int{"Query": 1, "BatchGetItem": 1})
	})

	t.Run("lookup by GSI partition key", func(t *testing.T) {
		rows, ops := jc.stats(t, nil, "SELECT m.team, m.lead, a.agent_id FROM {teams} m JOIN {agents} a ON a.team = m.team WHERE m.team = 'bravo' ORDER BY a.agent_id")
		requireEqual(t, "agents", column(rows, "agent_id"), []string{"a2", "a3"})
		requireEqual(t, "lead", column(rows, "lead"), []string{"lead of bravo", "lead of bravo"})
		requireEqual(t, "requests", ops, map[string]int{"GetItem": 1, "Query": 1})
		// One GSI Query per distinct value; charlie has no agents, delta no team.
		rows, ops = jc.stats(t, nil, "SELECT m.team, a.agent_id FROM {teams} m LEFT JOIN {agents} a ON a.team = m.team WHERE m.team IN ('alpha', 'bravo', 'charlie', 'delta') ORDER BY m.team, a.agent_id")
		requireEqual(t, "teams", column(rows, "team"), []string{"alpha", "bravo", "bravo", "charlie"})
		requireEqual(t, "agents", column(rows, "agent_id"), []string{"a1", "a2", "a3", "<null>"})
		requireEqual(t, "requests", ops, map[string]int{"BatchGetItem": 1, "Query": 3})
	})

	t.Run("LEFT JOIN keeps rows whose key is missing, NULL, dangling or of the wrong type", func(t *testing.T) {
		rows := jc.rows(t, nil, jc.x("SELECT o.SK, o.customer_id, c.name, c.id FROM {orders} o LEFT JOIN {customers} c ON c.id = o.customer_id WHERE o.PK = 'USER#u_001' ORDER BY o.SK"))
		if len(rows) != len(joinOrders) {
			t.Fatalf("got %d rows, want %d: %v", len(rows), len(joinOrders), rows)
		}
		for i, o := range joinOrders {
			want := "<null>"
			if cu, ok := customerByID(o.customer); ok {
				want = cu.Attr("name").Text()
			}
			if got := column(rows[i:i+1], "name")[0]; got != want {
				t.Errorf("%s (customer_id %q): name %q, want %q", o.sk, o.customer, got, want)
			}
		}
		// WHERE on the optional side filters the NULL-extended rows: an anti-join.
		rows = jc.rows(t, nil, jc.x("SELECT o.SK FROM {orders} o LEFT JOIN {customers} c ON c.id = o.customer_id WHERE o.PK = 'USER#u_001' AND c.id IS NULL ORDER BY o.SK"))
		requireEqual(t, "orders without a customer", column(rows, "SK"), []string{"ORDER#04", "ORDER#05", "ORDER#06", "ORDER#07"})
	})

	t.Run("hash join when both sides have key conditions", func(t *testing.T) {
		sql := "SELECT o.SK, c.name FROM {orders} o JOIN {customers} c ON o.customer_id = c.id WHERE o.PK = 'USER#u_001' AND c.id IN ('c_0001', 'c_0003') ORDER BY o.SK"
		r := jc.run("-e", jc.x("EXPLAIN "+sql))
		if r.code != 0 || !strings.Contains(r.out, "Hash Join (INNER)") || !strings.Contains(r.out, "why: both sides are read by key") {
			t.Fatalf("EXPLAIN: exit %d\n%s%s", r.code, r.out, r.err)
		}
		rows, ops := jc.stats(t, nil, sql)
		requireEqual(t, "orders", column(rows, "SK"), []string{"ORDER#01", "ORDER#03"})
		requireEqual(t, "requests", ops, map[string]int{"Query": 1, "BatchGetItem": 1})
	})

	t.Run("three tables", func(t *testing.T) {
		rows := jc.rows(t, nil, jc.x("SELECT o.PK, o.SK, c.name, p.name AS product FROM {orders} o JOIN {customers} c ON c.id = o.customer_id LEFT JOIN {products} p ON p.sku = c.favoriteSku WHERE o.PK IN ('USER#u_001', 'USER#u_002') ORDER BY o.PK, o.SK"))
		var want []string
		for _, pk := range []string{"USER#u_001", "USER#u_002"} {
			for _, o := range append(joinOrders, order{sk: "ORDER#01", customer: "c_0003"}) {
				if (pk == "USER#u_002") != (o.customer == "c_0003") {
					continue
				}
				cu, ok := customerByID(o.customer)
				if !ok {
					continue
				}
				product := "<null>"
				if p, ok := productBySKU(cu.Attr("favoriteSku").Text()); ok && cu.Attr("favoriteSku").Kind() == value.String {
					product = p.Attr("name").Text()
				}
				want = append(want, pk+" "+o.sk+" "+cu.Attr("name").Text()+" "+product)
			}
		}
		got := make([]string, len(rows))
		for i := range rows {
			got[i] = strings.Join([]string{column(rows[i:i+1], "PK")[0], column(rows[i:i+1], "SK")[0], column(rows[i:i+1], "name")[0], column(rows[i:i+1], "product")[0]}, " ")
		}
		requireEqual(t, "rows", got, want)
	})

	t.Run("join with GROUP BY, HAVING and ORDER BY", func(t *testing.T) {
		var ids []string
		count, stock := map[string]int{}, map[string]int{}
		for _, cu := range fixtures.Customers().Items[:30] {
			ids = append(ids, "'"+cu.Attr("id").Text()+"'")
			if p, ok := productBySKU(cu.Attr("favoriteSku").Text()); ok && cu.Attr("favoriteSku").Kind() == value.String {
				cat := p.Attr("category").Text()
				n, _ := strconv.Atoi(p.Attr("stock").Text())
				count[cat]++
				stock[cat] += n
			}
		}
		var want []string
		for cat, n := range count {
			if n >= 3 {
				want = append(want, fmt.Sprintf("%s %d %d", cat, n, stock[cat]))
			}
		}
		sort.Strings(want)
		rows := jc.rows(t, nil, jc.x("SELECT p.category, COUNT(*) AS n, SUM(p.stock) AS stock FROM {customers} c JOIN {products} p ON p.sku = c.favoriteSku WHERE c.id IN ("+strings.Join(ids, ", ")+") GROUP BY p.category HAVING COUNT(*) >= 3 ORDER BY p.category"))
		got := make([]string, len(rows))
		for i, r := range rows {
			got[i] = fmt.Sprintf("%v %v %v", r["category"], r["n"], r["stock"])
		}
		if len(want) == 0 {
			t.Fatal("test data: no group passes the HAVING")
		}
		requireEqual(t, "groups", got, want)
	})

	t.Run("LIMIT without ORDER BY stops reading and looking up", func(t *testing.T) {
		// About 100 events per 1 MB page; each page refers to its own products.
		rows, ops := jc.stats(t, nil, "SELECT e.SK, p.name FROM {events} e JOIN {products} p ON p.sku = e.sku WHERE e.PK = 'E' LIMIT 5")
		if len(rows) != 5 {
			t.Fatalf("got %d rows, want 5", len(rows))
		}
		requireEqual(t, "requests with LIMIT 5", ops, map[string]int{"Query": 1, "BatchGetItem": 1})
		rows, all := jc.stats(t, nil, "SELECT e.SK, p.name FROM {events} e JOIN {products} p ON p.sku = e.sku WHERE e.PK = 'E'")
		if len(rows) != eventCount || all["Query"] < 3 || all["BatchGetItem"] < 2 {
			t.Fatalf("without LIMIT: %d rows, requests %v; want %d rows over several pages and lookup rounds", len(rows), all, eventCount)
		}
		// Query lookups (one per distinct value) stop too.
		rows, ops = jc.stats(t, []string{"--concurrency", "1"}, "SELECT e.SK, m.seq FROM {events} e JOIN {metrics} m ON m.device = e.device WHERE e.PK = 'E' LIMIT 5")
		if len(rows) != 5 {
			t.Fatalf("got %d rows, want 5", len(rows))
		}
		requireEqual(t, "requests with LIMIT 5 (Query lookups)", ops, map[string]int{"Query": 2})
	})

	t.Run("join on an expression with --allow-scan", func(t *testing.T) {
		rows, ops := jc.stats(t, []string{"--allow-scan"}, "SELECT c.id, p.sku FROM {customers} c JOIN {products} p ON LOWER(p.sku) = LOWER(c.favoriteSku) WHERE c.id IN ('c_0001', 'c_0003', 'c_0004')")
		requireEqual(t, "rows", column(rows, "sku"), []string{"SKU-0001", "SKU-0004"})
		requireEqual(t, "requests", ops, map[string]int{"BatchGetItem": 1, "Scan": 1})
	})

	t.Run("rejections: exit 1, a clear message, nothing sent", func(t *testing.T) {
		cases := []struct {
			name  string
			extra []string
			sql   string
			want  []string
		}{
			{"self-join", nil, "SELECT a.SK, b.SK FROM {app} a JOIN {app} b ON a.GSI1PK = b.PK WHERE a.PK = 'WS#acme'",
				[]string{"self-join of table {app} (as a and b)", "item collection", "sharing a partition key",
					"SELECT … FROM {app} WHERE PK = '…' [AND begins_with(SK, '…')]"}},
			{"self-join through a GSI", nil, "SELECT a.SK FROM {app} a JOIN {app} b ON b.owner = a.owner WHERE a.PK = 'WS#acme'",
				[]string{"self-join", "query a GSI", "ByOwner (owner)"}},
			{"self-join of a numeric table", nil, "SELECT x.seq FROM {metrics} x JOIN {metrics} y ON y.device = x.seq WHERE x.device = 1",
				[]string{"self-join", "SELECT … FROM {metrics} WHERE device = … [AND seq BETWEEN … AND …]"}},
			{"no key path suggests a GSI", nil, "SELECT c.id, p.sku FROM {customers} c JOIN {products} p ON c.name = p.name WHERE c.id = 'c_0001'",
				[]string{"cannot join p (table {products}) on c.name = p.name", "name is not the partition key of {products} nor of any of its GSIs",
					"add a GSI to {products} with partition key name", "--allow-scan"}},
			{"ambiguous column names both tables", nil, "SELECT name FROM {customers} c JOIN {products} p ON c.favoriteSku = p.sku WHERE c.id = 'c_0001'",
				[]string{"column name is ambiguous", "c ({customers}), p ({products})", "qualify it, e.g. c.name"}},
			{"ambiguous column without aliases", nil, "SELECT name FROM {customers} JOIN {products} ON {customers}.favoriteSku = {products}.sku WHERE {customers}.id = 'c_0001'",
				[]string{"column name is ambiguous", "{customers}, {products}"}},
			{"unknown alias", nil, "SELECT x.name FROM {customers} c JOIN {products} p ON c.favoriteSku = p.sku WHERE c.id = 'c_0001'",
				[]string{"x is not a table or alias in FROM", "c ({customers}), p ({products})", "c.x.name"}},
			{"join on an expression without --allow-scan", nil, "SELECT c.id, p.sku FROM {customers} c JOIN {products} p ON lower(c.favoriteSku) = p.sku WHERE c.id = 'c_0001'",
				[]string{"cannot join p", "sku is the partition key of {products}", "only match a plain attribute value, not lower(c.favoriteSku)", "--allow-scan"}},
			{"expression on the joined side without --allow-scan", nil, "SELECT c.id FROM {customers} c JOIN {products} p ON lower(p.sku) = c.favoriteSku WHERE c.id = 'c_0001'",
				[]string{"cannot join p", "not lower(p.sku)", "--allow-scan"}},
			{"S versus N join keys", nil, "SELECT c.id, m.seq FROM {customers} c JOIN {metrics} m ON m.device = c.id WHERE c.id = 'c_0001'",
				[]string{"join keys have different types", "c.id is a string (S) key", "m.device a number (N) key", "no values can ever match"}},
			{"no key condition on either side", nil, "SELECT c.id FROM {customers} c JOIN {products} p ON c.favoriteSku = p.sku",
				[]string{"would start with a Scan", "--allow-scan"}},
			{"GSI lookup with --consistent", []string{"--consistent"}, "SELECT m.team, a.agent_id FROM {teams} m JOIN {agents} a ON a.team = m.team WHERE m.team = 'bravo'",
				[]string{"team is the partition key of the global secondary index ByTeam", "--consistent"}},
			{"USING that could mean either table", nil, "SELECT o.SK FROM {orders} o JOIN {customers} c ON c.id = o.customer_id JOIN {products} p USING (stock) WHERE o.PK = 'USER#u_001'",
				[]string{"USING (stock) is ambiguous", "o, c", "ON o.stock = p.stock"}},
			{"join without an equality", nil, "SELECT o.SK FROM {orders} o LEFT JOIN {customers} c ON c.balance > o.total WHERE o.PK = 'USER#u_001'",
				[]string{"c is not linked to the other tables by an equality"}},
			{"comma join", nil, "SELECT c.id FROM {customers} c, {products} p WHERE c.favoriteSku = p.sku AND c.id = 'c_0001'",
				[]string{"CROSS joins", "not supported"}},
			{"CROSS JOIN", nil, "SELECT c.id FROM {customers} c CROSS JOIN {products} p WHERE c.id = 'c_0001'",
				[]string{"CROSS joins", "not supported"}},
			{"FULL OUTER JOIN", nil, "SELECT c.id FROM {customers} c FULL OUTER JOIN {products} p ON c.favoriteSku = p.sku WHERE c.id = 'c_0001'",
				[]string{"FULL OUTER JOIN is not supported", "line 1"}},
			{"RIGHT JOIN after another join", nil, "SELECT c.id FROM {orders} o JOIN {customers} c ON c.id = o.customer_id RIGHT JOIN {products} p ON p.sku = c.favoriteSku WHERE o.PK = 'USER#u_001'",
				[]string{"RIGHT JOIN after another join is not supported"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) { jc.rejected(t, tc.extra, tc.sql, tc.want...) })
		}
	})

	t.Run("join order", func(t *testing.T) { testJoinOrder(t, jc) })

	t.Run("a rejected join in a script runs nothing after it", func(t *testing.T) {
		rc := &readCounter{Client: jc.backendClient(t), reads: map[string]int{}}
		r := invokeWith([]string{"--format", "csv", "-e", jc.x("SELECT c.id FROM {customers} c JOIN {metrics} m ON m.device = c.id WHERE c.id = 'c_0001'; SELECT id FROM {customers} WHERE id = 'c_0001'")}, "", rc)
		if r.code != 1 || r.out != "" || !reflect.DeepEqual(rc.reads, map[string]int{}) {
			t.Fatalf("exit %d, out %q, reads %v", r.code, r.out, rc.reads)
		}
	})
}
