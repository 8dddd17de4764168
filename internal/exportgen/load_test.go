package exportgen_test

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/internal/exportgen"
)

// The export loads as `--data orders=DIR --key PK,SK` would load it, and
// queries answer what the generator says it wrote.
func TestExportLoadsAndAnswersTotals(t *testing.T) {
	dir := t.TempDir()
	const items = 3001 // not a multiple of the file count
	tot, err := exportgen.Write(dir, exportgen.Options{Items: items, Files: 3, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	db := memdb.New(memdb.ReadOnly())
	tables, err := offline.Load(context.Background(), db, []offline.Source{{Path: dir, Table: "orders", Keys: []string{"PK", "SK"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 1 || tables[0].Items != items {
		t.Fatalf("loaded %+v, want one table of %d items", tables, items)
	}

	if got := query(t, db, "SELECT COUNT(*) AS n FROM orders"); got != fmt.Sprintf("n\n%d", items) {
		t.Errorf("COUNT(*):\n%s", got)
	}
	var want []string
	var count int64
	for s, g := range tot.ByStatus {
		if g.Count > 0 {
			want = append(want, fmt.Sprintf("%s,%d,%s", s, g.Count, exportgen.FormatCents(g.Cents)))
		}
		count += g.Count
	}
	if count != items || tot.Items != items {
		t.Fatalf("totals count %d items (Items %d), want %d", count, tot.Items, items)
	}
	sort.Strings(want)
	got := query(t, db, "SELECT status, COUNT(*) AS n, SUM(total) AS revenue FROM orders GROUP BY status ORDER BY status")
	if w := "status,n,revenue\n" + strings.Join(want, "\n"); got != w {
		t.Errorf("GROUP BY status:\n got: %s\nwant: %s", got, w)
	}

	// Every other attribute is there too, with the documented types.
	got = query(t, db, "SELECT COUNT(*) AS n FROM orders WHERE qty >= 1 AND currency IN ('USD', 'EUR', 'JPY') AND address.country <> '' AND flag IN (true, false) AND created < '2026'")
	if got != fmt.Sprintf("n\n%d", items) {
		t.Errorf("items with every attribute:\n%s", got)
	}
}

func query(t *testing.T, db *memdb.DB, sql string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	cfg := session.DefaultConfig()
	cfg.Mem = memtest.Allocator(t)
	cfg.Format = "csv"
	cfg.Plan.AllowScan = true
	s := session.New(db, &out, &errOut, cfg)
	if err := s.RunScript(context.Background(), sql); err != nil {
		t.Fatalf("%s: %v\n%s", sql, err, errOut.String())
	}
	return strings.TrimSpace(out.String())
}
