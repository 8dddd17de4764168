package offline_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
)

// The queries doc.go tells users to try run on the demo, with the results
// it promises.
func TestDocumentedDemoQueries(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, tail, _ := strings.Cut(string(doc), "// Queries to try")
	var queries []string
	for _, line := range strings.Split(tail, "\n") {
		if q, ok := strings.CutPrefix(line, "//\tSELECT "); ok {
			queries = append(queries, "SELECT "+q)
		}
	}
	if len(queries) < 10 {
		t.Fatalf("found %d documented queries", len(queries))
	}
	db := memdb.New(memdb.ReadOnly())
	if _, err := offline.LoadDemo(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	// What some of them must return (CSV, header first).
	want := map[string][]string{
		"SELECT SK, Type, title, status FROM app WHERE PK = 'WS#acme'": {
			"SK,Type,title,status", "DOC#0001,Document,Security policy (Sep 2025),review"},
		"SELECT name, plan, seats FROM app WHERE GSI1PK = 'PLAN#team'": {
			"name,plan,seats", "Acme Corp,team,20", "Initech,team,40", "Stark Industries,team,25", "Wonka Industries,team,15"},
		"SELECT partitionId FROM leaderboard WHERE handle = 'lucky_fox'": {"partitionId", "PLAYER#p0004"},
		"SELECT o.SK, o.total, c.name FROM orders o JOIN customers c ON o.customer_id = c.id WHERE o.PK = 'USER#u_001'": {
			"SK,total,name", "ORDER#2026-02-02T22:05:00Z,73.18,Alice Tanaka", "ORDER#2026-02-10T14:58:00Z,178.14,Alice Tanaka",
			"ORDER#2026-02-25T17:13:00Z,48.97,Alice Tanaka", "ORDER#2026-03-14T15:08:00Z,78.27,Alice Tanaka",
			"ORDER#2026-04-09T01:53:00Z,99.56,Alice Tanaka", "ORDER#2026-04-26T20:16:00Z,91.38,Alice Tanaka"},
		"SELECT status, COUNT(*) AS n, SUM(total) AS revenue FROM orders WHERE status = 'shipped' GROUP BY status": {
			"status,n,revenue", "shipped,27,2806.09"},
		"SELECT displayName, rating FROM leaderboard WHERE gsiPartition = 'SEASON#2026-Q2' ORDER BY gsiSort DESC LIMIT 10": {
			"displayName,rating", "Hidden Owl,2991"},
	}
	for _, q := range queries {
		var out, errOut bytes.Buffer
		cfg := session.DefaultConfig()
		cfg.Mem = memtest.Allocator(t)
		cfg.Format = "csv"
		cfg.Stats = session.StatsOff
		s := session.New(db, &out, &errOut, cfg)
		if err := s.RunScript(context.Background(), q); err != nil {
			t.Errorf("%s: %v\n%s", q, err, errOut.String())
			continue
		}
		rows := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(rows) < 2 {
			t.Errorf("%s: no rows:\n%s", q, out.String())
		}
		for i, w := range want[q] {
			if i >= len(rows) || rows[i] != w {
				t.Errorf("%s: row %d\n got: %q\nwant: %q", q, i, rows, w)
				break
			}
		}
	}
}
