package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// result is what one ddbsql invocation produced.
type result struct {
	out, err string
	code     int
	failure  error // the error printed on stderr, for its code
}

// errorCode is the stable code of the failure (of any phase), or its Go
// type when it has none.
func (r result) errorCode() diag.Code {
	var de *diag.Error
	switch {
	case errors.As(r.failure, &de):
		return de.Code
	case r.failure != nil:
		return diag.Code(fmt.Sprintf("%T", r.failure))
	}
	return ""
}

// cli runs ddbsql in-process against dynalite with the fixture tables loaded
// under a unique prefix; {app}, {users}, … in SQL become those table names.
type cli struct {
	t        *testing.T
	endpoint string
	prefix   string
	// mem, when set, runs statements on the in-process backend instead.
	mem *memdb.DB
}

// backends runs f once against dynalite and once against the in-process
// backend, with the same fixtures: both must give the same answers.
func backends(t *testing.T, f func(t *testing.T, c *cli)) {
	t.Run("dynalite", func(t *testing.T) { f(t, newCLI(t)) })
	t.Run("memdb", func(t *testing.T) { f(t, newMemCLI(t)) })
}

// newMemCLI loads the fixtures into a fresh in-process backend.
func newMemCLI(t *testing.T) *cli {
	t.Helper()
	db := memdb.New()
	c := &cli{t: t, prefix: "mem.", mem: db}
	if err := fixtures.Load(context.Background(), db, c.prefix, fixtures.All()...); err != nil {
		t.Fatalf("loading fixtures: %v", err)
	}
	return c
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
	var full []string
	for _, a := range args {
		full = append(full, c.expand(a))
	}
	return c.invoke(full, "")
}

// runStdin pipes SQL on stdin.
func (c *cli) runStdin(stdin string, args ...string) result {
	return c.invoke(args, c.expand(stdin))
}

func (c *cli) invoke(args []string, stdin string) result {
	if c.mem != nil {
		return invokeWith(args, stdin, c.mem)
	}
	return invoke(append([]string{"--endpoint-url", c.endpoint}, args...), stdin)
}

func invoke(args []string, stdin string) result { return invokeWith(args, stdin, nil) }

func invokeWith(args []string, stdin string, client dynamo.Client) result {
	var out, errOut bytes.Buffer
	st := streams{in: strings.NewReader(stdin), out: &out, err: &errOut}
	if client != nil {
		st.client = client
	}
	code, err := execute(context.Background(), args, st)
	if err != nil {
		printError(&errOut, err)
	}
	return result{out: out.String(), err: errOut.String(), code: code, failure: err}
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
