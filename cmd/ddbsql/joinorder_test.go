package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
)

// testJoinOrder checks join order with LEFT joins end to end, on the join
// tables (see joinTables): whichever way the FROM is written, the table
// with key conditions drives, and the rows are SQL's.
func testJoinOrder(t *testing.T, jc *joinCLI) {
	// orders JOIN customers LEFT JOIN products, from joinOrders and the
	// fixtures: an order without a customer is dropped, one without a
	// product is kept with a NULL name.
	var inner, leftBoth, noProduct []string
	for _, o := range joinOrders {
		product := "<null>"
		if p, ok := productBySKU(o.sku); ok {
			product = p.Attr("name").Text()
		} else {
			noProduct = append(noProduct, o.sk)
		}
		name := "<null>"
		if cu, ok := customerByID(o.customer); ok {
			name = cu.Attr("name").Text()
			inner = append(inner, o.sk+" "+name+" "+product)
		}
		leftBoth = append(leftBoth, o.sk+" "+name+" "+product)
	}
	if len(inner) == 0 || len(inner) == len(joinOrders) || len(noProduct) == 0 {
		t.Fatal("test data: the orders must include some without a customer and some without a product")
	}
	rowsOf := func(rows []map[string]any) []string {
		got := make([]string, len(rows))
		for i := range rows {
			got[i] = strings.Join([]string{column(rows[i:i+1], "SK")[0], column(rows[i:i+1], "name")[0], column(rows[i:i+1], "product")[0]}, " ")
		}
		return got
	}

	t.Run("the table with key conditions drives wherever it is written", func(t *testing.T) {
		for _, from := range []string{
			"{customers} c JOIN {orders} o ON o.customer_id = c.id LEFT JOIN {products} p ON o.sku = p.sku",
			"{orders} o JOIN {customers} c ON o.customer_id = c.id LEFT JOIN {products} p ON o.sku = p.sku",
			"{orders} o LEFT JOIN {products} p ON o.sku = p.sku JOIN {customers} c ON o.customer_id = c.id",
			"{products} p RIGHT JOIN {orders} o ON o.sku = p.sku JOIN {customers} c ON c.id = o.customer_id",
		} {
			sql := "SELECT o.SK, c.name, p.name AS product FROM " + from + " WHERE o.PK = 'USER#u_001' ORDER BY o.SK"
			rows, ops := jc.stats(t, nil, sql)
			requireEqual(t, from+": rows", rowsOf(rows), inner)
			if ops["Scan"] != 0 || ops["Query"] != 1 {
				t.Errorf("%s: requests %v, want one Query of orders, lookups by key and no Scan", from, ops)
			}
		}
	})

	t.Run("a LEFT JOIN whose optional side WHERE null-rejects is an inner join", func(t *testing.T) {
		sql := "SELECT o.SK, c.name, p.name AS product FROM {customers} c LEFT JOIN {orders} o ON o.customer_id = c.id LEFT JOIN {products} p ON o.sku = p.sku WHERE o.PK = 'USER#u_001' ORDER BY o.SK"
		r := jc.run("-e", jc.x("EXPLAIN "+sql))
		if r.code != 0 || !strings.Contains(r.out, "runs as INNER") || !strings.Contains(r.out, "drives the join: key condition o.PK = 'USER#u_001'") {
			t.Fatalf("EXPLAIN: exit %d\n%s%s", r.code, r.out, r.err)
		}
		rows, ops := jc.stats(t, nil, sql)
		requireEqual(t, "rows", rowsOf(rows), inner)
		if ops["Scan"] != 0 {
			t.Errorf("requests %v: no Scan expected", ops)
		}
	})

	t.Run("LEFT joins keep every driving row, in any spelling", func(t *testing.T) {
		for _, from := range []string{
			"{orders} o LEFT JOIN {customers} c ON c.id = o.customer_id LEFT JOIN {products} p ON p.sku = o.sku",
			"{orders} o LEFT JOIN {products} p ON p.sku = o.sku LEFT JOIN {customers} c ON c.id = o.customer_id",
			"{customers} c RIGHT JOIN {orders} o ON c.id = o.customer_id LEFT JOIN {products} p ON p.sku = o.sku",
		} {
			rows := jc.rows(t, nil, jc.x("SELECT o.SK, c.name, p.name AS product FROM "+from+" WHERE o.PK = 'USER#u_001' ORDER BY o.SK"))
			requireEqual(t, from, rowsOf(rows), leftBoth)
		}
		// A WHERE condition on the optional side that keeps NULLs sees them.
		rows := jc.rows(t, nil, jc.x("SELECT o.SK FROM {customers} c RIGHT JOIN {orders} o ON c.id = o.customer_id LEFT JOIN {products} p ON p.sku = o.sku WHERE o.PK = 'USER#u_001' AND p.sku IS NULL ORDER BY o.SK"))
		requireEqual(t, "orders without a product", column(rows, "SK"), noProduct)
	})

	t.Run("a key condition only on the optional side is refused", func(t *testing.T) {
		jc.rejected(t, nil, "SELECT c.name, o.SK FROM {customers} c LEFT JOIN {orders} o ON o.customer_id = c.id AND o.PK = 'USER#u_001'",
			"this join needs a Scan of table {customers}", "the only key conditions are on o, the optional side of a LEFT JOIN, which never drives",
			"Writing the tables in another order would not help", "write JOIN instead of LEFT JOIN", "--allow-scan")
		// With --allow-scan: every customer, with its orders of USER#u_001.
		rows := jc.rows(t, []string{"--allow-scan"}, jc.x("SELECT c.id, o.SK FROM {customers} c LEFT JOIN {orders} o ON o.customer_id = c.id AND o.PK = 'USER#u_001'"))
		want := 0
		for _, cu := range fixtures.Customers().Items {
			n := 0
			for _, o := range joinOrders {
				if o.customer == cu.Attr("id").Text() {
					n++
				}
			}
			want += max(n, 1)
		}
		if len(rows) != want {
			t.Errorf("got %d rows, want %d (each customer once per order, or once with NULLs)", len(rows), want)
		}
	})

	t.Run("a sparse index hint that would change the result is refused", func(t *testing.T) {
		var inTable, inIndex int
		for _, it := range fixtures.App().Items {
			if it.Attr("PK").Text() != "WS#acme" {
				continue
			}
			inTable++
			if !it.Attr("GSI1PK").IsNull() && !it.Attr("GSI1SK").IsNull() {
				inIndex++
			}
		}
		if inIndex == 0 || inIndex == inTable {
			t.Fatalf("test data: WS#acme has %d items, %d of them in GSI1; the test needs some in and some out", inTable, inIndex)
		}
		hinted := "SELECT COUNT(*) AS n FROM {app} USE INDEX (GSI1) WHERE PK = 'WS#acme'"
		jc.rejected(t, []string{"--allow-scan"}, hinted,
			"USE INDEX (GSI1) would change the result", "items without GSI1PK or GSI1SK are not in it",
			"An index hint only chooses among plans that return the same rows")
		r := jc.run("--allow-scan", "-e", jc.x(hinted))
		if name := fixtures.App().Named(jc.prefix); !strings.Contains(r.err, "FROM `"+name+"`.`GSI1`") {
			t.Errorf("the error must point to FROM `%s`.`GSI1`:\n%s", name, r.err)
		}
		count := func(extra []string, sql string) string {
			rows := jc.rows(t, extra, jc.x(sql))
			if len(rows) != 1 {
				t.Fatalf("%s: %d rows", sql, len(rows))
			}
			return column(rows, "n")[0]
		}
		requireEqual(t, "count without the hint", count(nil, "SELECT COUNT(*) AS n FROM {app} WHERE PK = 'WS#acme'"), fmt.Sprint(inTable))
		requireEqual(t, "count of the index itself", count([]string{"--allow-scan"}, "SELECT COUNT(*) AS n FROM {app}.`GSI1` WHERE PK = 'WS#acme'"), fmt.Sprint(inIndex))
		requireEqual(t, "count through the hint and a key condition on the table",
			count(nil, "SELECT COUNT(*) AS n FROM {app} USE INDEX (GSI1, PRIMARY) WHERE PK = 'WS#acme'"), fmt.Sprint(inTable))
	})
}

// demoRun runs ddbsql --demo on the in-process backend through a read
// counter.
func demoRun(t *testing.T, args ...string) (result, map[string]int) {
	t.Helper()
	db := memdb.New()
	if _, err := offline.LoadDemo(context.Background(), db); err != nil {
		t.Fatalf("loading the demo: %v", err)
	}
	rc := &readCounter{Client: db, reads: map[string]int{}}
	return invokeWith(append([]string{"--demo"}, args...), "", rc), rc.reads
}

// TestJoinOrderDemo runs the issue's statements on the demo data.
func TestJoinOrderDemo(t *testing.T) {
	run := func(sql string) ([]string, map[string]int) {
		r, reads := demoRun(t, "--format", "csv", "-e", sql)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", sql, r.code, r.err)
		}
		lines := strings.Split(strings.TrimSpace(r.out), "\n")
		body := lines[1:]
		sort.Strings(body)
		return body, reads
	}
	issue, reads := run("SELECT o.SK, c.name, p.name FROM customers c JOIN orders o ON o.customer_id = c.id LEFT JOIN products p ON o.sku = p.sku WHERE o.PK = 'USER#u_001'")
	reordered, _ := run("SELECT o.SK, c.name, p.name FROM orders o JOIN customers c ON o.customer_id = c.id LEFT JOIN products p ON o.sku = p.sku WHERE o.PK = 'USER#u_001'")
	if len(issue) == 0 {
		t.Fatal("no rows")
	}
	requireEqual(t, "rows of the two spellings", issue, reordered)
	if reads["Scan"] != 0 || reads["Query"] != 1 {
		t.Errorf("reads %v: want one Query of orders and lookups, no Scan", reads)
	}
}

// TestSparseHintDemo runs the issue's hinted COUNT(*) on the demo data.
func TestSparseHintDemo(t *testing.T) {
	r, reads := demoRun(t, "--allow-scan", "-e", "SELECT COUNT(*) FROM app USE INDEX (GSI1) WHERE PK = 'WS#acme'")
	if r.code != 1 || r.out != "" {
		t.Fatalf("exit %d (want 1), stdout %q, stderr:\n%s", r.code, r.out, r.err)
	}
	for _, want := range []string{"error: USE INDEX (GSI1) would change the result", "GSI1 of table app may not hold every matching item",
		"items without GSI1PK or GSI1SK are not in it", "a hint only chooses among plans that return the same rows", "FROM `app`.`GSI1`"} {
		if !strings.Contains(strings.ReplaceAll(r.err, "An index hint", "a hint"), want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.err)
		}
	}
	if len(reads) != 0 {
		t.Errorf("a rejected statement must send nothing: reads %v", reads)
	}
	count := func(sql string) string {
		r, _ := demoRun(t, "--allow-scan", "--format", "csv", "-e", sql)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", sql, r.code, r.err)
		}
		return strings.TrimSpace(r.out)
	}
	table, index := count("SELECT COUNT(*) AS n FROM app WHERE PK = 'WS#acme'"), count("SELECT COUNT(*) AS n FROM `app`.`GSI1` WHERE PK = 'WS#acme'")
	if table == index {
		t.Errorf("the table (%s) and GSI1 (%s) hold the same number of WS#acme items: the demo no longer shows the sparse index", table, index)
	}
}
