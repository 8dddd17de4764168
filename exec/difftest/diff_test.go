package difftest

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// Environment knobs (see doc.go).
const (
	envSeed    = "DDBSQL_DIFFTEST_SEED"    // a number, or "random"
	envQueries = "DDBSQL_DIFFTEST_QUERIES" // how many queries (default defaultQueries)
	envQuery   = "DDBSQL_DIFFTEST_QUERY"   // run only this query number (replay)
)

const (
	defaultSeed    = 20260601
	defaultQueries = 1000
	rowsP, rowsQ   = 300, 60
	workers        = 4
)

func envInt(t *testing.T, name string, def uint64) uint64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	if name == envSeed && s == "random" {
		return rand.Uint64() % 1_000_000_000
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

// harness holds one loaded dataset and the two engines.
type harness struct {
	be    backend
	seed  uint64
	ds    *dataset
	table string
	db    *sql.DB
	dbMu  sync.Mutex
}

func newHarness(t *testing.T, seed uint64) *harness {
	t.Helper()
	ds := genDataset(seed, rowsP, rowsQ)
	h := &harness{be: newBackend(t), seed: seed, ds: ds, db: openLite(t, ds)}
	h.table = loadDynamo(t, h.be, ds)
	return h
}

// queryGen returns query number n's generator: each query has its own
// stream, so one query replays alone (DDBSQL_DIFFTEST_QUERY).
func (h *harness) queryGen(n uint64) *gen {
	return &gen{r: rand.New(rand.NewPCG(h.seed, n)), ds: h.ds}
}

// outcome is the comparison of one query on both engines.
type outcome struct {
	ddbSQL, liteSQL string
	ddb, lite       [][]norm
	ddbErr, liteErr error
	diff            string // "" when they agree
	// refused names the error code with which ddbsql rightly declined
	// the statement as written: scan_not_allowed for a WHERE without a
	// key path (then re-run with AllowScan), sparse_index_hint for a
	// hint that could change the result (nothing to compare).
	refused diag.Code
}

func (h *harness) check(ctx context.Context, r *ddbRunner, q *query) outcome {
	o := outcome{ddbSQL: q.render(false, h.table), liteSQL: q.render(true, h.table)}
	if q.subset() {
		// LIMIT without a total order: any rows may come back, so SQLite
		// returns all of them and ddbsql's must be among those.
		all := q.copy()
		all.limit, all.offset = -1, -1
		o.liteSQL = all.render(true, h.table)
	}
	kinds := q.kinds()
	if q.star {
		kinds = starKinds()
	}
	r.plan(func(o *planner.Options) { o.Segments, o.Consistent = q.segments, q.consistent })
	r.s.SetConcurrency(q.concurrency)
	defer func() {
		r.plan(func(o *planner.Options) { o.Segments, o.Consistent = 0, false })
		r.s.SetConcurrency(0)
	}()
	raw, err := r.run(ctx, o.ddbSQL, q.scan)
	if q.consistent && hasCode(err, diag.CodeConsistentIndex) {
		// --consistent cannot read a GSI: refused, rightly; read without.
		o.refused = diag.CodeConsistentIndex
		r.plan(func(o *planner.Options) { o.Consistent = false })
		raw, err = r.run(ctx, o.ddbSQL, q.scan)
	}
	if (q.mix || q.hint != "") && !q.scan && hasCode(err, diag.CodeScanNotAllowed) {
		// A hint may leave only a Scan of the index.
		o.refused = diag.CodeScanNotAllowed
		raw, err = r.run(ctx, o.ddbSQL, true)
	}
	if q.hint != "" && !q.hintHonoured && hasCode(err, diag.CodeSparseIndexHint) {
		o.refused = diag.CodeSparseIndexHint
		return o
	}
	keys := r.keys
	if err == nil && q.star {
		raw, err = h.starRows(raw, keys, q.index != "")
	}
	if err == nil {
		o.ddb, err = normRows(raw, kinds, normDDB)
	}
	o.ddbErr = err
	h.dbMu.Lock()
	lraw, err := runLite(ctx, h.db, o.liteSQL)
	h.dbMu.Unlock()
	if err == nil {
		o.lite, err = normRows(lraw, kinds, normLite)
	}
	o.liteErr = err
	switch {
	case o.ddbErr != nil || o.liteErr != nil:
		o.diff = fmt.Sprintf("errors: ddbsql: %v; SQLite: %v", o.ddbErr, o.liteErr)
	case q.subset():
		o.diff = compareSubset(o.ddb, o.lite, q.limit, q.offset)
	default:
		o.diff = compareRows(o.ddb, o.lite, q.ordered())
	}
	if o.diff == "" && !q.star {
		o.diff = checkHeaders(keys, q.headers())
	}
	return o
}

// hasCode reports whether err is a planner error with this code.
func hasCode(err error, code diag.Code) bool {
	var pe *diag.Error
	return errors.As(err, &pe) && pe.Phase == diag.Plan && pe.Code == code
}

// starRows checks that each SELECT * object holds exactly its item's
// attributes (keys first, the rest by name; any order for an index read,
// whose keys come first) and lays them out as SQLite's columns.
func (h *harness) starRows(raw [][]any, keys [][]string, index bool) ([][]any, error) {
	out := make([][]any, len(raw))
	for i, vals := range raw {
		row := starRow(keys[i], vals)
		id, ok := row[0].(json.Number)
		n, err := id.Int64()
		if !ok || err != nil || n < 1 || int(n) > len(h.ds.rows) {
			return nil, fmt.Errorf("SELECT * row %d: id %v is no item's", i, row[0])
		}
		want, got := h.ds.starAttributes(n), keys[i]
		if index {
			want, got = slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(got))
		}
		if !slices.Equal(got, want) {
			return nil, fmt.Errorf("SELECT * row %d (id %d) has the attributes %q, want %q", i, n, keys[i], want)
		}
		out[i] = row
	}
	return out, nil
}

// shrink greedily simplifies a failing query while it keeps failing.
func (h *harness) shrink(ctx context.Context, r *ddbRunner, q *query, budget int) (*query, outcome) {
	best := h.check(ctx, r, q)
	for progress := true; progress && budget > 0; {
		progress = false
		for _, c := range q.shrinks() {
			if budget--; budget < 0 {
				break
			}
			// Keep only variants that fail the same way: a variant both
			// engines reject (say, a dropped alias) shows nothing.
			if o := h.check(ctx, r, c); o.diff != "" && (o.liteErr == nil || best.liteErr != nil) &&
				(o.ddbErr == nil) == (best.ddbErr == nil) {
				q, best, progress = c, o, true
				break
			}
		}
	}
	return q, best
}

func (h *harness) report(n uint64, q *query, o outcome) string {
	ordered := "as multisets"
	switch {
	case q.ordered():
		ordered = "in order"
	case q.subset():
		ordered = "as a subset of all rows SQLite returns without the LIMIT"
	}
	return fmt.Sprintf("seed %d query %d (replay: %s=%d %s=%d): %s\n"+
		"ddbsql: %s\nSQLite: %s\ncompared %s\nddbsql rows (%d):\n%sSQLite rows (%d):\n%s",
		h.seed, n, envSeed, h.seed, envQuery, n, o.diff, o.ddbSQL, o.liteSQL, ordered,
		len(o.ddb), formatRows(o.ddb, 20), len(o.lite), formatRows(o.lite, 20))
}

// TestDifferential runs generated queries on ddbsql (dynalite) and SQLite
// over the same generated rows and compares the results.
func TestDifferential(t *testing.T) {
	seed := envInt(t, envSeed, defaultSeed)
	nQueries := envInt(t, envQueries, defaultQueries)
	only, replay := uint64(0), os.Getenv(envQuery) != ""
	if replay {
		only = envInt(t, envQuery, 0)
	}
	ctx := context.Background()
	h := newHarness(t, seed)
	t.Logf("seed %d (%s), %d queries, on %s (%s)", seed, envSeed, nQueries, h.be.name, envBackend)

	type result struct {
		n      uint64
		q      *query
		o      outcome
		known  string
		labels []string // how the statement was planned and run
	}
	jobs := make(chan uint64)
	results := make(chan result)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		r := newDDBOn(t, h.be.client) // one session per worker, made on the test goroutine
		go func() {
			defer wg.Done()
			for n := range jobs {
				q := h.queryGen(n).genQuery()
				o := h.check(ctx, r, q)
				res := result{n: n, q: q, o: o, labels: outcomeLabels(q, o)}
				if q.keyExpr != nil {
					res.labels = append(res.labels, disjunctionPlan(r.explain(ctx, o.ddbSQL, q.scan)))
				}
				if o.diff != "" {
					res.known = h.knownDifference(ctx, r, q, o)
				}
				results <- res
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
	var failures, known []result
	ran, rows := 0, 0
	for res := range results {
		ran++
		rows += len(res.o.lite)
		seen := map[string]bool{}
		for _, l := range append(res.q.labels(), res.labels...) {
			if !seen[l] {
				cov[l]++
				seen[l] = true
			}
		}
		switch {
		case res.o.diff == "":
		case res.known != "":
			known = append(known, res)
		default:
			failures = append(failures, res)
		}
	}
	sort.Slice(failures, func(a, b int) bool { return failures[a].n < failures[b].n })
	r := newDDBOn(t, h.be.client)
	for i, f := range failures {
		if i == 5 {
			t.Errorf("… and %d more failing queries", len(failures)-5)
			break
		}
		q, o := h.shrink(ctx, r, f.q, 300)
		msg := h.report(f.n, f.q, f.o)
		if q != f.q {
			msg += "\nshrunk to:\n" + h.report(f.n, q, o)
		}
		t.Error(msg)
	}
	byBug := map[string][]result{}
	for _, k := range known {
		byBug[k.known] = append(byBug[k.known], k)
	}
	for _, b := range knownBugs {
		if rs := byBug[b.name]; len(rs) > 0 {
			sort.Slice(rs, func(a, b int) bool { return rs[a].n < rs[b].n })
			t.Logf("known difference %q: %d queries, e.g. seed %d query %d: %s", b.name, len(rs), h.seed, rs[0].n, rs[0].o.ddbSQL)
		}
	}
	t.Logf("%d queries (%d SQLite rows in all), %d agreed, %d known differences, %d failures", ran, rows, ran-len(failures)-len(known), len(known), len(failures))
	if !replay {
		checkCoverage(t, cov)
	}
}

// outcomeLabels say how ddbsql answered a statement that it may decline.
func outcomeLabels(q *query, o outcome) []string {
	var ls []string
	switch {
	case q.mix && o.refused == diag.CodeScanNotAllowed:
		ls = append(ls, "WHERE mixed: refused without --allow-scan")
	case q.mix && o.ddbErr == nil:
		ls = append(ls, "WHERE mixed: read by key without --allow-scan")
	}
	switch {
	case q.hint != "" && o.refused == diag.CodeSparseIndexHint:
		ls = append(ls, "hint: refused (sparse index)")
	case q.hint != "" && o.refused == diag.CodeScanNotAllowed:
		ls = append(ls, "hint: needs a Scan of the index")
	case q.hint != "" && o.ddbErr == nil:
		ls = append(ls, "hint: honoured")
	}
	return ls
}

// disjunctionPlan names how EXPLAIN says a disjunctive key condition is read.
func disjunctionPlan(explain string) string {
	switch {
	case explain == "":
		return "plan: disjunction not planned"
	case strings.Contains(explain, "Union (client)"):
		return "plan: Union of keyed reads"
	case strings.Contains(explain, "reads the whole table"):
		return "plan: disjunction read by a Scan"
	case strings.Contains(explain, "GetItem "):
		return "plan: disjunction as one GetItem or BatchGetItem"
	}
	return "plan: disjunction as one Query"
}

// checkCoverage logs how often each construct was generated and fails when
// one the suite promises never appeared (a generator regression).
func checkCoverage(t *testing.T, cov map[string]int) {
	t.Helper()
	names := make([]string, 0, len(cov))
	for k := range cov {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "  %5d  %s\n", cov[k], k)
	}
	t.Logf("coverage (queries using each construct):\n%s", b.String())
	for _, want := range requiredConstructs {
		if cov[want] == 0 {
			t.Errorf("coverage: no generated query used %q", want)
		}
	}
}

var requiredConstructs = []string{
	"query: plain", "query: DISTINCT", "query: aggregate without GROUP BY", "query: GROUP BY",
	"access: Scan", "access: Query", "access: Query + sort key", "access: Query + id =", "access: Query pk IN",
	"access: key disjunction", "access: key disjunction of full keys", "access: key disjunction, factored",
	"access: key disjunction with an unkeyed branch (Scan)",
	"plan: Union of keyed reads", "plan: disjunction as one GetItem or BatchGetItem", "plan: disjunction as one Query",
	"plan: disjunction read by a Scan",
	"WHERE", "GROUP BY expression", "GROUP BY alias", "GROUP BY ordinal", "GROUP BY two keys", "HAVING",
	"ORDER BY expression", "ORDER BY alias", "ORDER BY ordinal", "ORDER BY expression not selected", "ORDER BY DESC",
	"LIMIT", "LIMIT 0", "OFFSET", "LIMIT m, n",
	"expr: AND", "expr: OR", "expr: NOT", "expr: IN", "expr: NOT IN", "expr: BETWEEN", "expr: NOT BETWEEN",
	"expr: LIKE", "expr: NOT LIKE", "expr: IS NULL", "expr: IS NOT NULL", "expr: NULL literal",
	"expr: comparison =", "expr: comparison <>", "expr: comparison !=", "expr: comparison <", "expr: comparison <=",
	"expr: comparison >", "expr: comparison >=", "expr: BOOL =", "expr: integer as predicate",
	"expr: +", "expr: -", "expr: *", "expr: %", "expr: DIV", "expr: /", "expr: unary -", "expr: ABS",
	"expr: CASE WHEN", "expr: CASE x WHEN", "expr: COALESCE", "expr: IFNULL", "expr: NULLIF",
	"expr: LOWER", "expr: UPPER", "expr: SUBSTRING", "expr: CONCAT", "expr: CHAR_LENGTH", "expr: LENGTH", "expr: size",
	"expr: begins_with", "expr: contains", "expr: document path",
	"expr: COUNT(*)", "expr: COUNT", "expr: COUNT(DISTINCT)", "expr: SUM", "expr: MIN", "expr: MAX", "expr: AVG",
	"expr: HAVING AVG", "expr: HAVING BETWEEN", "expr: HAVING key comparison", "expr: HAVING alias",
	"HAVING without GROUP BY", "access: empty partition", "OFFSET past the end", "header: duplicate names",
	"names: bare", `names: "double quoted"`, "names: `backticked`", "names: qualified by the alias",
	"names: DynamoDB reserved word", "names: needing quotes (my-attr)", "names: needing quotes (a.b)",
	"names: needing quotes (#h)", "names: needing quotes (x y)", "expr: IN [ … ]", "expr: IN with duplicates",
	"FROM: alias", "SELECT *", "SELECT alias.*",
	"access: GSI key condition", "access: LSI sort-key condition", "access: key disjunction across table and GSI",
	"access: index hint", "hint: honoured", "hint: refused (sparse index)", "hint: USE INDEX", "hint: FORCE INDEX",
	"access: index read directly (Scan)", "access: index read directly (Query)",
	"FROM: t.index (" + gsiName + ")", "FROM: t.index (" + lsiName + ")",
	"WHERE: key and other conditions nested freely", "WHERE mixed: refused without --allow-scan",
	"WHERE mixed: read by key without --allow-scan",
	"expr: sort key BETWEEN", "expr: sort key begins_with", "expr: sort key LIKE prefix",
	"keywords: UPPER", "keywords: lower", "keywords: Title", "layout: clauses on lines of their own",
	"expr: TRUE or FALSE as a condition", "expr: NULL as a condition",
	"options: parallel Scan segments", "options: --concurrency 1", "options: --consistent", "expr: ||",
	"access: more than 100 keys", "names: list index", "expr: OR chain",
}
