package session_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/internal/duckdbtest"
	"github.com/ddbsql/ddbsql/internal/exportgen"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// dialectCorpus are statements whose EXPLAIN DUCKDB rewrite DuckDB runs
// over the export files, compared row for row with ddbsql's own answer
// over the same export (--data). Statements with ORDER BY sort on unique
// keys, so their rows compare in order; the others compare as multisets.
var dialectCorpus = map[string][]string{
	"orders": {
		"SELECT status, COUNT(*) AS n, SUM(total) AS t FROM orders GROUP BY status",
		"SELECT PK, SK, total FROM orders WHERE PK = 'CUST#3' ORDER BY SK",
		"SELECT PK, SK, created FROM orders WHERE PK = 'CUST#5' AND SK BETWEEN 'ORDER#2024-06' AND 'ORDER#2025-06'",
		"SELECT address.city AS city, COUNT(*) AS n FROM orders GROUP BY address.city HAVING COUNT(*) > 5",
		"SELECT SK, items[0].sku AS sku, items[0].price AS price, items[2].sku AS third FROM orders WHERE items[0].qty >= 2",
		"SELECT PK, SK FROM orders WHERE contains(tags, 'gift') AND flag = true",
		"SELECT SK, note FROM orders WHERE attribute_not_exists(note) AND qty > 5",
		"SELECT SK, size(tags) AS nt, size(note) AS nl, size(nothing) AS nn FROM orders WHERE begins_with(SK, 'ORDER#2025-01')",
		"SELECT currency, MIN(total) AS lo, MAX(total) AS hi, SUM(qty) AS q FROM orders GROUP BY currency ORDER BY currency",
		"SELECT DISTINCT currency FROM orders WHERE status IN ('paid', 'shipped')",
		"SELECT SK, CASE WHEN total > 100 THEN 'big' ELSE 'small' END AS size_class, total * 2 AS dbl, total - qty AS diff, -total AS neg FROM orders WHERE status = 'placed' ORDER BY SK LIMIT 10 OFFSET 3",
		"SELECT upper(currency) AS c, lower(status) AS s, length(PK) AS l, concat(PK, '/', status, '/', qty) AS k, substr(SK, 7, 4) AS y FROM orders WHERE note LIKE '%a%'",
		"SELECT coalesce(note, 'none') AS n, COUNT(*) AS c FROM orders GROUP BY coalesce(note, 'none')",
		"SELECT status, COUNT(DISTINCT currency) AS nc, COUNT(note) AS notes FROM orders GROUP BY status",
		"SELECT SK FROM orders WHERE note IS NULL AND total BETWEEN 50 AND 80",
		"SELECT SK, total FROM orders WHERE NOT (status = 'paid' OR currency <> 'EUR') AND total >= 100 ORDER BY total DESC, SK LIMIT 7",
		"SELECT SK FROM orders WHERE status NOT IN ('paid', 'placed') AND SK NOT LIKE 'ORDER#2024%' AND NOT flag",
		"SELECT o.SK AS sk, c.name AS name FROM orders o JOIN customers c ON o.PK = c.PK WHERE c.tier = 'gold'",
		"SELECT c.PK AS pk, c.name AS name, COUNT(o.SK) AS n, SUM(o.total) AS spent FROM customers c LEFT JOIN orders o ON o.PK = c.PK GROUP BY c.PK, c.name",
		"SELECT SK, if(flag, 'yes', 'no') AS f, nullif(currency, 'USD') AS cur, greatest(qty, 3) AS g, round(total) AS r, abs(total - 100) AS a FROM orders WHERE PK IN ('CUST#1', 'CUST#2')",
		"SELECT COUNT(*) AS n FROM orders",
		"SELECT date_trunc(month, created) AS m, COUNT(*) AS n FROM orders GROUP BY date_trunc(month, created)",
		"SELECT SK, date_trunc(week, created) AS w, date_trunc(quarter, created) AS q, date_part(year, created) AS y, date_part(hour, created) AS h, date_part(week, created) AS wk, date_part(quarter, created) AS qn FROM orders WHERE PK = 'CUST#2'",
		"SELECT SK, date_add(day, 3, created) AS d3, date_add(month, 1, created) AS m1, date_add(quarter, -1, created) AS q1, date_add(hour, 30, created) AS h30 FROM orders WHERE PK IN ('CUST#3', 'CUST#4')",
		"SELECT SK, date_diff(day, created, '2026-01-01T00:00:00Z') AS dd, date_diff(month, '2024-01-31T00:00:00Z', created) AS dm, date_diff(hour, created, '2025-06-01T12:30:00Z') AS dh, date_diff(year, created, '2026-01-01T00:00:00Z') AS dy FROM orders WHERE PK = 'CUST#5'",
		"SELECT SK, date_format(created, '%Y-%m-%d %H:%i:%s') AS f1, date_format(created, '%e %M %Y, %W %l %p (%j)') AS f2, from_unixtime(1700000000) AS u FROM orders WHERE PK = 'CUST#6'",
		"SELECT SK FROM orders WHERE date_part(month, created) = 3 AND date_trunc(year, created) = '2025-01-01T00:00:00Z'",
		"SELECT SK, total FROM orders WHERE total > (SELECT AVG(total) FROM orders WHERE status = 'paid') AND PK IN (SELECT PK FROM customers WHERE tier = 'gold') AND EXISTS (SELECT 1 FROM orders WHERE status = 'cancelled')",
		"SELECT PK, (SELECT MAX(total) FROM orders) AS top FROM customers WHERE PK NOT IN (SELECT PK FROM orders WHERE qty > 3) AND NOT EXISTS (SELECT 1 FROM customers WHERE tier = 'platinum')",
		"WITH paid AS (SELECT PK, total FROM orders WHERE status = 'paid'), big(pk, n) AS (SELECT PK, COUNT(*) FROM paid GROUP BY PK) SELECT p.PK, p.total, b.n FROM paid p JOIN big b ON p.PK = b.pk WHERE b.n > 1 AND p.total > 10",
		"SELECT d.status, d.n FROM (SELECT status, COUNT(*) AS n, SUM(total) AS t FROM orders GROUP BY status) AS d WHERE d.n > 3 ORDER BY d.n DESC, d.status",
		"SELECT d.c AS city, d.q FROM (SELECT address.city, SUM(qty) FROM orders WHERE currency = 'EUR' GROUP BY address.city) AS d(c, q) WHERE d.q >= 10",
		"WITH t AS (SELECT PK, SK FROM orders WHERE flag = true) SELECT PK FROM t UNION SELECT PK FROM customers WHERE tier = 'silver'",
		"SELECT PK FROM orders WHERE status = 'paid' UNION SELECT PK FROM customers WHERE tier = 'gold'",
		"SELECT SK, CAST(total AS DECIMAL) AS total FROM orders WHERE PK = 'CUST#1' UNION ALL SELECT SK, total FROM orders WHERE PK = 'CUST#2' AND total > 0 ORDER BY 2 DESC, 1 LIMIT 5 OFFSET 1",
		"SELECT currency FROM orders WHERE status = 'paid' INTERSECT SELECT currency FROM orders WHERE total > 900",
		"SELECT PK FROM customers EXCEPT SELECT PK FROM orders",
		"SELECT SK, ROW_NUMBER() OVER (PARTITION BY PK ORDER BY SK DESC) AS rn, SUM(total) OVER (PARTITION BY PK ORDER BY SK ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s2, LAG(status, 1, 'none') OVER (PARTITION BY PK ORDER BY SK) AS prev FROM orders WHERE PK IN ('CUST#1', 'CUST#2', 'CUST#3')",
		"SELECT SK, RANK() OVER (PARTITION BY currency ORDER BY qty) AS r, DENSE_RANK() OVER (PARTITION BY currency ORDER BY qty) AS dr, COUNT(*) OVER (PARTITION BY currency) AS n, MAX(total) OVER (PARTITION BY currency ORDER BY qty RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS m FROM orders WHERE status = 'paid'",
		"SELECT status, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) DESC) AS r, NTILE(2) OVER (ORDER BY status) AS half FROM orders GROUP BY status",
		"SELECT SK, FIRST_VALUE(SK) OVER (PARTITION BY PK ORDER BY SK) AS first, LAST_VALUE(SK) OVER (PARTITION BY PK ORDER BY SK ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last, LEAD(total) OVER (PARTITION BY PK ORDER BY SK) AS next FROM orders WHERE PK = 'CUST#7'",
		"SELECT SK FROM orders WHERE (qty > 6 OR total < 20) AND currency = 'EUR'",
		"SELECT DISTINCT status FROM orders ORDER BY status",
		"SELECT created, SK FROM orders WHERE PK = 'CUST#4' ORDER BY created, SK",
		"SELECT address.country AS country, CAST(address.zip AS CHAR) AS zip FROM orders WHERE attribute_exists(address.zip) AND address.city = 'Paris'",
	},
	"docs": {
		"SELECT id, big FROM docs WHERE big > 0",
		"SELECT id, big, small FROM docs WHERE big < 0 OR small = 3",
		"SELECT id FROM docs WHERE contains(nums, 3)",
		"SELECT id FROM docs WHERE contains(tags, 'x') OR contains(word, 'x')",
		"SELECT id, m.a.b AS b, m.c AS c FROM docs WHERE attribute_exists(m.a)",
		"SELECT id, l[1] AS second, l[0] AS first FROM docs",
		"SELECT id FROM docs WHERE nothing IS NULL",
		"SELECT id FROM docs WHERE nothing IS NOT NULL",
		"SELECT id, size(tags) AS n, size(word) AS w FROM docs",
		"SELECT id, word FROM docs WHERE attribute_type(word, 'S')",
		"SELECT id FROM docs WHERE flag",
		"SELECT id, big FROM docs ORDER BY big, id",
		"SELECT MAX(big) AS hi, MIN(big) AS lo, COUNT(big) AS n FROM docs",
		"SELECT id FROM docs WHERE word LIKE 'a\\_%'",
	},
}

// TestExplainDuckDBAgainstDuckDB runs each statement of dialectCorpus
// through ddbsql and, rewritten by EXPLAIN DUCKDB, through DuckDB (one
// process for the whole corpus), and compares the rows. Numbers are
// compared exactly, as canonical decimal text.
func TestExplainDuckDBAgainstDuckDB(t *testing.T) {
	dir := t.TempDir()
	ordersDir := filepath.Join(dir, "orders")
	if _, err := exportgen.Write(ordersDir, exportgen.Options{Items: 600, Files: 3, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	customers := writeItems(t, filepath.Join(dir, "customers.json.gz"), customerItems())
	docs := writeItems(t, filepath.Join(dir, "docs.json.gz"), docItems)
	ordersFiles := filepath.Join(ordersDir, "AWSDynamoDB", "*", "data", "*.json.gz")

	sources := map[string][]offline.Source{
		"orders": {{Path: ordersDir, Table: "orders", Keys: []string{"PK", "SK"}}, {Path: customers, Table: "customers", Keys: []string{"PK"}}},
		"docs":   {{Path: docs, Table: "docs", Keys: []string{"id"}}},
	}
	export := map[string]planner.DialectOptions{
		// exportgen's totals have two decimals.
		"orders": {Scale: 2, ScaleSet: true, LocalLocations: map[string]string{"orders": ordersFiles, "customers": customers}},
		// 38-digit integers: no room for decimals.
		"docs": {Scale: 0, ScaleSet: true, LocalLocations: map[string]string{"docs": docs}},
	}
	for _, set := range []string{"orders", "docs"} {
		db := memdb.New(memdb.ReadOnly())
		if _, err := offline.Load(context.Background(), db, sources[set]); err != nil {
			t.Fatal(err)
		}
		var scripts []string
		var want [][]map[string]any
		for _, sql := range dialectCorpus[set] {
			want = append(want, ddbsqlRows(t, db, export[set], sql))
			scripts = append(scripts, runDialect(t, db, export[set], "EXPLAIN DUCKDB "+sql))
		}
		got := duckdbtest.QueryAll(t, scripts)
		checkNotEmpty(t, dialectCorpus[set], want)
		for i, sql := range dialectCorpus[set] {
			if d := diffRows(want[i], got[i], sortsRows(sql)); d != "" {
				t.Errorf("%s\n%s\nDuckDB ran:\n%s", sql, d, scripts[i])
			}
		}
		if len(want) != len(got) {
			t.Fatalf("%d answers for %d statements", len(got), len(want))
		}
	}
}

// parquetCorpus are statements over orders written as ddbsql's Parquet
// output (--format parquet: one column per attribute, numbers DECIMAL(38,
// s), documents as JSON text), which EXPLAIN DUCKDB --athena-source
// parquet reads with read_parquet.
var parquetCorpus = []string{
	"SELECT status, COUNT(*) AS n, SUM(total) AS t FROM orders GROUP BY status",
	"SELECT PK, SK, total FROM orders WHERE PK = 'CUST#3' ORDER BY SK",
	"SELECT address.city AS city, COUNT(*) AS n FROM orders GROUP BY address.city HAVING COUNT(*) > 5",
	"SELECT SK, items[0].sku AS sku, items[0].qty AS q FROM orders WHERE items[0].qty >= 2 AND flag = true",
	"SELECT SK FROM orders WHERE attribute_not_exists(note) AND qty > 5 AND currency IN ('EUR', 'JPY')",
	"SELECT currency, MIN(total) AS lo, MAX(total) AS hi, SUM(qty) AS q FROM orders GROUP BY currency ORDER BY currency",
	"SELECT SK, note FROM orders WHERE note LIKE '%a%' AND (total < 50 OR qty > 6) ORDER BY SK LIMIT 5 OFFSET 2",
}

// TestExplainDuckDBParquetAgainstDuckDB writes the orders export as
// ddbsql's Parquet output and checks the Parquet rewrite against ddbsql's
// answers over the export.
func TestExplainDuckDBParquetAgainstDuckDB(t *testing.T) {
	dir := t.TempDir()
	if _, err := exportgen.Write(dir, exportgen.Options{Items: 400, Files: 2, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	db := memdb.New(memdb.ReadOnly())
	if _, err := offline.Load(context.Background(), db, []offline.Source{{Path: dir, Table: "orders", Keys: []string{"PK", "SK"}}}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "orders.parquet")
	pq := runFormat(t, db, planner.DialectOptions{}, "parquet",
		"SELECT PK, SK, status, total, qty, currency, created, tags, items, address, flag, note FROM orders")
	if err := os.WriteFile(file, []byte(pq), 0o644); err != nil {
		t.Fatal(err)
	}
	d := planner.DialectOptions{Source: planner.SourceParquet, Scale: 2, ScaleSet: true, Locations: map[string]string{"orders": file}}
	var scripts []string
	var want [][]map[string]any
	for _, sql := range parquetCorpus {
		want = append(want, ddbsqlRows(t, db, d, sql))
		scripts = append(scripts, runDialect(t, db, d, "EXPLAIN DUCKDB "+sql))
	}
	got := duckdbtest.QueryAll(t, scripts)
	checkNotEmpty(t, parquetCorpus, want)
	for i, sql := range parquetCorpus {
		if diff := diffRows(want[i], got[i], sortsRows(sql)); diff != "" {
			t.Errorf("%s\n%s\nDuckDB ran:\n%s", sql, diff, scripts[i])
		}
	}
}

// sortsRows reports whether a corpus statement orders its rows: an ORDER
// BY outside parentheses (a window's is inside OVER (…)).
func sortsRows(sql string) bool {
	var outer strings.Builder
	depth := 0
	for _, c := range sql {
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case depth == 0:
			outer.WriteRune(c)
		}
	}
	return strings.Contains(strings.ToUpper(outer.String()), "ORDER BY")
}

// checkNotEmpty fails for a statement of a corpus that ddbsql answers
// with no rows: two empty answers prove nothing about the rewrite.
func checkNotEmpty(t *testing.T, corpus []string, answers [][]map[string]any) {
	t.Helper()
	for i, rows := range answers {
		if len(rows) == 0 {
			t.Errorf("%s: ddbsql returns no rows; make the statement select some", corpus[i])
		}
	}
}

// ddbsqlRows runs sql with ddbsql and returns its rows (ndjson).
func ddbsqlRows(t *testing.T, db *memdb.DB, d planner.DialectOptions, sql string) []map[string]any {
	t.Helper()
	out := runDialect(t, db, d, sql)
	var rows []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.UseNumber()
		var row map[string]any
		if err := dec.Decode(&row); err != nil {
			t.Fatalf("%s: ndjson line %q: %v", sql, sc.Text(), err)
		}
		rows = append(rows, row)
	}
	return rows
}

// runDialect runs one statement in a session over db that finds the
// tables' exports as d says, and returns what it printed.
func runDialect(t *testing.T, db *memdb.DB, d planner.DialectOptions, sql string) string {
	t.Helper()
	return runFormat(t, db, d, "ndjson", sql)
}

// runFormat runs one statement with output in a format.
func runFormat(t *testing.T, db *memdb.DB, d planner.DialectOptions, format, sql string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	cfg := session.DefaultConfig()
	cfg.Mem = memtest.Allocator(t)
	cfg.Format = format
	cfg.Plan.AllowScan = true
	cfg.Export = d
	s := session.New(db, &out, &errOut, cfg)
	if err := s.RunScript(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v\n%s", sql, err, errOut.String())
	}
	return out.String()
}

// diffRows compares two results, in order or as multisets; "" when equal.
func diffRows(want, got []map[string]any, ordered bool) string {
	w, g := canonRows(want), canonRows(got)
	if !ordered {
		sort.Strings(w)
		sort.Strings(g)
	}
	if len(w) == 0 && len(g) == 0 {
		return ""
	}
	if strings.Join(w, "\n") == strings.Join(g, "\n") {
		return ""
	}
	return fmt.Sprintf("ddbsql (%d rows):\n  %s\nDuckDB (%d rows):\n  %s", len(w), strings.Join(w, "\n  "), len(g), strings.Join(g, "\n  "))
}

func canonRows(rows []map[string]any) []string {
	out := make([]string, len(rows))
	for i, row := range rows {
		keys := make([]string, 0, len(row))
		for k := range row {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for j, k := range keys {
			parts[j] = k + "=" + canonValue(row[k])
		}
		out[i] = strings.Join(parts, " ")
	}
	return out
}

// canonValue renders a cell for comparison: numbers (and text that is a
// number: DuckDB's DECIMAL and BIGINT come as text) as canonical decimal
// text, so 12.50 equals 12.5 and no digit is rounded.
func canonValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case json.Number:
		if c, err := value.CanonicalNumber(string(x)); err == nil {
			return c
		}
		return string(x)
	case string:
		if c, err := value.CanonicalNumber(x); err == nil && x != "" && !strings.ContainsAny(x, "eE") {
			return c
		}
		return fmt.Sprintf("%q", x)
	case bool:
		return fmt.Sprint(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// writeItems writes DynamoDB JSON lines ({"Item": …}) gzipped, as an
// export's data file.
func writeItems(t *testing.T, path string, items []string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for _, it := range items {
		fmt.Fprintf(zw, "{\"Item\":%s}\n", it)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// customerItems are the customers of exportgen's orders (CUST#0…),
// some without a tier, and one with no orders.
func customerItems() []string {
	var out []string
	for i := 0; i < 80; i++ {
		tier := []string{`,"tier":{"S":"gold"}`, `,"tier":{"S":"silver"}`, ""}[i%3]
		out = append(out, fmt.Sprintf(`{"PK":{"S":"CUST#%d"},"name":{"S":"customer %d"}%s}`, i, i, tier))
	}
	return append(out, `{"PK":{"S":"CUST#none"},"name":{"S":"nobody"}}`)
}

// docItems cover what a table of documents holds: sets, maps, lists,
// NULL, booleans, missing attributes, 38-digit numbers.
var docItems = []string{
	`{"id":{"S":"a"},"big":{"N":"12345678901234567890123456789012345678"},"small":{"N":"3"},"tags":{"SS":["x","y"]},"nums":{"NS":["1","3"]},"m":{"M":{"a":{"M":{"b":{"S":"deep"}}},"c":{"N":"7"}}},"l":{"L":[{"S":"zero"},{"N":"1"}]},"flag":{"BOOL":true},"word":{"S":"a_b"}}`,
	`{"id":{"S":"b"},"big":{"N":"-99999999999999999999999999999999999999"},"small":{"N":"4"},"tags":{"SS":["z"]},"nums":{"NS":["2"]},"nothing":{"NULL":true},"flag":{"BOOL":false},"word":{"S":"box"}}`,
	`{"id":{"S":"c"},"big":{"N":"1"},"m":{"M":{"c":{"S":"text"}}},"l":{"L":[{"S":"only"}]},"word":{"S":"abc"}}`,
	`{"id":{"S":"d"},"word":{"N":"5"},"nothing":{"S":"something"},"tags":{"SS":["x"]}}`,
	`{"id":{"S":"e"},"big":{"N":"0"},"m":{"M":{"a":{"M":{"b":{"N":"2"}}}}},"l":{"L":[]},"word":{"S":"a_x"}}`,
}
