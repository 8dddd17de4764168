package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

const (
	envSubqueryQueries     = "DDBSQL_DIFFTEST_SUBQUERY_QUERIES" // how many (default defaultSubqueryQueries)
	envSubqueryQuery       = "DDBSQL_DIFFTEST_SUBQUERY_QUERY"   // run only this one (replay)
	defaultSubqueryQueries = 300
)

// subqueryOutcome is one statement on both engines.
type subqueryOutcome struct {
	ddbSQL, liteSQL string
	ddb, lite       [][]norm
	scan            bool // ddbsql refused it without AllowScan and ran it with
	diff            string
	labels          []string
}

func (h *joinHarness) checkSubquery(ctx context.Context, r *ddbRunner, q squery) subqueryOutcome {
	o := subqueryOutcome{ddbSQL: q.render(h.jd, false), liteSQL: q.render(h.jd, true), labels: q.labels}
	kinds := make([]outKind, q.cols)
	for i := range kinds {
		kinds[i] = kMixed
	}
	raw, err := r.run(ctx, o.ddbSQL, false)
	if hasCode(err, diag.CodeScanNotAllowed) {
		o.scan = true
		raw, err = r.run(ctx, o.ddbSQL, true)
	}
	if err == nil {
		o.ddb, err = normRows(raw, kinds, jnormDDB)
	}
	h.dbMu.Lock()
	lraw, lerr := runLite(ctx, h.db, o.liteSQL)
	h.dbMu.Unlock()
	if lerr == nil {
		o.lite, lerr = normRows(lraw, kinds, jnormLite)
	}
	if err != nil || lerr != nil {
		o.diff = fmt.Sprintf("errors: ddbsql: %v; SQLite: %v", err, lerr)
		return o
	}
	o.diff = compareRows(o.ddb, o.lite, false)
	o.labels = append(o.labels, subqueryPlanLabels(r.explain(ctx, o.ddbSQL, o.scan))...)
	if o.scan {
		o.labels = append(o.labels, "needs --allow-scan")
	}
	o.labels = append(o.labels, nullLabels(o.liteSQL, o.lite)...)
	return o
}

// subqueryPlanLabels names the strategies EXPLAIN shows, for coverage.
func subqueryPlanLabels(explain string) []string {
	var ls []string
	for _, l := range strings.Split(explain, "\n") {
		switch {
		case strings.Contains(l, "Keyed fan-out fed by subquery") && strings.Contains(l, "BatchGetItem"):
			ls = append(ls, "plan: keyed fan-out (BatchGetItem)")
		case strings.Contains(l, "Keyed fan-out fed by subquery") && strings.Contains(l, " by GSI "):
			ls = append(ls, "plan: keyed fan-out (GSI Query)")
		case strings.Contains(l, "Keyed fan-out fed by subquery"):
			ls = append(ls, "plan: keyed fan-out (Query)")
		case strings.Contains(l, "Keyed semi-join for subquery"):
			ls = append(ls, "plan: keyed semi-join")
		case strings.Contains(l, "client semi-join"):
			ls = append(ls, "plan: client semi-join (decorrelated)")
		case strings.Contains(l, "decorrelated into a grouped join"):
			ls = append(ls, "plan: keyed grouped join (decorrelated aggregate)")
		case strings.Contains(l, "grouped join"):
			ls = append(ls, "plan: grouped join (decorrelated aggregate)")
		case strings.HasPrefix(strings.TrimSpace(l), "Subqueries (client)"):
			ls = append(ls, "plan: subqueries read before the rows")
		}
	}
	return ls
}

// nullLabels notes statements whose NOT IN met a NULL on either side, so
// coverage shows SQL's NULL semantics were exercised.
func nullLabels(sql string, rows [][]norm) []string {
	if !strings.Contains(sql, "NOT IN") {
		return nil
	}
	return []string{"NOT IN statement (NULLs on both sides in the data)"}
}

// TestSubqueryDifferential runs generated statements with scalar, IN, NOT
// IN, EXISTS and NOT EXISTS subqueries (correlated and not, keyed fan-outs)
// over the join dataset on ddbsql and SQLite and compares the rows as
// multisets (doc.go, "Subqueries").
func TestSubqueryDifferential(t *testing.T) {
	seed := envInt(t, envSeed, defaultSeed)
	nQueries := envInt(t, envSubqueryQueries, defaultSubqueryQueries)
	only, replay := uint64(0), os.Getenv(envSubqueryQuery) != ""
	if replay {
		only = envInt(t, envSubqueryQuery, 0)
	}
	ctx := context.Background()
	h := newJoinHarness(t, seed)
	t.Logf("seed %d (%s), %d subquery statements, on %s (%s)", seed, envSeed, nQueries, h.be.name, envBackend)

	type result struct {
		n uint64
		o subqueryOutcome
	}
	jobs := make(chan uint64)
	results := make(chan result)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		r := newDDBOn(t, h.be.client)
		go func() {
			defer wg.Done()
			for n := range jobs {
				g := &sgen{r: rand.New(rand.NewPCG(h.seed, n|2<<40)), jd: h.jd}
				results <- result{n: n, o: h.checkSubquery(ctx, r, g.genSubquery())}
			}
		}()
	}
	go func() {
		for n := range nQueries {
			if !replay || n == only {
				jobs <- n
			}
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	cov := map[string]int{}
	var failures []result
	ran, rows := 0, 0
	for res := range results {
		ran++
		rows += len(res.o.lite)
		seen := map[string]bool{}
		for _, l := range res.o.labels {
			if !seen[l] {
				cov[l]++
				seen[l] = true
			}
		}
		if res.o.diff != "" {
			failures = append(failures, res)
		}
	}
	sort.Slice(failures, func(a, b int) bool { return failures[a].n < failures[b].n })
	for i, f := range failures {
		if i == 5 {
			t.Errorf("… and %d more failing subquery statements", len(failures)-5)
			break
		}
		t.Errorf("seed %d subquery statement %d (replay: %s=%d %s=%d): %s\nddbsql (AllowScan %v): %s\nSQLite: %s\nddbsql rows (%d):\n%sSQLite rows (%d):\n%s",
			h.seed, f.n, envSeed, h.seed, envSubqueryQuery, f.n, f.o.diff, f.o.scan, f.o.ddbSQL, f.o.liteSQL,
			len(f.o.ddb), formatRows(f.o.ddb, 20), len(f.o.lite), formatRows(f.o.lite, 20))
	}
	t.Logf("%d subquery statements (%d SQLite rows in all), %d agreed, %d failures", ran, rows, ran-len(failures), len(failures))
	if replay {
		return
	}
	names := make([]string, 0, len(cov))
	for k := range cov {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "  %5d  %s\n", cov[k], k)
	}
	t.Logf("coverage (statements using each construct):\n%s", b.String())
	if ran < 150 {
		t.Errorf("only %d subquery statements ran; at least 150 are needed", ran)
	}
	for _, want := range requiredSubqueryConstructs {
		if cov[want] == 0 {
			t.Errorf("coverage: no generated subquery statement used %q", want)
		}
	}
}

var requiredSubqueryConstructs = []string{
	"IN (SELECT …), uncorrelated", "NOT IN (SELECT …)", "EXISTS, uncorrelated", "scalar aggregate, uncorrelated",
	"scalar of one item, uncorrelated", "EXISTS, correlated", "NOT EXISTS, correlated", "IN (SELECT …), correlated",
	"NOT IN (SELECT …), correlated", "scalar aggregate, correlated", "EXISTS, correlated on two columns",
	"inside OR", "inside NOT", "two subqueries", "nested subquery", "correlated on an attribute that is no key (a Scan)", "scalar subquery in HAVING", "aggregate over a fan-out", "subquery in a join's WHERE", "scalar in the select list", "predicate in the select list (CASE)",
	"fan-out: BatchGetItem by table key", "fan-out: Query by partition key", "fan-out: GSI Query and fetch",
	"fan-out: BatchGetItem by numeric key", "fan-out with another condition", "fan-out: key = (SELECT …)",
	"plan: keyed fan-out (BatchGetItem)", "plan: keyed fan-out (Query)", "plan: keyed fan-out (GSI Query)",
	"plan: client semi-join (decorrelated)", "plan: keyed semi-join", "plan: grouped join (decorrelated aggregate)", "plan: keyed grouped join (decorrelated aggregate)", "plan: subqueries read before the rows",
	"needs --allow-scan",
}
