package planner_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/planner"
)

// TestStatementTime: now(), current_timestamp and current_date stand for
// one instant per statement, Options.Now, in every clause.
func TestStatementTime(t *testing.T) {
	at := time.Date(2026, 4, 26, 23, 16, 42, 500_000_000, time.FixedZone("X", 3600))
	opts := planner.Options{Now: at}
	p, text := planFor(nil, "SELECT now(), current_timestamp, current_date, current_date(), date_trunc('day', NOW()) "+
		"WHERE now() > '2026' ORDER BY current_date", opts)
	if p == nil {
		t.Fatal(text)
	}
	out := planner.Explain(p)
	for _, want := range []string{"'2026-04-26T22:16:42Z' AS NOW()", "'2026-04-26T22:16:42Z' AS CURRENT_TIMESTAMP",
		"'2026-04-26' AS CURRENT_DATE", "date_trunc('day', '2026-04-26T22:16:42Z')"} {
		if !strings.Contains(out, want) {
			t.Errorf("EXPLAIN lacks %s:\n%s", want, out)
		}
	}
	// Without a statement time they stay calls.
	p, text = planFor(nil, "SELECT now(), current_date", planner.Options{})
	if p == nil {
		t.Fatal(text)
	}
	if out := planner.Explain(p); !strings.Contains(out, "now() AS NOW()") || !strings.Contains(out, "current_date() AS CURRENT_DATE") {
		t.Errorf("without Options.Now:\n%s", out)
	}
}
