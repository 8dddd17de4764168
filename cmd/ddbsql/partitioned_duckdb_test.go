package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/ddbsql/ddbsql/internal/duckdbtest"
)

// duckSame compares a value DuckDB read from the layout with the value
// ddbsql printed as JSON: numbers by value (DuckDB gives DECIMAL and
// BIGINT as exact strings), documents and sets by their JSON text.
func duckSame(got, want any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case json.Number:
		var g string
		switch v := got.(type) {
		case string:
			g = v
		case json.Number:
			g = string(v)
		default:
			return false
		}
		var x, y apd.Decimal
		if _, _, err := x.SetString(g); err != nil {
			return false
		}
		y.SetString(string(w))
		return x.Cmp(&y) == 0
	case string, bool:
		return got == want
	}
	text, ok := got.(string)
	if !ok {
		return false
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var g any
	if err := dec.Decode(&g); err != nil {
		return false
	}
	return reflect.DeepEqual(g, want)
}

// TestPartitionedDuckDB: DuckDB reads the layout with hive_partitioning
// (one schema for all files, so no union_by_name) and gets ddbsql's rows,
// value for value: the escaped partition values, the default partition
// as NULL, 38-digit numbers, an attribute named _extra, one only the last
// items have.
func TestPartitionedDuckDB(t *testing.T) {
	items := writeItemsFile(t, partItems(300))
	const sql = "SELECT * FROM tbl"
	r := partRun(t, items, "--format", "ndjson", "-e", sql)
	if r.code != 0 {
		t.Fatalf("ndjson: %s", r.err)
	}
	want := ndjsonRows(t, r.out)
	dir := filepath.Join(t.TempDir(), "out")
	r = partRun(t, items, "--format", "parquet", "-o", dir, "--partition-by", "cat,grp", "-e", sql)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	src := fmt.Sprintf("read_parquet('%s/**/*.parquet', hive_partitioning = true)", strings.ReplaceAll(dir, "'", "''"))
	got := duckdbtest.QueryAll(t, []string{
		"SELECT * REPLACE (to_base64(bin) AS bin) FROM " + src + " ORDER BY id",
		"SELECT count(*) AS n, count(cat) AS cats FROM " + src,
	})
	rows := got[0]
	if len(rows) != len(want) {
		t.Fatalf("DuckDB read %d rows, ddbsql printed %d", len(rows), len(want))
	}
	byID := map[string]map[string]any{}
	for _, w := range want {
		byID[w["id"].(string)] = w
	}
	for _, g := range rows {
		id, _ := g["id"].(string)
		w, ok := byID[id]
		if !ok {
			t.Fatalf("DuckDB row %v is not in the result", g)
		}
		for name, wv := range w {
			if name == "cat" && wv == "" {
				wv = nil // the empty string is Hive's default partition: NULL
			}
			if !duckSame(g[name], wv) {
				t.Errorf("row %s column %s: DuckDB read %#v, ddbsql printed %#v", id, name, g[name], wv)
			}
		}
		for name, gv := range g {
			if _, ok := w[name]; !ok && gv != nil {
				t.Errorf("row %s: DuckDB read %s = %#v, which ddbsql's row does not have", id, name, gv)
			}
		}
	}
	nulls := 0
	for _, w := range want {
		if c, _ := w["cat"].(string); c == "" {
			nulls++
		}
	}
	if c := got[1][0]; !duckSame(c["n"], json.Number(fmt.Sprint(len(want)))) || !duckSame(c["cats"], json.Number(fmt.Sprint(len(want)-nulls))) {
		t.Errorf("DuckDB counts %v; want %d rows, %d with a category", c, len(want), len(want)-nulls)
	}
}

// TestPartitionedExplainDuckDB: EXPLAIN DUCKDB with --athena-source parquet
// and the --partition-by of a written layout declares its partitions, and
// DuckDB running that text over the layout gets ddbsql's own result.
func TestPartitionedExplainDuckDB(t *testing.T) {
	items := writeItemsFile(t, partItems(200))
	dir := filepath.Join(t.TempDir(), "out")
	if r := partRun(t, items, "--format", "parquet", "-o", dir, "--partition-by", "grp", "-e", "SELECT * FROM tbl"); r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.err)
	}
	const sql = "SELECT grp, COUNT(*) AS n, SUM(price) AS total FROM tbl WHERE price > 10 GROUP BY grp ORDER BY grp"
	own := partRun(t, items, "--format", "ndjson", "-e", sql)
	if own.code != 0 {
		t.Fatalf("ddbsql: %s", own.err)
	}
	want := ndjsonRows(t, own.out)
	r := partRun(t, items, "--athena-source", "parquet", "--partition-by", "grp", "--export-location", "tbl="+dir+"/", "-e", "EXPLAIN DUCKDB "+sql)
	if r.code != 0 {
		t.Fatalf("EXPLAIN DUCKDB: exit %d: %s", r.code, r.err)
	}
	got := duckdbtest.QueryAll(t, strings.SplitAfter(strings.TrimSpace(r.out), ";\n"))
	rows := got[len(got)-1]
	if len(rows) != len(want) || len(want) != 3 {
		t.Fatalf("DuckDB gave %v; ddbsql %v (from %s)", rows, want, r.out)
	}
	for i := range want {
		for _, c := range []string{"grp", "n", "total"} {
			if !duckSame(rows[i][c], want[i][c]) {
				t.Errorf("row %d column %s: DuckDB %#v, ddbsql %#v\n%s", i, c, rows[i][c], want[i][c], r.out)
			}
		}
	}
	r = partRun(t, items, "--athena-source", "parquet", "--partition-by", "grp", "--export-location", "s3://b/tbl/", "-e", "EXPLAIN ATHENA "+sql)
	if r.code != 0 || !strings.Contains(r.out, "PARTITIONED BY (grp string)") || !strings.Contains(r.out, "MSCK REPAIR TABLE tbl;") {
		t.Errorf("EXPLAIN ATHENA does not declare the partitions: exit %d %s\n%s", r.code, r.err, r.out)
	}
	r = partRun(t, items, "--athena-source", "parquet", "--partition-by", "grp", "-e", "SELECT * FROM tbl")
	if r.code != exitUsage || !strings.Contains(r.err, "--partition-by without --output only describes a Parquet layout") {
		t.Errorf("a SELECT with a describing --partition-by: exit %d, %q", r.code, r.err)
	}
}
