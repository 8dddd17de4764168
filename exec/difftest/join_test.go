package difftest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ddbsql/ddbsql/planner"
)

const (
	envJoinQueries     = "DDBSQL_DIFFTEST_JOIN_QUERIES" // how many join queries (default defaultJoinQueries)
	envJoinQuery       = "DDBSQL_DIFFTEST_JOIN_QUERY"   // run only this join query (replay)
	defaultJoinQueries = 400
)

// joinHarness holds the loaded join tables and both engines.
type joinHarness struct {
	be   backend
	seed uint64
	jd   *joinData
	db   *sql.DB
	dbMu sync.Mutex
}

func newJoinHarness(t *testing.T, seed uint64) *joinHarness {
	t.Helper()
	jd := genJoinData(seed)
	h := &joinHarness{be: newBackend(t), seed: seed, jd: jd, db: openJoinLite(t, jd)}
	loadJoinDynamo(t, h.be, jd)
	return h
}

// query draws join query n (its own random stream, so it replays alone).
func (h *joinHarness) query(n uint64) *jquery {
	g := &jgen{gen: gen{r: rand.New(rand.NewPCG(h.seed, n|1<<40))}, jd: h.jd}
	return g.genJoinQuery()
}

func (h *joinHarness) check(ctx context.Context, r *ddbRunner, q *jquery) outcome {
	o := outcome{ddbSQL: q.render(false), liteSQL: q.render(true)}
	if q.subset() {
		all := q.copy()
		all.limit, all.offset = -1, -1
		o.liteSQL = all.render(true)
	}
	kinds := q.kinds()
	r.s.SetConcurrency(q.concurrency)
	r.plan(func(o *planner.Options) { o.Consistent = q.consistent })
	defer r.plan(func(o *planner.Options) { o.Consistent = false })
	raw, err := r.run(ctx, o.ddbSQL, q.scan)
	if err == nil && q.starOf != nil {
		raw, err = jstarRows(raw, r.keys, q.starOf)
	}
	if err == nil {
		o.ddb, err = normRows(raw, kinds, jnormDDB)
	}
	keys := r.keys
	o.ddbErr = err
	h.dbMu.Lock()
	lraw, err := runLite(ctx, h.db, o.liteSQL)
	h.dbMu.Unlock()
	if err == nil {
		o.lite, err = normRows(lraw, kinds, jnormLite)
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
	if o.diff == "" && q.driverOrder {
		o.diff = checkSorted(o.ddb, q.order)
	}
	if o.diff == "" && q.starOf == nil {
		o.diff = checkHeaders(keys, q.headers())
	}
	return o
}

// jstarRows checks that each SELECT t.* object holds exactly the
// attributes of t's item (keys first, then by name; none for a row that a
// LEFT join extended with NULLs) and lays them out as SQLite's columns
// t.col, … (the driving table's padding is not one).
func jstarRows(raw [][]any, keys [][]string, t *jtable) ([][]any, error) {
	out := make([][]any, len(raw))
	for i, vals := range raw {
		obj := map[string]any{}
		for k, name := range keys[i] {
			obj[name] = vals[k]
		}
		row := make([]any, len(t.cols))
		for k, c := range t.cols {
			row[k] = obj[c.name]
		}
		want := t.attributes(obj)
		if !slices.Equal(keys[i], want) {
			return nil, fmt.Errorf("SELECT %s.* row %d has the attributes %q, want %q", t.alias, i, keys[i], want)
		}
		out[i] = row
	}
	return out, nil
}

// attributes are the attribute names of the item whose unique key obj
// holds, in SELECT * order; none when obj has no key (NULL-extended).
func (t *jtable) attributes(obj map[string]any) []string {
	for _, rw := range t.rows {
		match := true
		for _, u := range t.unique {
			v, ok := obj[u]
			match = match && ok && fmt.Sprint(v) == fmt.Sprint(rw[u].lite())
		}
		if !match {
			continue
		}
		var keys, rest []string
		for _, c := range t.cols {
			switch {
			case c.key:
				keys = append(keys, c.name)
			case rw[c.name].kind != cMissing:
				rest = append(rest, c.name)
			}
		}
		if t.alias == "d" {
			rest = append(rest, "pad")
		}
		sort.Strings(rest)
		return append(keys, rest...)
	}
	return nil
}

// checkSorted checks that rows are sorted by the ORDER BY items (NULLs
// first ascending, numbers before strings, numbers by value, strings byte
// by byte); "" when they are.
func checkSorted(rows [][]norm, order []ref) string {
	for i := 1; i < len(rows); i++ {
		for _, r := range order {
			c := cmpNorm(rows[i-1][r.item], rows[i][r.item])
			if r.desc {
				c = -c
			}
			if c < 0 {
				break
			}
			if c > 0 {
				return fmt.Sprintf("ddbsql rows %d and %d are not in ORDER BY order (column %d: %v then %v)", i-1, i, r.item+1, rows[i-1][r.item], rows[i][r.item])
			}
		}
	}
	return ""
}

func cmpNorm(a, b norm) int {
	rank := func(n norm) int {
		switch {
		case n.null:
			return 0
		case n.isStr:
			return 2
		}
		return 1
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	switch {
	case a.null:
		return 0
	case a.isStr:
		return strings.Compare(a.str, b.str)
	}
	return a.rat.Cmp(b.rat)
}

// planLabels names the strategies ddbsql's EXPLAIN shows, for coverage.
func planLabels(explain string) []string {
	var ls []string
	lines := strings.Split(explain, "\n")
	for k, l := range lines {
		switch {
		case strings.Contains(l, "Lookup Join") && strings.Contains(l, " by GSI "):
			ls = append(ls, "plan: lookup by GSI (Query)")
		case strings.Contains(l, "Lookup Join") && strings.Contains(l, " by table partition key "):
			next := strings.Join(lines[k+1:min(k+5, len(lines))], "\n")
			if strings.Contains(next, "BatchGetItem") {
				ls = append(ls, "plan: lookup by table key (BatchGetItem)")
			} else {
				ls = append(ls, "plan: lookup by table key (Query)")
			}
		case strings.Contains(l, "Lookup Join"):
			ls = append(ls, "plan: lookup, other")
		case strings.Contains(l, "Union (client)"):
			ls = append(ls, "plan: Union of keyed reads")
		case strings.Contains(l, "why: both sides are read by key"):
			ls = append(ls, "plan: hash join (both sides keyed)")
		case strings.Contains(l, "why: no key path"):
			ls = append(ls, "plan: hash join over a Scan")
		case strings.HasPrefix(strings.TrimSpace(l), "Sort (client)") || strings.Contains(l, "─ Sort (client)"):
			ls = append(ls, "plan: Sort")
		case strings.Contains(l, "for the full items"):
			ls = append(ls, "plan: lookup + fetch from the table")
		case strings.Contains(l, "Scan "+" ") || strings.HasSuffix(strings.TrimSpace(l), "reads the whole table (segments: 1)"):
			ls = append(ls, "plan: Scan")
		}
		if strings.Contains(l, "Lookup Join (LEFT)") || strings.Contains(l, "Hash Join (LEFT)") {
			ls = append(ls, "plan: LEFT")
		}
		if strings.Contains(l, "runs as INNER") {
			ls = append(ls, "plan: LEFT JOIN runs as INNER")
		}
		if strings.Contains(l, "drives the join:") && (strings.Contains(l, "has no key condition") || strings.Contains(l, "never drives") || strings.Contains(l, "without a key path")) {
			ls = append(ls, "plan: drives from a table written after another")
		}
	}
	return ls
}

func (h *joinHarness) shrink(ctx context.Context, r *ddbRunner, q *jquery, budget int) (*jquery, outcome) {
	best := h.check(ctx, r, q)
	for progress := true; progress && budget > 0; {
		progress = false
		for _, c := range q.shrinks() {
			if budget--; budget < 0 {
				break
			}
			if o := h.check(ctx, r, c); o.diff != "" && o.liteErr == nil && (o.ddbErr == nil) == (best.ddbErr == nil) {
				q, best, progress = c, o, true
				break
			}
		}
	}
	return q, best
}

func (h *joinHarness) report(n uint64, q *jquery, o outcome) string {
	how := "as multisets"
	switch {
	case q.ordered():
		how = "in order"
	case q.subset():
		how = "as a subset of all rows SQLite returns without the LIMIT"
	}
	scan := ""
	if q.scan {
		scan = " (AllowScan)"
	}
	return fmt.Sprintf("seed %d join query %d (replay: %s=%d %s=%d): %s\nddbsql%s: %s\nSQLite: %s\ncompared %s\nddbsql rows (%d):\n%sSQLite rows (%d):\n%s",
		h.seed, n, envSeed, h.seed, envJoinQuery, n, o.diff, scan, o.ddbSQL, o.liteSQL, how,
		len(o.ddb), formatRows(o.ddb, 20), len(o.lite), formatRows(o.lite, 20))
}

// TestJoinDifferential runs generated joins over four related tables on
// ddbsql (dynalite) and SQLite and compares the results (doc.go, "Joins").
func TestJoinDifferential(t *testing.T) {
	seed := envInt(t, envSeed, defaultSeed)
	nQueries := envInt(t, envJoinQueries, defaultJoinQueries)
	only, replay := uint64(0), os.Getenv(envJoinQuery) != ""
	if replay {
		only = envInt(t, envJoinQuery, 0)
	}
	ctx := context.Background()
	h := newJoinHarness(t, seed)
	t.Logf("seed %d (%s), %d join queries, on %s (%s)", seed, envSeed, nQueries, h.be.name, envBackend)

	type result struct {
		n      uint64
		q      *jquery
		o      outcome
		labels []string
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
				q := h.query(n)
				o := h.check(ctx, r, q)
				labels := append(q.labels, planLabels(r.explain(ctx, o.ddbSQL, q.scan))...)
				if q.driverOrder && !slices.Contains(labels, "plan: Sort") {
					labels = append(labels, "plan: ORDER BY from the driving read (no Sort)")
				}
				results <- result{n: n, q: q, o: o, labels: labels}
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
		for _, l := range res.labels {
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
	r := newDDBOn(t, h.be.client)
	for i, f := range failures {
		if i == 5 {
			t.Errorf("… and %d more failing join queries", len(failures)-5)
			break
		}
		q, o := h.shrink(ctx, r, f.q, 200)
		msg := h.report(f.n, f.q, f.o)
		if q != f.q {
			msg += "\nshrunk to:\n" + h.report(f.n, q, o)
		}
		t.Error(msg)
	}
	t.Logf("%d join queries (%d SQLite rows in all), %d agreed, %d failures", ran, rows, ran-len(failures), len(failures))
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
	t.Logf("coverage (queries using each construct):\n%s", b.String())
	for _, want := range requiredJoinConstructs {
		if cov[want] == 0 {
			t.Errorf("coverage: no generated join query used %q", want)
		}
	}
}

var requiredJoinConstructs = []string{
	"join: JOIN", "join: LEFT JOIN", "join: RIGHT JOIN", "join: RIGHT JOIN before more joins", "join: USING", "join: 2-way", "join: 3-way", "join: 4-way",
	"FROM: joined table first", "FROM: joins reordered", "both sides keyed", "both keyed: GSI query on the joined side",
	"mode: key elsewhere", "key elsewhere: in WHERE on an inner side", "key elsewhere: in WHERE on an optional side", "key elsewhere: in the optional side's ON",
	"plan: LEFT JOIN runs as INNER", "plan: drives from a table written after another",
	"path: BatchGetItem (table key)", "path: Query (item collection)", "path: GSI Query", "path: BatchGetItem (numeric key)", "path: no key path",
	"path: expression on the joined side", "path: expression on the driving side", "ON extra: a second equality",
	"plan: lookup by table key (BatchGetItem)", "plan: lookup by table key (Query)", "plan: lookup by GSI (Query)",
	"plan: lookup + fetch from the table", "plan: hash join (both sides keyed)", "plan: hash join over a Scan", "plan: Scan", "plan: LEFT",
	"mode: scan driving", "driving: pk IN", "--consistent", "driving: sort key range",
	"driving: key disjunction", "both keyed: key disjunction on the joined side", "plan: Union of keyed reads",
	"ON extra: joined side", "ON extra: other side", "ON extra: both sides", "ON extra: a table the join key does not link",
	"WHERE: key IS [NOT] NULL on the optional side", "WHERE: predicate on the optional side",
	"shape: plain", "shape: DISTINCT", "shape: aggregate without GROUP BY", "shape: GROUP BY", "GROUP BY two keys", "HAVING",
	"ORDER BY (total)", "ORDER BY the driving table only", "plan: ORDER BY from the driving read (no Sort)", "LIMIT", "OFFSET", "LIMIT without ORDER BY",
	"shape: SELECT t.*", "keywords: UPPER", "keywords: lower", "keywords: Title",
}
