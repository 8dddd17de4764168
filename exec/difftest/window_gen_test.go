package difftest

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Window functions against SQLite: TestWindowDifferential draws
// statements with ROW_NUMBER, RANK, DENSE_RANK, NTILE, LAG, LEAD,
// FIRST_VALUE, LAST_VALUE and SUM/AVG/COUNT/MIN/MAX OVER (PARTITION BY …
// ORDER BY … [ROWS|RANGE …]) over the single-table dataset, plain or over
// GROUP BY groups (aggregates inside windows), with windows in the select
// list, inside expressions and in ORDER BY. A function whose result
// depends on the order among peers (ROW_NUMBER, NTILE, LAG, LEAD,
// FIRST_VALUE, LAST_VALUE, an aggregate over a ROWS frame) always orders
// by a list ending in the unique id (or, over groups, the group key), so
// ties cannot change it; RANK, DENSE_RANK and aggregates over RANGE frames
// order by anything, RANGE frames with an offset (aggregates only) by one
// numeric key. Rows are compared in order when the statement's
// ORDER BY is total, else as multisets.

const (
	envWindowQueries     = "DDBSQL_DIFFTEST_WINDOW_QUERIES" // how many (default defaultWindowQueries)
	envWindowQuery       = "DDBSQL_DIFFTEST_WINDOW_QUERY"   // replay only this one
	defaultWindowQueries = 200
	// windowSmallLimit is the --memory-limit of the external runs: below
	// what the partition 'P' (300 items) takes, above most of its parts.
	windowSmallLimit = 48 << 10
)

// winQuery is one generated window statement in both dialects.
type winQuery struct {
	ddb, lite []string // the statement in pieces (items joined at the end)
	kinds     []outKind
	ordered   bool
	labels    []string
}

func (q *winQuery) text(lite bool) string {
	if lite {
		return strings.Join(q.lite, "")
	}
	return strings.Join(q.ddb, "")
}

// winPart is a piece of SQL in both dialects.
type winPart struct{ ddb, lite string }

func (p winPart) add(o winPart) winPart { return winPart{p.ddb + o.ddb, p.lite + o.lite} }

func sameText(s string) winPart { return winPart{s, s} }

func exprPart(e *expr) winPart { return winPart{e.render(false), e.render(true)} }

// winFuncs are the functions drawn, with whether their result depends on
// the order among peers whatever the frame.
var winFuncs = []struct {
	name      string
	sensitive bool
}{
	{"ROW_NUMBER", true}, {"RANK", false}, {"DENSE_RANK", false}, {"NTILE", true},
	{"LAG", true}, {"LEAD", true}, {"FIRST_VALUE", true}, {"LAST_VALUE", true},
	{"SUM", false}, {"AVG", false}, {"COUNT", false}, {"MIN", false}, {"MAX", false},
}

// winGen draws window statements.
type winGen struct {
	*gen
	labels []string
}

func (g *winGen) label(l string) { g.labels = append(g.labels, l) }

// valueExpr draws what a function reads: a column, now and then a small
// expression whose result SQLite computes exactly.
func (g *winGen) valueExpr(types ...typ) *expr {
	t := pick(g.gen, types)
	if g.chance(0.25) {
		for range 10 {
			e := g.gen.gen(t, 1, true, false)
			if !e.approx && !e.agg {
				g.label("window argument: expression")
				return e
			}
		}
	}
	return g.column(t, false, false)
}

// frame draws a frame: none, ROWS with any valid bounds, RANGE with
// UNBOUNDED and CURRENT ROW bounds, or (offset, when the function allows
// it) RANGE with a numeric offset, whose text rangeOffset writes once the
// ORDER BY key is drawn.
func (g *winGen) frame(allowOffset bool) (text string, rows, offset bool) {
	switch f := g.r.Float64(); {
	case f < 0.4:
		return "", false, false
	case f < 0.65:
		bounds := []string{"UNBOUNDED PRECEDING", "%d PRECEDING", "CURRENT ROW", "%d FOLLOWING", "UNBOUNDED FOLLOWING"}
		s, e := g.r.IntN(4), 1+g.r.IntN(4)
		if s > e {
			s, e = e, s
		}
		if e == 0 {
			e = 1
		}
		b := func(k int) string {
			if strings.Contains(bounds[k], "%d") {
				return fmt.Sprintf(bounds[k], g.r.IntN(4))
			}
			return bounds[k]
		}
		g.label("frame: ROWS")
		if s == 0 && e == 2 && g.chance(0.5) {
			return " ROWS UNBOUNDED PRECEDING", true, false
		}
		return " ROWS BETWEEN " + b(s) + " AND " + b(e), true, false
	case f < 0.85 && allowOffset:
		return "", false, true
	}
	g.label("frame: RANGE")
	starts := []string{"UNBOUNDED PRECEDING", "CURRENT ROW"}
	ends := []string{"CURRENT ROW", "UNBOUNDED FOLLOWING"}
	return " RANGE BETWEEN " + pick(g.gen, starts) + " AND " + pick(g.gen, ends), false, false
}

// rangeOffsetCents are the RANGE offsets drawn, in hundredths: whole and
// fractional, zero included.
var rangeOffsetCents = []int64{0, 50, 100, 150, 200, 225, 500, 1000}

// rangeOffset draws a RANGE frame with at least one n PRECEDING or n
// FOLLOWING bound over an ORDER BY key of type t. SQLite holds a tDec
// value as cents, so its offset is in cents too.
func (g *winGen) rangeOffset(t typ) winPart {
	offset := func() winPart {
		c := pick(g.gen, rangeOffsetCents)
		if t == tDec {
			return winPart{centsText(c), strconv.FormatInt(c, 10)}
		}
		return sameText(centsText(c))
	}
	if g.chance(0.2) {
		g.label("frame: RANGE n PRECEDING")
		return sameText(" RANGE ").add(offset()).add(sameText(" PRECEDING"))
	}
	// Bound kinds in partition order; at least one of s, e is an offset.
	kinds := []string{"UNBOUNDED PRECEDING", " PRECEDING", "CURRENT ROW", " FOLLOWING", "UNBOUNDED FOLLOWING"}
	var s, e int
	for {
		s, e = g.r.IntN(4), 1+g.r.IntN(4)
		if s <= e && (s == 1 || s == 3 || e == 1 || e == 3) {
			break
		}
	}
	bound := func(k int) winPart {
		if k == 1 || k == 3 {
			return offset().add(sameText(kinds[k]))
		}
		return sameText(kinds[k])
	}
	g.label("frame: RANGE offset")
	if t == tDec {
		g.label("frame: RANGE offset, decimal key")
	}
	return sameText(" RANGE BETWEEN ").add(bound(s)).add(sameText(" AND ")).add(bound(e))
}

// direction draws ASC/DESC and NULLS placement.
func (g *winGen) direction() string {
	d := pick(g.gen, []string{"", " ASC", " DESC"})
	if g.chance(0.3) {
		d += pick(g.gen, []string{" NULLS FIRST", " NULLS LAST"})
		g.label("NULLS FIRST/LAST")
	}
	return d
}

// spec draws an OVER clause. keys are what partitions and orders
// (columns of the row, or group keys and aggregates); unique ends an
// ORDER BY that must be total.
func (g *winGen) spec(sensitive bool, keys func() *expr, unique winPart, frame bool) winPart {
	var parts []winPart
	if g.chance(0.55) {
		p := sameText("PARTITION BY ")
		for k := range 1 + g.r.IntN(2) {
			if k > 0 {
				p = p.add(sameText(", "))
			}
			p = p.add(exprPart(keys()))
		}
		parts = append(parts, p)
		g.label("PARTITION BY")
	}
	var ftext winPart
	var rows, offset bool
	if frame {
		var text string
		text, rows, offset = g.frame(!sensitive)
		ftext = sameText(text)
	}
	sensitive = sensitive || rows
	if offset {
		// RANGE with an offset: exactly one numeric ORDER BY key.
		for range 20 {
			if k := keys(); k.t == tInt || k.t == tDec {
				ftext = g.rangeOffset(k.t)
				parts = append(parts, sameText("ORDER BY ").add(exprPart(k)).add(sameText(g.direction())))
				break
			}
		}
	} else if n := g.r.IntN(3); n > 0 || sensitive {
		o := sameText("ORDER BY ")
		for k := range n {
			if k > 0 {
				o = o.add(sameText(", "))
			}
			o = o.add(exprPart(keys())).add(sameText(g.direction()))
		}
		if sensitive {
			if n > 0 {
				o = o.add(sameText(", "))
			}
			o = o.add(unique).add(sameText(pick(g.gen, []string{"", " DESC"})))
		}
		parts = append(parts, o)
	}
	body := winPart{}
	for i, p := range parts {
		if i > 0 {
			body = body.add(sameText(" "))
		}
		body = body.add(p)
	}
	if ftext.ddb != "" {
		body = body.add(ftext)
	}
	return sameText(" OVER (").add(body).add(sameText(")"))
}

// call draws a window function reading arg (nil: draw a column) and
// returns it with its output kind.
func (g *winGen) call(arg func(numeric bool) *expr, keys func() *expr, unique winPart) (winPart, outKind) {
	f := winFuncs[g.r.IntN(len(winFuncs))]
	g.label("window " + f.name)
	var call winPart
	kind := kExact
	frame := false
	switch f.name {
	case "ROW_NUMBER", "RANK", "DENSE_RANK":
		call = sameText(f.name + "()")
	case "NTILE":
		call = sameText(fmt.Sprintf("NTILE(%d)", 1+g.r.IntN(6)))
	case "LAG", "LEAD":
		x := arg(false)
		kind = x.outKind()
		call = sameText(f.name + "(").add(exprPart(x))
		if g.chance(0.6) {
			call = call.add(sameText(", " + strconv.Itoa(g.r.IntN(4))))
			if g.chance(0.5) {
				var d *expr
				switch x.t {
				case tInt:
					d = intLit(-7)
				case tDec:
					d = decLit(150)
				default:
					d = strLit("none")
				}
				call = call.add(sameText(", ")).add(exprPart(d))
				g.label("LAG/LEAD default")
			}
		}
		call = call.add(sameText(")"))
	case "FIRST_VALUE", "LAST_VALUE", "MIN", "MAX":
		x := arg(false)
		kind = x.outKind()
		call = sameText(f.name + "(").add(exprPart(x)).add(sameText(")"))
		frame = true
	case "SUM", "AVG":
		x := arg(true)
		kind = x.outKind()
		if f.name == "AVG" {
			kind = kApprox
			if x.t == tDec {
				kind = kApproxCents
			}
		}
		call = sameText(f.name + "(").add(exprPart(x)).add(sameText(")"))
		frame = true
	case "COUNT":
		if g.chance(0.4) {
			call = sameText("COUNT(*)")
		} else {
			call = sameText("COUNT(").add(exprPart(arg(false))).add(sameText(")"))
		}
		frame = true
	}
	return call.add(g.spec(f.sensitive, keys, unique, frame)), kind
}

// winQuery draws statement n.
func (g *winGen) query(table string) *winQuery {
	if g.chance(0.3) {
		return g.grouped(table)
	}
	return g.plain(table)
}

func (g *winGen) where() string {
	w := " WHERE pk = 'P'"
	switch f := g.r.Float64(); {
	case f < 0.2:
		w = " WHERE pk IN ('P', 'Q')"
		g.label("two partitions")
	case f < 0.3:
		w = " WHERE pk = 'Q'"
	}
	if g.chance(0.3) {
		w += fmt.Sprintf(" AND id < %d", 20+g.r.IntN(300))
	}
	return w
}

// plain draws SELECT id, windows… FROM t WHERE … [ORDER BY …] [LIMIT …].
func (g *winGen) plain(table string) *winQuery {
	g.label("plain")
	q := &winQuery{}
	items := []winPart{sameText("id AS c0")}
	q.kinds = append(q.kinds, kExact)
	arg := func(numeric bool) *expr {
		if numeric {
			return g.valueExpr(tInt, tDec)
		}
		return g.valueExpr(tInt, tDec, tStr)
	}
	keys := func() *expr {
		return g.column(pick(g.gen, []typ{tInt, tInt, tStr, tDec, tBool}), false, false)
	}
	unique := sameText("id")
	var windows []winPart
	for range 1 + g.r.IntN(4) {
		w, kind := g.call(arg, keys, unique)
		if kind == kExact && g.chance(0.15) {
			// A window inside an expression.
			w = sameText("100 + ").add(w)
			g.label("window in an expression")
		}
		windows = append(windows, w)
		items = append(items, w.add(sameText(" AS c"+strconv.Itoa(len(items)))))
		q.kinds = append(q.kinds, kind)
	}
	order := ""
	switch f := g.r.Float64(); {
	case f < 0.6:
		order = " ORDER BY id" + pick(g.gen, []string{"", " DESC"})
		q.ordered = true
	case f < 0.75:
		// Sorting by a window (ROW_NUMBER, unique within a partition),
		// then by id.
		w := sameText("ROW_NUMBER()").add(g.spec(true, keys, unique, false))
		q.ordered = true
		g.label("window in ORDER BY")
		q.finish(table, items, sameText(g.where()), sameText(" ORDER BY ").add(w).add(sameText(" DESC, id")), g.limit())
		return q
	}
	q.finish(table, items, sameText(g.where()), sameText(order), g.limitIf(q.ordered))
	return q
}

func (g *winGen) limit() string {
	if g.chance(0.3) {
		g.label("LIMIT")
		return fmt.Sprintf(" LIMIT %d", g.r.IntN(40))
	}
	return ""
}

func (g *winGen) limitIf(ordered bool) string {
	if !ordered {
		return ""
	}
	return g.limit()
}

// grouped draws SELECT g, COUNT(*), windows over the groups… GROUP BY g
// ORDER BY g: windows read group keys and aggregates.
func (g *winGen) grouped(table string) *winQuery {
	g.label("over GROUP BY")
	q := &winQuery{}
	kt := pick(g.gen, []typ{tInt, tStr})
	key := g.column(kt, kt == tInt, kt == tStr)
	items := []winPart{exprPart(key).add(sameText(" AS c0")), sameText("COUNT(*) AS c1")}
	q.kinds = append(q.kinds, key.outKind(), kExact)
	aggOf := func(numeric bool) *expr {
		if !numeric && g.chance(0.4) {
			return leaf(tInt, "aggregate", "COUNT(*)", "COUNT(*)")
		}
		t := tInt
		if g.chance(0.3) {
			t = tDec
		}
		x := g.column(t, false, false)
		name := pick(g.gen, []string{"SUM", "MIN", "MAX", "COUNT"})
		e := mk(t, "aggregate", []*expr{x}, func(k []string) string { return name + "(" + k[0] + ")" }, func(k []string) string { return name + "(" + k[0] + ")" })
		if name == "COUNT" {
			e.t = tInt
		}
		return e
	}
	keys := func() *expr {
		if g.chance(0.5) {
			return aggOf(false)
		}
		return key
	}
	for range 1 + g.r.IntN(3) {
		w, kind := g.call(aggOf, keys, exprPart(key))
		items = append(items, w.add(sameText(" AS c"+strconv.Itoa(len(items)))))
		q.kinds = append(q.kinds, kind)
	}
	having := ""
	if g.chance(0.3) {
		having = " HAVING COUNT(*) > 1"
		g.label("HAVING")
	}
	group := exprPart(key)
	where := sameText(g.where() + " GROUP BY ").add(group).add(sameText(having))
	q.finish(table, items, where, sameText(" ORDER BY ").add(group), "")
	q.ordered = true
	return q
}

// finish assembles the statement.
func (q *winQuery) finish(table string, items []winPart, where, order winPart, limit string) {
	var ddbItems, liteItems []string
	for _, it := range items {
		ddbItems = append(ddbItems, it.ddb)
		liteItems = append(liteItems, it.lite)
	}
	q.ddb = []string{"SELECT " + strings.Join(ddbItems, ", ") + " FROM " + table, where.ddb, order.ddb, limit}
	q.lite = []string{"SELECT " + strings.Join(liteItems, ", ") + " FROM " + tableName, where.lite, order.lite, limit}
}

func TestWindowDifferential(t *testing.T) {
	seed := envInt(t, envSeed, defaultSeed)
	n := envInt(t, envWindowQueries, defaultWindowQueries)
	only, replay := uint64(0), os.Getenv(envWindowQuery) != ""
	if replay {
		only = envInt(t, envWindowQuery, 0)
	}
	ctx := context.Background()
	h := newHarness(t, seed)
	r := newDDBOn(t, h.be.client)
	// Every third statement runs again within a small --memory-limit, so
	// the window operator sorts externally (spilling) and reads one
	// partition at a time; a partition larger than the limit may fail.
	small := newDDBOn(t, h.be.client)
	small.s.SetMemoryLimit(windowSmallLimit)
	limited, tooBig := 0, 0
	t.Logf("seed %d (%s), %d window statements, on %s", seed, envSeed, n, h.be.name)
	cov := map[string]int{}
	failures := 0
	for k := range n {
		if replay && k != only {
			continue
		}
		g := &winGen{gen: h.queryGen(1_000_000 + k)}
		q := g.query(quoteName(h.table, styleBacktick))
		for _, l := range g.labels {
			cov[l]++
		}
		diff := h.checkWindow(ctx, r, q)
		if diff == "" && k%3 == 0 {
			switch diff = h.checkWindow(ctx, small, q); {
			case strings.Contains(diff, "memory_limit") || strings.Contains(diff, "--memory-limit"):
				tooBig++
				diff = ""
			case diff == "":
				limited++
			default:
				diff = "within --memory-limit " + strconv.Itoa(windowSmallLimit) + ": " + diff
			}
		}
		if diff == "" {
			continue
		}
		failures++
		if failures <= 5 {
			t.Errorf("window statement %d (replay: %s=%d %s=%d):\n  ddbsql: %s\n  SQLite: %s\n%s",
				k, envSeed, seed, envWindowQuery, k, q.text(false), q.text(true), diff)
		}
	}
	if failures > 5 {
		t.Errorf("… and %d more failing window statements", failures-5)
	}
	if replay {
		return
	}
	if limited < int(n)/10 {
		t.Errorf("within the small memory limit only %d statements ran (%d had a partition too large)", limited, tooBig)
	}
	t.Logf("within the small memory limit: %d statements compared, %d had a partition too large", limited, tooBig)
	var missing []string
	for _, want := range []string{"plain", "over GROUP BY", "PARTITION BY", "frame: ROWS", "frame: RANGE", "frame: RANGE offset",
		"frame: RANGE offset, decimal key", "frame: RANGE n PRECEDING", "NULLS FIRST/LAST",
		"window in ORDER BY", "window in an expression", "LAG/LEAD default", "two partitions", "HAVING", "LIMIT", "window argument: expression"} {
		if cov[want] == 0 {
			missing = append(missing, want)
		}
	}
	for _, f := range winFuncs {
		if cov["window "+f.name] == 0 {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Errorf("never generated: %s", strings.Join(missing, ", "))
	}
}

// checkWindow runs q on both engines and returns "" when they agree.
func (h *harness) checkWindow(ctx context.Context, r *ddbRunner, q *winQuery) string {
	raw, err := r.run(ctx, q.text(false), false)
	if err != nil {
		return fmt.Sprintf("ddbsql failed: %v", err)
	}
	got, err := normRows(raw, q.kinds, normDDB)
	if err != nil {
		return fmt.Sprintf("ddbsql rows: %v", err)
	}
	h.dbMu.Lock()
	lraw, err := runLite(ctx, h.db, q.text(true))
	h.dbMu.Unlock()
	if err != nil {
		return fmt.Sprintf("SQLite failed: %v", err)
	}
	want, err := normRows(lraw, q.kinds, normLite)
	if err != nil {
		return fmt.Sprintf("SQLite rows: %v", err)
	}
	if d := compareRows(got, want, q.ordered); d != "" {
		return d
	}
	names := make([]string, len(q.kinds))
	for i := range names {
		names[i] = "c" + strconv.Itoa(i)
	}
	return checkHeaders(r.keys, names)
}
