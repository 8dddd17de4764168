package session_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// setopBackends runs f on the app fixture in dynalite and in memdb.
func setopBackends(t *testing.T, f func(t *testing.T, client dynamo.Client, app string)) {
	t.Run("dynalite", func(t *testing.T) {
		client, app := dynaliteApp(t)
		f(t, client, app)
	})
	t.Run("memdb", func(t *testing.T) { f(t, memClient(t), "app") })
}

// multisetRows are a result's CSV lines, sorted (a multiset).
func multisetRows(r result) []string {
	rows := slices.Clone(r.rows())
	slices.Sort(rows)
	return rows
}

// WITH queries are read once however often they are referenced; one
// nobody references sends no request.
func TestCTEReadsOnce(t *testing.T) {
	setopBackends(t, func(t *testing.T, client dynamo.Client, app string) {
		member := fmt.Sprintf("SELECT SK, status FROM `%s` WHERE PK = 'WS#acme' AND begins_with(SK, 'DOC#')", app)
		alone := mustRun(t, client, nil, member)
		sql := fmt.Sprintf("WITH unused AS (SELECT * FROM `%s` WHERE PK = 'WS#big'), d AS (%s) "+
			"SELECT a.SK FROM d a JOIN d b ON a.SK = b.SK WHERE a.status = 'draft' UNION ALL SELECT SK FROM d", app, member)
		r := mustRun(t, client, nil, sql)
		if r.Stats.Requests != alone.Stats.Requests || r.Stats.ItemsRead != alone.Stats.ItemsRead || r.Stats.RCU != alone.Stats.RCU {
			t.Errorf("three references read %d items in %d requests (%v RCU); the query alone reads %d in %d (%v RCU)",
				r.Stats.ItemsRead, r.Stats.Requests, r.Stats.RCU, alone.Stats.ItemsRead, alone.Stats.Requests, alone.Stats.RCU)
		}
		drafts := 0
		for _, row := range alone.rows() {
			if strings.HasSuffix(row, ",draft") {
				drafts++
			}
		}
		if want := len(alone.rows()) + drafts; len(r.rows()) != want || drafts == 0 {
			t.Errorf("got %d rows, want %d (every document, and the %d drafts again)", len(r.rows()), want, drafts)
		}
	})
}

// Set operations give the rows set algebra gives on the members' rows.
func TestSetOperationsOnBackends(t *testing.T) {
	setopBackends(t, func(t *testing.T, client dynamo.Client, app string) {
		a := fmt.Sprintf("SELECT owner, status FROM `%s` WHERE PK = 'WS#acme' AND begins_with(SK, 'DOC#')", app)
		b := fmt.Sprintf("SELECT owner, status FROM `%s` WHERE PK = 'WS#initech' AND begins_with(SK, 'DOC#')", app)
		ra, rb := mustRun(t, client, nil, a).rows(), mustRun(t, client, nil, b).rows()
		count := func(rows []string) map[string]int {
			m := map[string]int{}
			for _, r := range rows {
				m[r]++
			}
			return m
		}
		ca, cb := count(ra), count(rb)
		want := map[string][]string{}
		for k, n := range ca {
			want["UNION ALL"] = append(want["UNION ALL"], slices.Repeat([]string{k}, n)...)
			want["UNION"] = append(want["UNION"], k)
			if cb[k] > 0 {
				want["INTERSECT"] = append(want["INTERSECT"], k)
			} else {
				want["EXCEPT"] = append(want["EXCEPT"], k)
			}
			want["INTERSECT ALL"] = append(want["INTERSECT ALL"], slices.Repeat([]string{k}, min(n, cb[k]))...)
			want["EXCEPT ALL"] = append(want["EXCEPT ALL"], slices.Repeat([]string{k}, max(0, n-cb[k]))...)
		}
		for k, n := range cb {
			want["UNION ALL"] = append(want["UNION ALL"], slices.Repeat([]string{k}, n)...)
			if ca[k] == 0 {
				want["UNION"] = append(want["UNION"], k)
			}
		}
		for op, rows := range want {
			slices.Sort(rows)
			r := mustRun(t, client, nil, a+" "+op+" "+b)
			if got := multisetRows(r); !slices.Equal(got, rows) {
				t.Errorf("%s: got %v, want %v", op, got, rows)
			}
			if !strings.HasPrefix(r.Out, "owner,status\n") {
				t.Errorf("%s: header %q, want the first member's names", op, strings.SplitN(r.Out, "\n", 2)[0])
			}
		}
		// The whole compound is ordered and limited.
		r := mustRun(t, client, nil, a+" UNION "+b+" ORDER BY 2 DESC, owner LIMIT 3 OFFSET 1")
		all := mustRun(t, client, nil, a+" UNION "+b+" ORDER BY status DESC, 1").rows()
		if got := r.rows(); !slices.Equal(got, all[1:4]) {
			t.Errorf("ORDER BY … LIMIT 3 OFFSET 1: got %v, want %v", got, all[1:4])
		}
	})
}

// A derived table joins by key: its rows drive BatchGetItems of the table.
func TestDerivedTableDrivesLookup(t *testing.T) {
	setopBackends(t, func(t *testing.T, client dynamo.Client, app string) {
		sql := fmt.Sprintf("SELECT d.n, w.name FROM (SELECT PK, COUNT(*) AS n FROM `%s` WHERE PK IN ('WS#acme', 'WS#globex') AND begins_with(SK, 'DOC#') GROUP BY PK) d "+
			"JOIN `%s` w ON w.PK = d.PK AND w.SK = 'META' ORDER BY d.n", app, app)
		r := mustRun(t, client, nil, sql)
		if got, want := r.rows(), []string{"8,Globex", "12,Acme Corp"}; !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
		if r.Stats.ByOperation["Scan"] != 0 {
			t.Errorf("read with a Scan: %v", r.Stats.ByOperation)
		}
	})
}

// Each member follows the Scan rule, --allow-scan covers all of them, and
// --max-rcu weighs the estimate of every member.
func TestSetOpCostControls(t *testing.T) {
	client := memClient(t)
	keyed := "SELECT SK FROM app WHERE PK = 'WS#acme'"
	scan := "SELECT SK FROM app WHERE status = 'review'"
	r := run(t, client, nil, keyed+" UNION "+scan)
	var pe *diag.Error
	if !errors.As(r.Error, &pe) || pe.Code != diag.CodeScanNotAllowed || !strings.Contains(pe.Msg, "table app") {
		t.Fatalf("got %v, want scan_not_allowed naming the table", r.Error)
	}
	if r.Stats != nil && r.Stats.Requests > 0 {
		t.Errorf("%d requests were sent before the refusal", r.Stats.Requests)
	}
	allow := func(c *session.Config) { c.Plan.AllowScan = true }
	if r := mustRun(t, client, allow, keyed+" UNION "+scan); r.Stats.ByOperation["Scan"] == 0 {
		t.Errorf("--allow-scan: no Scan in %v", r.Stats.ByOperation)
	}
	one := explainTotal(t, client, allow, scan)
	both := explainTotal(t, client, allow, scan+" UNION ALL "+scan)
	if both.RCU != 2*one.RCU || both.Requests != 2*one.Requests {
		t.Errorf("the estimate of two members is %+v, of one %+v: want the sum", both, one)
	}
	budget := func(c *session.Config) { c.Plan.AllowScan = true; c.MaxRCU = one.RCU * 1.5 }
	r = run(t, client, budget, scan+" UNION ALL "+scan)
	if !errors.As(r.Error, &pe) || pe.Code != diag.CodeBudget {
		t.Errorf("--max-rcu between one member's estimate and both: got %v, want a budget error", r.Error)
	}
}

// EXPLAIN ANALYZE runs the compound and shows each member's reads.
func TestExplainAnalyzeCompound(t *testing.T) {
	client := memClient(t)
	r := run(t, client, nil, "EXPLAIN ANALYZE WITH d AS (SELECT SK FROM app WHERE PK = 'WS#acme') SELECT SK FROM d INTERSECT SELECT SK FROM d")
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	for _, want := range []string{"With (client)", "CTE d (client): evaluated once", "INTERSECT (client)", "CTE scan d", "actual: ", "Query app"} {
		if !strings.Contains(r.Out, want) {
			t.Errorf("EXPLAIN ANALYZE lacks %q:\n%s", want, r.Out)
		}
	}
	if strings.Count(r.Out, "Query app") != 1 {
		t.Errorf("the WITH query's read shows %d times, want once:\n%s", strings.Count(r.Out, "Query app"), r.Out)
	}
}

// SELECT * over a WITH query that is a SELECT * lists the table's keys
// first, as SELECT * of the table does; over known columns, those columns.
func TestStarOverNamedQueries(t *testing.T) {
	client := memClient(t)
	r := mustRun(t, client, nil, "WITH p AS (SELECT * FROM products WHERE sku IN ('SKU-0001', 'SKU-0002')) SELECT * FROM p")
	if !strings.HasPrefix(r.Out, "sku,") || len(r.rows()) != 2 {
		t.Errorf("got %q, want the key sku first and 2 rows", r.Out)
	}
	r = mustRun(t, client, nil, "SELECT * FROM (SELECT price, sku AS id FROM products WHERE sku = 'SKU-0003') AS d")
	if !strings.HasPrefix(r.Out, "price,id\n") || len(r.rows()) != 1 {
		t.Errorf("got %q, want the columns price, id", r.Out)
	}
}
