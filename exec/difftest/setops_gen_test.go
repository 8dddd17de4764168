package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// Statements of several queries: set operations, WITH queries and derived
// tables over the single-table data (doc.go, "Set operations, WITH and
// derived tables"). Each statement is drawn as text in both dialects at
// once. SQLite gives every compound operator the same precedence, left to
// right, where ddbsql (standard SQL) binds INTERSECT tighter: a compound
// right operand is written for SQLite as SELECT * FROM (…), so both read
// the same tree; for ddbsql it is written with the fewest parentheses its
// precedence needs, now and then with more.

const (
	envSetopQueries     = "DDBSQL_DIFFTEST_SETOP_QUERIES" // how many statements (default defaultSetopQueries)
	envSetopQuery       = "DDBSQL_DIFFTEST_SETOP_QUERY"   // run only this statement (replay)
	defaultSetopQueries = 240
)

// setopStmt is one generated statement.
type setopStmt struct {
	ddb, lite string
	kinds     []outKind
	ordered   bool // ORDER BY fixes the order of every row
	scan      bool // a member reads without a key condition
	// mustScan: a member has no WHERE at all, so without --allow-scan
	// the statement must be refused (a generated predicate may itself be
	// a key condition).
	mustScan bool
	// quirk: a member's WHERE has a construct dynalite evaluates unlike
	// DynamoDB (known_test.go): a difference there is excused when the
	// in-process backend agrees with SQLite.
	quirk  bool
	labels []string
}

// setopGen draws statements of several queries.
type setopGen struct {
	gen
	q     *setopStmt
	table string // the table as ddbsql names it
}

func (g *setopGen) label(l string) { g.q.labels = append(g.q.labels, l) }

// setopTypes are the column types members return: exact in both engines,
// so rows compare exactly (BOOL and approximate results are left to the
// single-query tests).
var setopTypes = []typ{tInt, tStr, tDec}

// overlapColumns are low-cardinality columns, so members share rows.
var overlapColumns = map[typ][]string{tInt: {"i", "j", "m_x", "h", "date", "l_0"}, tStr: {"t", "status", "pk", "a_b"}, tDec: {"d"}}

// member draws one SELECT over the table returning columns of the given
// types, named c1, c2, … when named.
func (g *setopGen) member(types []typ, named bool) (ddb, lite string) {
	var dItems, lItems []string
	for k, t := range types {
		var e *expr
		if g.chance(0.7) {
			e = g.colRef(colByLite(pick(&g.gen, overlapColumns[t])))
		} else {
			for e = g.gen.gen(t, 1, false, false); e.approx || e.agg; e = g.gen.gen(t, 1, false, false) {
			}
			g.label("member: expression")
		}
		d, l := e.render(false), e.render(true)
		if named {
			d += " AS c" + strconv.Itoa(k+1)
			l += " AS c" + strconv.Itoa(k+1)
		}
		dItems, lItems = append(dItems, d), append(lItems, l)
	}
	var dConds, lConds []string
	scan := g.chance(0.1)
	if scan {
		g.q.scan = true
		g.label("member: Scan")
	} else {
		kc, _ := g.keyCond()
		dConds, lConds = append(dConds, kc.render(false)), append(lConds, kc.render(true))
	}
	if scan && g.chance(0.5) {
		g.q.mustScan = true
		g.label("member: Scan, refused without --allow-scan")
	} else if g.chance(0.5) {
		p := g.pred(1)
		g.q.quirk = g.q.quirk || dynaliteQuirk(p)
		dConds, lConds = append(dConds, "("+p.render(false)+")"), append(lConds, "("+p.render(true)+")")
	}
	ddb = "SELECT " + strings.Join(dItems, ", ") + " FROM " + quoteName(g.tableName(), g.drawStyle())
	lite = "SELECT " + strings.Join(lItems, ", ") + " FROM " + tableName
	if len(dConds) > 0 {
		ddb += " WHERE " + strings.Join(dConds, " AND ")
		lite += " WHERE " + strings.Join(lConds, " AND ")
	}
	return ddb, lite
}

func (g *setopGen) tableName() string { return g.table }

// dynaliteQuirk reports whether a condition holds what dynalite evaluates
// unlike DynamoDB when it is pushed into a FilterExpression: an ordering
// comparison of two string attributes (one may hold "") or size().
func dynaliteQuirk(e *expr) bool {
	found := false
	e.walk(func(x *expr) {
		switch op := strings.TrimPrefix(x.label, "comparison "); {
		case x.label == "size":
			found = true
		case op != x.label && op != "=" && op != "<>" && op != "!=" && len(x.kids) == 2 &&
			x.kids[0].t == tStr && isColumn(x.kids[0]) && isColumn(x.kids[1]):
			found = true
		}
	})
	return found
}

// setTree is a compound: a leaf member or op over two trees.
type setTree struct {
	op          string // "" for a leaf
	left, right *setTree
	ddb, lite   string
}

var setOps = []string{"UNION", "UNION ALL", "INTERSECT", "EXCEPT"}

func (g *setopGen) tree(types []typ, members int, first bool) *setTree {
	if members == 1 {
		d, l := g.member(types, first)
		return &setTree{ddb: d, lite: l}
	}
	n := 1 + g.r.IntN(members-1)
	t := &setTree{op: pick(&g.gen, setOps)}
	t.left = g.tree(types, n, first)
	t.right = g.tree(types, members-n, false)
	g.label("setop: " + t.op)
	return t
}

func setPrec(op string) int {
	if op == "INTERSECT" {
		return 2
	}
	return 1
}

// renderDDB writes the tree with the parentheses ddbsql's precedence
// needs (a compound right operand, a looser left operand), sometimes more.
func (g *setopGen) renderDDB(t *setTree) string {
	if t.op == "" {
		return t.ddb
	}
	l, r := g.renderDDB(t.left), g.renderDDB(t.right)
	if t.left.op != "" && (setPrec(t.left.op) < setPrec(t.op) || g.chance(0.2)) {
		l = "(" + l + ")"
		g.label("setop: parenthesized member")
	}
	switch {
	case t.right.op != "" && setPrec(t.right.op) > setPrec(t.op) && g.chance(0.5):
		// a UNION b INTERSECT c: precedence alone groups it.
		g.label("setop: INTERSECT binds tighter")
	case t.right.op != "":
		r = "(" + r + ")"
		g.label("setop: parenthesized member")
	case g.chance(0.1):
		r = "(" + r + ")"
	}
	return l + " " + t.op + " " + r
}

// renderLite writes the tree for SQLite, left to right.
func renderLite(t *setTree) string {
	if t.op == "" {
		return t.lite
	}
	r := renderLite(t.right)
	if t.right.op != "" {
		r = "SELECT * FROM (" + r + ")"
	}
	return renderLite(t.left) + " " + t.op + " " + r
}

func (g *setopGen) types() []typ {
	types := make([]typ, 1+g.r.IntN(3))
	for i := range types {
		types[i] = pick(&g.gen, setopTypes)
	}
	return types
}

func kindsOf(types []typ) []outKind {
	ks := make([]outKind, len(types))
	for i, t := range types {
		ks[i] = map[typ]outKind{tInt: kExact, tStr: kStr, tDec: kCents}[t]
	}
	return ks
}

// compound draws members joined by set operations, with an ORDER BY over
// every output column (by position or name) and a LIMIT now and then.
func (g *setopGen) compound() {
	types := g.types()
	named := g.chance(0.6)
	t := g.tree(types, 2+g.r.IntN(3), named)
	if t.op == "" {
		panic("compound without an operator")
	}
	ddb, lite := g.renderDDB(t), renderLite(t)
	g.q.kinds = kindsOf(types)
	if g.chance(0.6) {
		order := g.r.Perm(len(types))
		var terms []string
		for _, c := range order {
			term := strconv.Itoa(c + 1)
			if named && g.chance(0.5) {
				term = "c" + strconv.Itoa(c+1)
				g.label("compound ORDER BY: name")
			} else {
				g.label("compound ORDER BY: position")
			}
			if g.chance(0.4) {
				term += " DESC"
			}
			terms = append(terms, term)
		}
		clause := " ORDER BY " + strings.Join(terms, ", ")
		if g.chance(0.4) {
			clause += " LIMIT " + strconv.Itoa(g.r.IntN(12))
			g.label("compound LIMIT")
			if g.chance(0.5) {
				clause += " OFFSET " + strconv.Itoa(g.r.IntN(8))
				g.label("compound OFFSET")
			}
		}
		ddb, lite = ddb+clause, lite+clause
		g.q.ordered = true
	}
	g.q.ddb, g.q.lite = ddb, lite
}

// body draws the query of a WITH or derived table: a member or a small
// compound, its columns named c1, c2, … (or by a WITH column list).
func (g *setopGen) body(types []typ, named bool) (ddb, lite string) {
	if g.chance(0.3) {
		t := g.tree(types, 2, named)
		g.label("named query: compound")
		return g.renderDDB(t), renderLite(t)
	}
	return g.member(types, named)
}

// colPred draws a condition on column cN of type t of a named query.
func (g *setopGen) colPred(qual string, n int, t typ) (ddb, lite string) {
	c := qual + "c" + strconv.Itoa(n)
	switch g.r.IntN(4) {
	case 0:
		not := pick(&g.gen, []string{"", "NOT "})
		return c + " IS " + not + "NULL", c + " IS " + not + "NULL"
	case 1:
		if t == tStr {
			s := pick(&g.gen, []string{"a", "m", "P", "T", ""})
			return c + " >= '" + s + "'", c + " >= '" + s + "'"
		}
	}
	op := pick(&g.gen, []string{"<", "<=", ">", ">=", "=", "<>"})
	switch t {
	case tInt:
		n := strconv.Itoa(g.r.IntN(40) - 10)
		return c + " " + op + " " + n, c + " " + op + " " + n
	case tDec:
		cents := int64(g.r.IntN(40000) - 20000)
		return c + " " + op + " " + centsText(cents), c + " " + op + " " + strconv.FormatInt(cents, 10)
	}
	s := pick(&g.gen, []string{"draft", "P", "Q", "abc", "x"})
	return c + " " + op + " '" + s + "'", c + " " + op + " '" + s + "'"
}

func colList(types []typ, qual string) string {
	cols := make([]string, len(types))
	for i := range types {
		cols[i] = qual + "c" + strconv.Itoa(i+1)
	}
	return strings.Join(cols, ", ")
}

// with draws a WITH statement: its query read once, twice (materialized),
// joined with itself, or through a second WITH query; sometimes with a
// WITH query nobody reads.
func (g *setopGen) with() {
	types := g.types()
	list := g.chance(0.4)
	bd, bl := g.body(types, !list)
	head := "c"
	if list {
		head += "(" + colList(types, "") + ")"
		g.label("WITH: column list")
	}
	dWith, lWith := "WITH ", "WITH "
	if g.chance(0.2) {
		// Never read, so never a reason to need --allow-scan.
		scan, mustScan := g.q.scan, g.q.mustScan
		ud, ul := g.member(types, true)
		g.q.scan, g.q.mustScan = scan, mustScan
		dWith, lWith = dWith+"unused AS ("+ud+"), ", lWith+"unused AS ("+ul+"), "
		g.label("WITH: unused query")
	}
	dWith += head + " AS (" + bd + ")"
	lWith += head + " AS (" + bl + ")"
	cols := colList(types, "")
	g.q.kinds = kindsOf(types)
	var dMain, lMain string
	switch g.r.IntN(4) {
	case 0:
		k := 1 + g.r.IntN(len(types))
		pd, pl := g.colPred("", k, types[k-1])
		dMain = "SELECT " + cols + " FROM c WHERE " + pd
		lMain = "SELECT " + cols + " FROM c WHERE " + pl
		g.label("WITH: read once")
	case 1:
		k := 1 + g.r.IntN(len(types))
		p1d, p1l := g.colPred("", k, types[k-1])
		op := pick(&g.gen, setOps)
		dMain = "SELECT " + cols + " FROM c WHERE " + p1d + " " + op + " SELECT " + cols + " FROM c"
		lMain = "SELECT " + cols + " FROM c WHERE " + p1l + " " + op + " SELECT " + cols + " FROM c"
		g.label("WITH: read twice")
	case 2:
		// Counted per key: the join of a low-cardinality column with
		// itself has as many rows as the squares of its groups.
		dMain = "SELECT a.c1, COUNT(*) AS n FROM c a JOIN c b ON a.c1 = b.c1 GROUP BY a.c1"
		lMain = dMain
		g.q.kinds = []outKind{kindsOf(types)[0], kExact}
		g.label("WITH: joined with itself")
	default:
		k := 1 + g.r.IntN(len(types))
		pd, pl := g.colPred("", k, types[k-1])
		dWith += ", e AS (SELECT " + cols + " FROM c WHERE " + pd + ")"
		lWith += ", e AS (SELECT " + cols + " FROM c WHERE " + pl + ")"
		if g.chance(0.5) {
			dMain = "SELECT " + cols + " FROM e UNION ALL SELECT " + cols + " FROM c"
			g.label("WITH: read by a later WITH query and the statement")
		} else {
			dMain = "SELECT " + cols + " FROM e"
			g.label("WITH: read by a later WITH query")
		}
		lMain = dMain
	}
	g.q.ddb, g.q.lite = dWith+" "+dMain, lWith+" "+lMain
}

// derived draws a statement over a derived table: grouped, SELECT *,
// filtered, or joined to the table by its key.
func (g *setopGen) derived() {
	types := g.types()
	switch g.r.IntN(4) {
	case 0:
		dFrom, lWith, lFrom := g.derivedFrom(types, "d")
		g.q.kinds = []outKind{kindsOf(types)[0], kExact}
		g.q.ddb = "SELECT d.c1, COUNT(*) AS n FROM " + dFrom + " GROUP BY d.c1"
		g.q.lite = lWith + "SELECT d.c1, COUNT(*) AS n FROM " + lFrom + " GROUP BY d.c1"
		g.label("derived: GROUP BY")
	case 1:
		dFrom, lWith, lFrom := g.derivedFrom(types, "d")
		g.q.kinds = kindsOf(types)
		k := 1 + g.r.IntN(len(types))
		pd, pl := g.colPred("", k, types[k-1])
		g.q.ddb = "SELECT * FROM " + dFrom + " WHERE " + pd
		g.q.lite = lWith + "SELECT * FROM " + lFrom + " WHERE " + pl
		g.label("derived: SELECT *")
	case 2:
		dFrom, lWith, lFrom := g.derivedFrom(types, "x")
		g.q.kinds = kindsOf(types)
		g.q.ddb = "SELECT " + colList(types, "x.") + " FROM " + dFrom + " ORDER BY " + colList(types, "x.") + " LIMIT 7"
		g.q.lite = lWith + "SELECT " + colList(types, "x.") + " FROM " + lFrom + " ORDER BY " + colList(types, "x.") + " LIMIT 7"
		g.q.ordered = true
		g.label("derived: ORDER BY LIMIT")
	default:
		// Keys from the derived table: a lookup of the table by its key.
		kc, _ := g.keyCond()
		c := colByLite(pick(&g.gen, []string{"i", "s", "t", "d", "status", "m_x"}))
		dCol, lCol := g.ddbPath(c.path), liteName(c.lite)
		inner := func(lite bool) string {
			from := quoteName(g.tableName(), styleBacktick)
			if lite {
				from = tableName
			}
			return "SELECT pk AS k1, id AS k2 FROM " + from + " WHERE " + kc.render(lite)
		}
		g.q.kinds = []outKind{kExact, map[typ]outKind{tInt: kExact, tStr: kStr, tDec: kCents}[c.t]}
		g.q.ddb = "SELECT d.k2, u." + dCol + " FROM (" + inner(false) + ") AS d JOIN " + quoteName(g.tableName(), styleDouble) + " u ON u.pk = d.k1 AND u.id = d.k2"
		g.q.lite = "SELECT d.k2, u." + lCol + " FROM (" + inner(true) + ") AS d JOIN " + tableName + " u ON u.pk = d.k1 AND u.id = d.k2"
		g.label("derived: joined to the table by its key")
	}
}

// derivedFrom draws the FROM item of a derived table named alias, its
// columns c1, c2, … named by its query or by a column list, (SELECT …) AS
// alias(c1, c2); SQLite has no derived-table column lists, so there the
// same query is a WITH query with that list (lWith, ending in a blank).
func (g *setopGen) derivedFrom(types []typ, alias string) (dFrom, lWith, lFrom string) {
	if g.chance(0.35) {
		bd, bl := g.body(types, false)
		g.label("derived: column list")
		cols := colList(types, "")
		return "(" + bd + ") AS " + alias + "(" + cols + ")", "WITH " + alias + "(" + cols + ") AS (" + bl + ") ", alias
	}
	bd, bl := g.body(types, true)
	return "(" + bd + ") AS " + alias, "", "(" + bl + ") AS " + alias
}

// setopQuery draws statement n (its own random stream, so it replays alone).
func (h *harness) setopQuery(n uint64) *setopStmt {
	g := &setopGen{gen: gen{r: rand.New(rand.NewPCG(h.seed, n|1<<41)), ds: h.ds}, q: &setopStmt{}, table: h.table}
	switch f := g.r.Float64(); {
	case f < 0.45:
		g.compound()
	case f < 0.75:
		g.with()
	default:
		g.derived()
	}
	return g.q
}

func (h *harness) checkSetop(ctx context.Context, r *ddbRunner, q *setopStmt) outcome {
	o := outcome{ddbSQL: q.ddb, liteSQL: q.lite}
	raw, err := r.run(ctx, q.ddb, q.scan)
	if err == nil {
		o.ddb, err = normRows(raw, q.kinds, normDDB)
	}
	o.ddbErr = err
	h.dbMu.Lock()
	lraw, err := runLite(ctx, h.db, q.lite)
	h.dbMu.Unlock()
	if err == nil {
		o.lite, err = normRows(lraw, q.kinds, normLite)
	}
	o.liteErr = err
	if o.ddbErr != nil || o.liteErr != nil {
		o.diff = fmt.Sprintf("errors: ddbsql: %v; SQLite: %v", o.ddbErr, o.liteErr)
		return o
	}
	o.diff = compareRows(o.ddb, o.lite, q.ordered)
	if o.diff == "" && q.mustScan {
		// Without --allow-scan the member's Scan is refused before any read.
		if _, err := r.run(ctx, q.ddb, false); !hasCode(err, diag.CodeScanNotAllowed) {
			o.diff = fmt.Sprintf("a member needs a Scan, but without --allow-scan ddbsql answered %v", err)
		}
	}
	return o
}

// excuseDynalite drops the differences on dynalite of statements with a
// known dynalite quirk that the in-process backend, loaded with the same
// rows, answers as SQLite does; it logs them.
func excuseDynalite[R any](t *testing.T, h *harness, failures []R, of func(R) (uint64, *setopStmt, outcome)) []R {
	if h.be.name != "dynalite" || len(failures) == 0 {
		return failures
	}
	mem := backend{name: "memdb", client: memdb.New(), prefix: "quirk."}
	mh := &harness{be: mem, seed: h.seed, ds: h.ds, db: h.db, table: loadDynamo(t, mem, h.ds)}
	r := newDDBOn(t, mem.client)
	var kept []R
	for _, f := range failures {
		n, q, o := of(f)
		if q.quirk && o.ddbErr == nil && o.liteErr == nil {
			if mo := mh.checkSetop(context.Background(), r, mh.setopQuery(n)); mo.diff == "" {
				t.Logf("known dynalite difference (the in-process backend agrees with SQLite): statement %d: %s", n, o.diff)
				continue
			}
		}
		kept = append(kept, f)
	}
	return kept
}

// setopPlanLabels name what EXPLAIN shows, for coverage.
func setopPlanLabels(explain string) []string {
	var ls []string
	for label, text := range map[string]string{
		"plan: WITH query evaluated once":           "evaluated once, replayed",
		"plan: WITH query planned in place":         "planned in place, referenced once",
		"plan: derived table":                       "Derived table",
		"plan: lookup join driven by a named query": "drives the join: its rows are computed",
		"plan: hash join on a named query":          "is a query whose rows are computed",
		"plan: UNION set":                           "UNION (client): each distinct row",
		"plan: INTERSECT":                           "INTERSECT (client)",
		"plan: EXCEPT":                              "EXCEPT (client)",
	} {
		if strings.Contains(explain, text) {
			ls = append(ls, label)
		}
	}
	return ls
}

// TestSetOpsDifferential runs generated statements of several queries on
// ddbsql and SQLite over the same rows and compares the results.
func TestSetOpsDifferential(t *testing.T) {
	seed := envInt(t, envSeed, defaultSeed)
	nQueries := envInt(t, envSetopQueries, defaultSetopQueries)
	only, replay := uint64(0), os.Getenv(envSetopQuery) != ""
	if replay {
		only = envInt(t, envSetopQuery, 0)
	}
	ctx := context.Background()
	h := newHarness(t, seed)
	t.Logf("seed %d (%s), %d statements, on %s (%s)", seed, envSeed, nQueries, h.be.name, envBackend)

	type result struct {
		n      uint64
		q      *setopStmt
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
				q := h.setopQuery(n)
				o := h.checkSetop(ctx, r, q)
				labels := append(q.labels, setopPlanLabels(r.explain(ctx, q.ddb, true))...)
				results <- result{n: n, q: q, o: o, labels: labels}
			}
		}()
	}
	go func() {
		switch {
		case replay:
			jobs <- only
		default:
			for n := range nQueries {
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
	failures = excuseDynalite(t, h, failures, func(f result) (uint64, *setopStmt, outcome) { return f.n, f.q, f.o })
	for i, f := range failures {
		if i == 5 {
			t.Errorf("… and %d more failing statements", len(failures)-5)
			break
		}
		how := "as multisets"
		if f.q.ordered {
			how = "in order"
		}
		t.Errorf("seed %d statement %d (replay: %s=%d %s=%d): %s\nddbsql: %s\nSQLite: %s\ncompared %s\nddbsql rows (%d):\n%sSQLite rows (%d):\n%s",
			h.seed, f.n, envSeed, h.seed, envSetopQuery, f.n, f.o.diff, f.q.ddb, f.q.lite, how,
			len(f.o.ddb), formatRows(f.o.ddb, 20), len(f.o.lite), formatRows(f.o.lite, 20))
	}
	t.Logf("%d statements (%d SQLite rows in all), %d agreed, %d failures", ran, rows, ran-len(failures), len(failures))
	if replay {
		return
	}
	names := make([]string, 0, len(cov))
	for k := range cov {
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "  %5d  %s\n", cov[k], k)
	}
	t.Logf("coverage (statements using each construct):\n%s", b.String())
	for _, want := range requiredSetopConstructs {
		if cov[want] == 0 {
			t.Errorf("coverage: no generated statement used %q", want)
		}
	}
}

var requiredSetopConstructs = []string{
	"setop: UNION", "setop: UNION ALL", "setop: INTERSECT", "setop: EXCEPT", "setop: INTERSECT binds tighter",
	"setop: parenthesized member", "compound ORDER BY: name", "compound ORDER BY: position", "compound LIMIT", "compound OFFSET",
	"member: expression", "member: Scan", "member: Scan, refused without --allow-scan", "named query: compound",
	"WITH: column list", "WITH: unused query", "WITH: read once", "WITH: read twice", "WITH: joined with itself",
	"WITH: read by a later WITH query", "WITH: read by a later WITH query and the statement",
	"derived: GROUP BY", "derived: SELECT *", "derived: ORDER BY LIMIT", "derived: joined to the table by its key", "derived: column list",
	"plan: WITH query evaluated once", "plan: WITH query planned in place", "plan: derived table",
	"plan: lookup join driven by a named query", "plan: hash join on a named query",
	"plan: UNION set", "plan: INTERSECT", "plan: EXCEPT",
}
