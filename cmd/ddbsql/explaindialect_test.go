package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/internal/exportgen"
)

// TestExplainDialectFlags checks the flags of EXPLAIN ATHENA and EXPLAIN
// DUCKDB on the command line: their errors, and where they put the
// tables' locations.
func TestExplainDialectFlags(t *testing.T) {
	export := filepath.Join(t.TempDir(), "export")
	if _, err := exportgen.Write(export, exportgen.Options{Items: 3, Files: 1, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		err  string   // the start of stderr
		out  []string // what stdout must hold
	}{
		{name: "a scale out of range", args: []string{"--demo", "--decimal-scale", "39"}, code: 2,
			err: "error: --decimal-scale 39: give the number of decimals, 0 to 38"},
		{name: "an unknown source", args: []string{"--demo", "--athena-source", "csv"}, code: 2,
			err: "error: --athena-source csv: give json"},
		{name: "a location given twice", args: []string{"--demo", "--export-location", "users=s3://a/", "--export-location", "users=s3://b/"}, code: 2,
			err: "error: --export-location users=s3://b/: a location for users was given already"},
		{name: "a location without a path", args: []string{"--demo", "--export-location", "users="}, code: 2,
			err: "error: --export-location users=: give the location"},
		{name: "Athena at the given location, with the scale", args: []string{"--demo", "--export-location", "users=s3://bucket/AWSDynamoDB/01-x/data/", "--decimal-scale", "4",
			"-e", "EXPLAIN ATHENA SELECT SK, total FROM users WHERE PK = 'USER#u_001' AND total > 1"},
			out: []string{"LOCATION 's3://bucket/AWSDynamoDB/01-x/data/';", "       CAST(item.total.N AS DECIMAL(38, 4)) AS total"}},
		{name: "a location for every table", args: []string{"--demo", "--export-location", "s3://bucket/x/", "-e", "EXPLAIN ATHENA SELECT SK FROM users WHERE PK = 'u'"},
			out: []string{"LOCATION 's3://bucket/x/';"}},
		{name: "DuckDB reads the --data export folder", args: []string{"--data", "orders=" + export, "--key", "PK,SK", "-e", "EXPLAIN DUCKDB SELECT SK FROM orders WHERE PK = 'u'"},
			out: []string{"SELECT * FROM read_json('" + filepath.ToSlash(filepath.Join(export, "AWSDynamoDB", "*", "data", "*.json.gz")) + "', format = 'newline_delimited'"}},
		{name: "Ion for DuckDB", args: []string{"--demo", "--athena-source", "ion", "-e", "EXPLAIN DUCKDB SELECT SK FROM users WHERE PK = 'u'"}, code: 1,
			err: "error: DuckDB cannot read Amazon Ion exports"},
		{name: "SELECT * is refused", args: []string{"--demo", "-e", "EXPLAIN ATHENA SELECT * FROM users WHERE PK = 'u'"}, code: 1,
			err: "error: EXPLAIN ATHENA cannot rewrite SELECT *"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := cliRun(t, "", c.args...)
			if r.code != c.code || !strings.HasPrefix(r.err, c.err) {
				t.Fatalf("exit %d, stderr %q; want exit %d, stderr starting %q", r.code, r.err, c.code, c.err)
			}
			for _, line := range c.out {
				if !strings.Contains(r.out, line) {
					t.Errorf("stdout lacks %q:\n%s", line, r.out)
				}
			}
		})
	}
}
