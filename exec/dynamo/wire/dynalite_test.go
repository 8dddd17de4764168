package wire

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/session"
)

// TestEndToEndDynalite runs the same statements through a session with and
// without Raw against dynalite (Query, Scan, parallel segments, pages of
// 1 MB, GROUP BY, ORDER BY, LIMIT, document and set values, 38-digit and
// extreme numbers) and requires identical output in every format tried.
// It needs the dynalite server `make test` starts (DDBSQL_TEST_DYNALITE).
func TestEndToEndDynalite(t *testing.T) {
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tables := fixtures.All()
	if err := fixtures.Load(ctx, client, prefix, tables...); err != nil {
		t.Fatal(err)
	}
	name := func(n string) string { return "`" + prefix + n + "`" }
	app, users, metrics, products, customers := name("app"), name("users"), name("metrics"), name("products"), name("customers")
	stmts := []struct {
		sql       string
		segments  int
		unordered bool
	}{
		{sql: "SELECT * FROM " + app, segments: 1},
		{sql: "SELECT * FROM " + app, segments: 3, unordered: true},
		{sql: "SELECT * FROM " + app + " WHERE PK = 'WS#big'"},
		{sql: "SELECT PK, SK, score FROM " + app + " WHERE PK = 'WS#acme' ORDER BY SK DESC"},
		{sql: "SELECT PK, COUNT(*) FROM " + app + " GROUP BY PK ORDER BY PK", segments: 2},
		{sql: "SELECT * FROM " + app + " WHERE score > 0", segments: 1},
		{sql: "SELECT * FROM " + users, segments: 1},
		{sql: "SELECT PK, COUNT(*) FROM " + users + " GROUP BY PK ORDER BY PK", segments: 1},
		{sql: "SELECT * FROM " + metrics + " WHERE device = 42 ORDER BY seq DESC LIMIT 5"},
		{sql: "SELECT * FROM " + metrics, segments: 2, unordered: true},
		{sql: "SELECT * FROM " + products, segments: 1},
		{sql: "SELECT * FROM " + customers + " LIMIT 7", segments: 1},
		{sql: "SELECT COUNT(*) FROM " + app, segments: 2},
	}
	run := func(t *testing.T, sql, format string, segments int, raw bool) string {
		var out bytes.Buffer
		cfg := session.DefaultConfig()
		cfg.Format = format
		cfg.Plan.AllowScan = true
		cfg.Plan.Segments = segments
		if raw {
			cfg.Raw = New(client)
		}
		s := session.New(client, &out, io.Discard, cfg)
		if err := s.RunScript(ctx, sql); err != nil {
			t.Fatalf("%s (raw %v): %v", sql, raw, err)
		}
		return out.String()
	}
	before := fallbacks.Load()
	defer func() {
		if n := fallbacks.Load() - before; n != 0 {
			t.Errorf("%d dynalite responses were left to the SDK's deserializer", n)
		}
	}()
	for i, st := range stmts {
		for _, format := range []string{"json", "csv", "table"} {
			t.Run(fmt.Sprintf("%d-%s", i, format), func(t *testing.T) {
				want := run(t, st.sql, format, st.segments, false)
				got := run(t, st.sql, format, st.segments, true)
				if st.unordered {
					want, got = sortedLines(want), sortedLines(got)
				}
				if want != got {
					t.Fatalf("%s: output differs\nSDK path:\n%s\nfast path:\n%s", st.sql, clipText(want), clipText(got))
				}
				if strings.Count(want, "\n") < 2 {
					t.Fatalf("%s: suspiciously little output:\n%s", st.sql, want)
				}
			})
		}
	}
}

// sortedLines orders output lines (and drops JSON's separating commas, which
// depend on which row came last).
func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, ",")
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func clipText(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "…"
	}
	return s
}
