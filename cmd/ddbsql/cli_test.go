package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
)

// result is what one ddbsql invocation produced.
type result struct {
	out, err string
	code     int
}

// cli runs ddbsql in-process against dynalite with the fixture tables loaded
// under a unique prefix; {app}, {users}, … in SQL become those table names.
type cli struct {
	t        *testing.T
	endpoint string
	prefix   string
}

// newCLI loads the fixtures under a prefix owned by t (deleted when t ends),
// so tests share them by being subtests of one parent test.
func newCLI(t *testing.T) *cli {
	t.Helper()
	c := &cli{t: t, endpoint: dynalitetest.Endpoint(t)}
	c.prefix = dynalitetest.Prefix(t)
	if err := fixtures.Load(context.Background(), dynalitetest.Client(t), c.prefix, fixtures.All()...); err != nil {
		t.Fatalf("loading fixtures: %v", err)
	}
	return c
}

func (c *cli) expand(sql string) string {
	for _, ft := range fixtures.All() {
		sql = strings.ReplaceAll(sql, "{"+ft.Name+"}", "`"+ft.Named(c.prefix)+"`")
	}
	return sql
}

// run invokes ddbsql with --endpoint-url and the given arguments; arguments
// after -e are expanded.
func (c *cli) run(args ...string) result {
	full := []string{"--endpoint-url", c.endpoint}
	for _, a := range args {
		full = append(full, c.expand(a))
	}
	return invoke(full, "")
}

// runStdin pipes SQL on stdin.
func (c *cli) runStdin(stdin string, args ...string) result {
	full := append([]string{"--endpoint-url", c.endpoint}, args...)
	return invoke(full, c.expand(stdin))
}

func invoke(args []string, stdin string) result {
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, streams{in: strings.NewReader(stdin), out: &out, err: &errOut})
	return result{out: out.String(), err: errOut.String(), code: code}
}

// rows runs a statement with --format ndjson and decodes each row, keeping
// numbers exact.
func (c *cli) rows(t *testing.T, extra []string, sql string) []map[string]any {
	t.Helper()
	args := append(append([]string{}, extra...), "--format", "ndjson", "-e", sql)
	r := c.run(args...)
	if r.code != 0 {
		t.Fatalf("ddbsql %v: exit %d\nstderr: %s", args, r.code, r.err)
	}
	var out []map[string]any
	dec := json.NewDecoder(strings.NewReader(r.out))
	dec.UseNumber()
	for dec.More() {
		var row map[string]any
		if err := dec.Decode(&row); err != nil {
			t.Fatalf("bad ndjson %q: %v", r.out, err)
		}
		out = append(out, row)
	}
	return out
}

// column extracts one column of rows as strings (JSON text for non-strings).
func column(rows []map[string]any, name string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		switch v := r[name].(type) {
		case string:
			out[i] = v
		case nil:
			out[i] = "<null>"
		default:
			b, _ := json.Marshal(v)
			out[i] = string(b)
		}
	}
	return out
}
