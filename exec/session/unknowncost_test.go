package session_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// Statements on a table whose DescribeTable figures are not yet counted.
// DynamoDB refreshes ItemCount and TableSizeBytes about every six hours, so
// a new or freshly loaded table reports 0 items: a Scan's cost is unknown,
// not ~0. memdb reproduces the lag with WithLaggingCounts (DescribeTable
// shows the counts of the last RefreshCounts, 0 before it); dynalite always
// reports 0 (cost_test.go runs the refusal there too).

// freshDB is memdb holding the app and customers fixtures, just loaded:
// DescribeTable reports 0 items until RefreshCounts.
func freshDB(t *testing.T) *memdb.DB {
	t.Helper()
	db := memdb.New(memdb.WithLaggingCounts())
	if err := fixtures.Load(context.Background(), db, "", fixtures.App(), fixtures.Customers()); err != nil {
		t.Fatal(err)
	}
	return db
}

// assertUnknownCost checks the refusal says why the cost is unknown, which
// budget cannot be kept, and what to do.
func assertUnknownCost(t *testing.T, r result, target, budget string) {
	t.Helper()
	want := "this statement's estimated cost is unknown (DescribeTable reports 0 items for " + target +
		"; counts lag by up to six hours), so --max-rcu " + budget + " cannot be guaranteed; nothing was read"
	var pe *diag.Error
	if !errors.As(r.Error, &pe) || pe.Phase != diag.Plan || pe.Msg != want {
		t.Fatalf("error %v\nwant message %q", r.Error, want)
	}
	if !strings.Contains(pe.Hint, "add a LIMIT") || !strings.Contains(pe.Hint, "EXPLAIN") || !strings.Contains(pe.Hint, "without --max-rcu") {
		t.Fatalf("hint %q does not say what to do", pe.Hint)
	}
}

func TestUnknownCostBudget(t *testing.T) {
	db := freshDB(t)
	withBudget := func(n float64) func(*session.Config) {
		return func(cfg *session.Config) { cfg.Plan.AllowScan = true; cfg.MaxRCU = n }
	}
	scans := func() int64 {
		return db.Requests("Scan") + db.Requests("Query") + db.Requests("GetItem") + db.Requests("BatchGetItem")
	}

	t.Run("a Scan of unknown cost is refused before any request", func(t *testing.T) {
		for _, c := range []struct{ sql, target string }{
			{"SELECT * FROM app", "table app"},
			{"SELECT COUNT(*) FROM app", "table app"},
			{"SELECT * FROM app WHERE status = 'draft' LIMIT 5", "table app"}, // a filter: the Scan reads until 5 rows pass
			{"SELECT * FROM app ORDER BY title LIMIT 5", "table app"},         // sorted on the client: reads everything
			{"SELECT GSI1SK FROM app.GSI1", "index GSI1 of app"},              // the index reports 0 items too
			{"SELECT a.SK, c.name FROM app a JOIN customers c ON a.title = c.name WHERE a.PK = 'WS#acme'", "table customers"},
		} {
			before := scans()
			sp := spy(db)
			r := run(t, sp, withBudget(1), c.sql)
			assertRefused(t, r, sp)
			assertUnknownCost(t, r, c.target, "1")
			if n := scans() - before; n != 0 {
				t.Fatalf("%s: memdb received %d read requests before the refusal", c.sql, n)
			}
		}
	})

	t.Run("a LIMIT with no filter bounds it", func(t *testing.T) {
		// 5 items in at most one more page: the read is bounded, so it may
		// start under any budget; the runtime check guards the budget.
		for _, segments := range []int{1, 2} {
			r := mustRun(t, db, func(cfg *session.Config) { withBudget(1)(cfg); cfg.Plan.Segments = segments }, "SELECT * FROM app LIMIT 5")
			if len(r.rows()) != 5 || r.Stats.RCU > 1 || r.Stats.ItemsRead > int64(5*segments) {
				t.Fatalf("LIMIT 5, %d segments, under --max-rcu 1: %d rows, %d items read, %v RCU", segments, len(r.rows()), r.Stats.ItemsRead, r.Stats.RCU)
			}
		}
		// A filter removes the bound: the Scan reads until 5 rows pass.
		sp := spy(db)
		r := run(t, sp, withBudget(1), "SELECT * FROM app WHERE title = 'x' LIMIT 5")
		assertRefused(t, r, sp)
	})

	t.Run("key reads keep their lower bound", func(t *testing.T) {
		// One unit per key or Query page: DynamoDB charges that even for a
		// missing key or an empty partition, so within a budget of 1 these
		// run, and the runtime check still stops what crosses it.
		for _, sql := range []string{
			"SELECT * FROM app WHERE PK = 'WS#acme' AND SK = 'META'",
			"SELECT * FROM app WHERE PK = 'WS#acme'",
		} {
			mustRun(t, db, withBudget(1), sql)
		}
		r := run(t, db, withBudget(1), "SELECT * FROM app WHERE PK = 'WS#acme' AND SK IN ('META', 'DOC#0001', 'DOC#0002')")
		var pe *diag.Error
		if !errors.As(r.Error, &pe) || pe.Phase != diag.Plan || pe.Code != diag.CodeBudget || !strings.Contains(pe.Msg, "at least 1.5 RCU") {
			t.Fatalf("3 keys are at least 1.5 RCU, over a budget of 1: %v", r.Error)
		}
		r = run(t, db, withBudget(100), "SELECT * FROM app WHERE PK = 'WS#big'")
		var ee *diag.Error
		if !errors.As(r.Error, &ee) || ee.Code != diag.CodeBudget || r.Stats.RCU <= 100 {
			t.Fatalf("a Query of unknown size must stop once it crosses the budget: %v (%+v)", r.Error, r.Stats)
		}
	})

	t.Run("EXPLAIN and the REPL question say unknown", func(t *testing.T) {
		r := run(t, db, nil, "EXPLAIN SELECT * FROM app")
		if r.Error != nil {
			t.Fatal(r.Error)
		}
		for _, want := range []string{
			"estimate: unknown — DescribeTable reports 0 items; counts lag by up to six hours\n",
			"estimated total: unknown — DescribeTable reports 0 items for table app; counts lag by up to six hours\n",
		} {
			if !strings.Contains(r.Out, want) {
				t.Fatalf("EXPLAIN lacks %q:\n%s", want, r.Out)
			}
		}
		var asked []planner.ScanEstimate
		var mu sync.Mutex
		run(t, db, func(cfg *session.Config) {
			cfg.ConfirmScan = func(_ context.Context, est planner.ScanEstimate) bool {
				mu.Lock()
				asked = append(asked, est)
				mu.Unlock()
				return false
			}
		}, "SELECT * FROM app")
		if len(asked) != 1 || asked[0].Unknown != "0 items" || asked[0].UnknownReason() != "DescribeTable reports 0 items; counts lag by up to six hours" {
			t.Fatalf("the Scan question got %+v; want the cost marked unknown", asked)
		}
	})

	t.Run("EXPLAIN ANALYZE shows the actual beside unknown", func(t *testing.T) {
		r := mustRun(t, db, allowScan, "EXPLAIN ANALYZE SELECT * FROM app")
		actual := regexp.MustCompile(fmt.Sprintf(`actual: %d rows, [^;]*; \d+ requests, \d+ pages, %d items read`, fixtures.AppItems, fixtures.AppItems))
		if !strings.Contains(r.Out, "estimate: unknown — ") || !strings.Contains(r.Out, "estimated total: unknown — ") || !actual.MatchString(r.Out) {
			t.Fatalf("EXPLAIN ANALYZE:\n%s", r.Out)
		}
	})

	t.Run("once DynamoDB refreshes the counts the estimate returns", func(t *testing.T) {
		refreshed := freshDB(t)
		refreshed.RefreshCounts()
		sp := spy(refreshed)
		r := run(t, sp, withBudget(1), "SELECT * FROM app")
		assertRefused(t, r, sp)
		if !strings.Contains(r.Error.Error(), "estimated to consume") {
			t.Fatalf("with counts, the refusal gives the estimate: %v", r.Error)
		}
		mustRun(t, refreshed, withBudget(1000), "SELECT * FROM app")
	})
}
