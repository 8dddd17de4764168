package difftest

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Join query generator (doc.go, "Joins").

// tMixed is the type of a join attribute that may hold the wrong type: it
// is only selected, grouped, ordered (N before S in both engines), tested
// with = <> IN and IS NULL, and joined on.
const tMixed typ = 100

// kMixed compares a cell holding a number or a string.
const kMixed outKind = 100

func jkind(e *expr) outKind {
	if e.t == tMixed {
		return kMixed
	}
	return e.outKind()
}

func normMixed(v any, lite bool) norm {
	switch x := v.(type) {
	case nil:
		return norm{null: true}
	case string:
		return norm{str: x, isStr: true}
	case []byte:
		return norm{str: string(x), isStr: true}
	case json.Number:
		if r, ok := new(big.Rat).SetString(x.String()); ok && !lite {
			return norm{rat: r}
		}
	case int64:
		if lite {
			return norm{rat: new(big.Rat).SetInt64(x)}
		}
	}
	return norm{bad: fmt.Sprintf("%T %v", v, v)}
}

func jnormDDB(v any, k outKind) norm {
	if k == kMixed {
		return normMixed(v, false)
	}
	return normDDB(v, k)
}

func jnormLite(v any, k outKind) norm {
	if k == kMixed {
		return normMixed(v, true)
	}
	return normLite(v, k)
}

// jfrom is one FROM item: the first has no join.
type jfrom struct {
	t     *jtable
	join  string // "JOIN", "LEFT JOIN", "RIGHT JOIN"
	on    []*expr
	using string
}

// jquery is one generated join statement.
type jquery struct {
	kind      qkind
	from      []jfrom
	scan      bool    // Options.AllowScan
	where     []*expr // conjuncts, key conditions first
	items     []item
	group     []ref
	having    *expr
	order     []ref
	total     bool
	limit     int
	offset    int
	limitForm int
	labels    []string
	// concurrency is the session's --concurrency (lookup rounds).
	concurrency int
	// consistent asks for strongly consistent reads (--consistent): never
	// with jc, whose GSI cannot be read that way.
	consistent bool
	// driverOrder: ORDER BY only selected columns of jd, ending with its
	// unique id, so rows are ordered up to the matches of one driving row:
	// compared as multisets, and ddbsql's rows must be sorted by them.
	driverOrder bool
	// How names and keywords are written: each FROM item's table name and
	// alias (by alias), USING's column, and the keywords' case.
	fromText  map[string]string
	usingText string
	kwCase    keywordCase
	// starOf: SELECT starOf.* (one table's attributes) instead of items.
	starOf *jtable
}

func (q *jquery) ordered() bool { return q.total && len(q.order) > 0 }
func (q *jquery) subset() bool  { return q.limit >= 0 && !q.ordered() }

func (q *jquery) kinds() []outKind {
	if t := q.starOf; t != nil {
		ks := make([]outKind, len(t.cols))
		for k, c := range t.cols {
			ks[k] = [...]outKind{jInt: kExact, jStr: kStr, jMixed: kMixed}[c.t]
		}
		return ks
	}
	ks := make([]outKind, len(q.items))
	for i, it := range q.items {
		ks[i] = jkind(it.e)
	}
	return ks
}

func (q *jquery) copy() *jquery {
	c := *q
	c.from = append([]jfrom(nil), q.from...)
	for i := range c.from {
		c.from[i].on = append([]*expr(nil), q.from[i].on...)
	}
	c.where = append([]*expr(nil), q.where...)
	c.items = append([]item(nil), q.items...)
	c.group = append([]ref(nil), q.group...)
	c.order = append([]ref(nil), q.order...)
	c.labels = append([]string(nil), q.labels...)
	return &c
}

func (q *jquery) refText(r ref, lite bool) string {
	if r.item < 0 {
		return r.e.render(lite)
	}
	switch r.form {
	case byAlias:
		return q.items[r.item].alias
	case byOrdinal:
		return strconv.Itoa(r.item + 1)
	}
	return q.items[r.item].e.render(lite)
}

// render writes the statement for ddbsql (lite=false: prefixed tables) or SQLite.
func (q *jquery) render(lite bool) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if q.kind == qDistinct {
		b.WriteString("DISTINCT ")
	}
	if t := q.starOf; t != nil {
		if lite {
			names := make([]string, len(t.cols))
			for k, c := range t.cols {
				names[k] = t.alias + "." + c.name
			}
			b.WriteString(strings.Join(names, ", "))
		} else {
			b.WriteString(q.fromAlias(t) + ".*")
		}
	}
	for i, it := range q.items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(it.e.render(lite))
		if it.alias != "" {
			b.WriteString(" AS " + it.alias)
		}
	}
	b.WriteString(" FROM ")
	for i, f := range q.from {
		if i > 0 {
			b.WriteString(" " + f.join + " ")
		}
		if lite {
			b.WriteString(f.t.name + " " + f.t.alias)
		} else if text, ok := q.fromText[f.t.alias]; ok {
			b.WriteString(text)
		} else {
			b.WriteString("`" + f.t.ddb + "` " + f.t.alias)
		}
		switch {
		case f.using != "" && !lite && q.usingText != "":
			b.WriteString(" USING (" + q.usingText + ")")
		case f.using != "":
			b.WriteString(" USING (" + f.using + ")")
		case len(f.on) > 0:
			parts := make([]string, len(f.on))
			for k, e := range f.on {
				parts[k] = e.render(lite)
			}
			b.WriteString(" ON " + strings.Join(parts, " AND "))
		}
	}
	if len(q.where) > 0 {
		parts := make([]string, len(q.where))
		for k, e := range q.where {
			parts[k] = e.render(lite)
		}
		b.WriteString(" WHERE " + strings.Join(parts, " AND "))
	}
	if len(q.group) > 0 {
		parts := make([]string, len(q.group))
		for k, r := range q.group {
			parts[k] = q.refText(r, lite)
		}
		b.WriteString(" GROUP BY " + strings.Join(parts, ", "))
	}
	if q.having != nil {
		b.WriteString(" HAVING " + q.having.render(lite))
	}
	if len(q.order) > 0 {
		parts := make([]string, len(q.order))
		for k, r := range q.order {
			parts[k] = q.refText(r, lite)
			if r.desc {
				parts[k] += " DESC"
			}
		}
		b.WriteString(" ORDER BY " + strings.Join(parts, ", "))
	}
	if q.limit >= 0 {
		switch {
		case q.offset >= 0 && q.limitForm == 1:
			fmt.Fprintf(&b, " LIMIT %d, %d", q.offset, q.limit)
		case q.offset >= 0:
			fmt.Fprintf(&b, " LIMIT %d OFFSET %d", q.limit, q.offset)
		default:
			fmt.Fprintf(&b, " LIMIT %d", q.limit)
		}
	}
	if lite {
		return b.String()
	}
	return recase(b.String(), q.kwCase)
}

// fromAlias is table t's alias as FROM writes it (for t.*).
func (q *jquery) fromAlias(t *jtable) string {
	text, ok := q.fromText[t.alias]
	if !ok {
		return t.alias
	}
	return text[strings.LastIndexByte(text, ' ')+1:]
}

// styleFrom draws how FROM writes each table (quotes, AS, the alias's
// quotes) and USING's column, and the keywords' case.
func (g *jgen) styleFrom(q *jquery) {
	q.fromText = map[string]string{}
	for _, f := range q.from {
		text := quoteName(f.t.ddb, pick(&g.gen, []nameStyle{styleDouble, styleBacktick}))
		if g.chance(0.4) {
			text += " AS"
		}
		q.fromText[f.t.alias] = text + " " + quoteName(f.t.alias, g.drawStyle())
		if f.using != "" {
			q.usingText = quoteName(f.using, g.drawStyle())
		}
	}
	q.kwCase = pick(&g.gen, []keywordCase{caseUpper, caseUpper, caseLower, caseTitle})
	g.label(keywordCaseLabels[q.kwCase])
}

// itemName is the output name of select item i (see headers_test.go).
func (q *jquery) itemName(i int) string {
	it := q.items[i]
	if it.alias != "" {
		return unquote(it.alias)
	}
	if it.e.name != "" {
		return it.e.name
	}
	return tidyName(it.e.render(false))
}

// headers are the JSON keys ddbsql must write.
func (q *jquery) headers() []string {
	names := make([]string, len(q.items))
	for i := range q.items {
		names[i] = q.itemName(i)
	}
	return uniqueKeys(names)
}

// jgen draws join queries over a joinData.
type jgen struct {
	gen
	jd    *joinData
	scope []*jtable // tables in FROM so far
	q     *jquery
}

func (g *jgen) label(l string) { g.q.labels = append(g.q.labels, l) }

// jcolRef is alias.col as an expression: ddbsql's text writes the alias
// and the name bare or quoted at random, SQLite's is plain.
func (g *jgen) jcolRef(t *jtable, c jcol) *expr {
	lite := t.alias + "." + c.name
	ddb := quoteName(t.alias, g.drawStyle()) + "." + quoteName(c.name, g.drawStyle())
	e := leaf(jtype(c), "column", ddb, lite)
	e.small, e.ascii = c.t == jInt, c.t == jStr
	e.name = c.name
	return e
}

// jtype is the expression type of a column.
func jtype(c jcol) typ {
	switch c.t {
	case jInt:
		return tInt
	case jStr:
		return tStr
	}
	return tMixed
}

func (g *jgen) colOf(t *jtable, name string) *expr { return g.jcolRef(t, t.col(name)) }

// column draws a column of a table in scope of type want (tMixed: any join
// attribute); ok is false when none exists.
func (g *jgen) columnOf(want typ, tables []*jtable) (*expr, bool) {
	type col struct {
		t *jtable
		c jcol
	}
	var cs []col
	for _, t := range tables {
		for _, c := range t.cols {
			if jtype(c) == want {
				cs = append(cs, col{t, c})
			}
		}
	}
	if len(cs) == 0 {
		return nil, false
	}
	c := pick(&g.gen, cs)
	return g.jcolRef(c.t, c.c), true
}

func (g *jgen) anyColumn(tables []*jtable) *expr {
	for {
		if e, ok := g.columnOf(pick(&g.gen, []typ{tInt, tInt, tStr, tStr, tMixed}), tables); ok {
			return e
		}
	}
}

// litFor draws a literal for comparisons with column e (usually a value
// present in the data).
func (g *jgen) litFor(e *expr) *expr {
	key := e.render(true)
	switch e.t {
	case tInt:
		if vs := g.jd.ints[key]; len(vs) > 0 && g.chance(0.7) {
			return intLit(pick(&g.gen, vs))
		}
		return intLit(g.r.Int64N(13) - 6)
	case tStr:
		if vs := g.jd.strs[key]; len(vs) > 0 && g.chance(0.7) {
			return strLit(pick(&g.gen, vs))
		}
		return strLit(pick(&g.gen, jwords))
	}
	// A join attribute: a value of its main type.
	if vs := g.jd.strs[key]; len(vs) > 0 && (len(g.jd.ints[key]) < len(vs)) {
		return strLit(pick(&g.gen, vs))
	}
	if vs := g.jd.ints[key]; len(vs) > 0 {
		return intLit(pick(&g.gen, vs))
	}
	return strLit("A01")
}

var jcmpOps = []string{"=", "<>", "<", "<=", ">", ">="}

// pred draws a predicate over the given tables.
func (g *jgen) pred(depth int, tables []*jtable) *expr {
	alts := []weighted{
		w(5, func() *expr {
			a := g.anyColumn(tables)
			op := pick(&g.gen, jcmpOps)
			if a.t == tMixed {
				op = pick(&g.gen, []string{"=", "<>"}) // only = and <> across types agree with SQLite
			}
			var b *expr
			if other, ok := g.columnOf(a.t, tables); ok && a.t != tMixed && g.chance(0.3) {
				b = other
			} else {
				b = g.litFor(a)
			}
			if g.chance(0.2) {
				a, b = b, a
			}
			return mkSame(tBool, "comparison", []*expr{a, b}, func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
		}),
		w(3, func() *expr {
			a := g.anyColumn(tables)
			op := pick(&g.gen, []string{"IS NULL", "IS NOT NULL"})
			return mkSame(tBool, op, []*expr{a}, func(k []string) string { return "(" + k[0] + " " + op + ")" })
		}),
		w(2, func() *expr {
			a := g.anyColumn(tables)
			kids := []*expr{a}
			for range 1 + g.r.IntN(3) {
				kids = append(kids, g.litFor(a))
			}
			op := pick(&g.gen, []string{"IN", "NOT IN"})
			return mkSame(tBool, op, kids, func(k []string) string { return "(" + k[0] + " " + op + " (" + strings.Join(k[1:], ", ") + "))" })
		}),
		w(1, func() *expr {
			a, _ := g.columnOf(tInt, tables)
			lo := g.r.Int64N(9) - 4
			hi := lo + g.r.Int64N(5)
			return mkSame(tBool, "BETWEEN", []*expr{a, intLit(lo), intLit(hi)}, func(k []string) string { return "(" + k[0] + " BETWEEN " + k[1] + " AND " + k[2] + ")" })
		}),
		w(1, func() *expr {
			a, _ := g.columnOf(tStr, tables)
			pat := pick(&g.gen, []string{"a%", "%e%", "_o_", "%t", "b%", "%n_", "G%", "A0%"})
			return mkSame(tBool, "LIKE", []*expr{a, strLit(pat)}, func(k []string) string { return "(" + k[0] + " LIKE " + k[1] + ")" })
		}),
		w(1, func() *expr {
			a, _ := g.columnOf(tInt, tables)
			c := fn(tInt, "COALESCE", a, intLit(g.r.Int64N(7)-3))
			op := pick(&g.gen, jcmpOps)
			return mkSame(tBool, "COALESCE", []*expr{c, g.litFor(a)}, func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
		}),
	}
	if depth > 0 {
		alts = append(alts,
			w(2, func() *expr {
				return mkSame(tBool, "AND", []*expr{g.pred(depth-1, tables), g.pred(depth-1, tables)},
					func(k []string) string { return "(" + k[0] + " AND " + k[1] + ")" })
			}),
			w(3, func() *expr {
				return mkSame(tBool, "OR", []*expr{g.pred(depth-1, tables), g.pred(depth-1, tables)},
					func(k []string) string { return "(" + k[0] + " OR " + k[1] + ")" })
			}),
			w(1, func() *expr { return not(g.pred(depth-1, tables)) }),
		)
	}
	return g.choose(alts...)
}

// edge is a way to join child to parent.
type edge struct {
	parent, child string // aliases
	pcol, ccol    string
	path          string // label: how ddbsql reaches child
	keyed         bool   // child is reachable by key
	// ddb, lite: an equality over expressions instead of pcol = ccol.
	ddb, lite string
}

var jedges = []edge{
	{parent: "d", child: "a", pcol: "ak", ccol: "ak", path: "BatchGetItem (table key)", keyed: true},
	{parent: "d", child: "b", pcol: "bk", ccol: "bk", path: "Query (item collection)", keyed: true},
	{parent: "d", child: "c", pcol: "cg", ccol: "cg", path: "GSI Query", keyed: true},
	{parent: "d", child: "c", pcol: "cid", ccol: "cid", path: "BatchGetItem (numeric key)", keyed: true},
	{parent: "a", child: "b", pcol: "abk", ccol: "bk", path: "Query (item collection)", keyed: true},
	{parent: "b", child: "c", pcol: "cg", ccol: "cg", path: "GSI Query", keyed: true},
	// No key path: hash join over a Scan (AllowScan).
	{parent: "d", child: "a", pcol: "s", ccol: "at", path: "no key path", keyed: false},
	{parent: "d", child: "b", pcol: "i", ccol: "bv", path: "no key path", keyed: false},
	{parent: "d", child: "c", pcol: "i", ccol: "cx", path: "no key path", keyed: false},
	{parent: "d", child: "c", pcol: "s", ccol: "ct", path: "no key path", keyed: false},
	{parent: "a", child: "b", pcol: "at", ccol: "bt", path: "no key path", keyed: false},
	{parent: "b", child: "c", pcol: "bv", ccol: "cn", path: "no key path", keyed: false},
	// Equalities over expressions: client-side only (AllowScan).
	{parent: "d", child: "a", path: "expression on the joined side", ddb: "LOWER(a.at) = d.s", lite: "LOWER(a.at) = d.s"},
	{parent: "d", child: "a", path: "expression on the driving side", ddb: "a.at = LOWER(d.s)", lite: "a.at = LOWER(d.s)"},
	{parent: "d", child: "c", path: "expression on the driving side", ddb: "c.cid = d.i + 10", lite: "c.cid = d.i + 10"},
	{parent: "d", child: "b", path: "expression on the driving side", ddb: "b.bk = CONCAT('B0', d.i)", lite: "b.bk = ('B0' || d.i)"},
}

func (g *jgen) table(alias string) *jtable {
	for _, t := range g.jd.tables() {
		if t.alias == alias {
			return t
		}
	}
	panic(alias)
}

// genJoinQuery draws one statement.
func (g *jgen) genJoinQuery() *jquery {
	q := &jquery{limit: -1, offset: -1}
	g.q = q
	d := g.jd.d
	mode := "keyed"
	switch f := g.r.Float64(); {
	case f < 0.12:
		mode = "both keyed"
	case f < 0.24:
		mode = "no key path"
	case f < 0.32:
		mode = "scan driving"
	case f < 0.46:
		// Key conditions on a joined table, perhaps none on d: the
		// planner must find the driving table wherever it is written,
		// never drive from a LEFT join's optional side, and turn a LEFT
		// join into an inner one only when a WHERE condition rejects its
		// NULLs. d may then need a Scan.
		mode = "key elsewhere"
	}
	q.scan = mode == "no key path" || mode == "scan driving" || mode == "key elsewhere"
	g.label("mode: " + mode)
	q.concurrency = pick(&g.gen, []int{1, 2, 8, 8})

	// The join tree, rooted at d.
	nJoins := 1
	if f := g.r.Float64(); f < 0.45 {
		nJoins = 2
	} else if f < 0.6 {
		nJoins = 3
	}
	joined := map[string]bool{"d": true}
	var picked []edge
	needNoPath := mode == "no key path"
	for len(picked) < nJoins {
		var cands []edge
		for _, e := range jedges {
			if joined[e.parent] && !joined[e.child] && (e.keyed || needNoPath) {
				cands = append(cands, e)
			}
		}
		if len(cands) == 0 {
			break
		}
		e := pick(&g.gen, cands)
		if needNoPath && g.chance(0.8) {
			var noPath []edge
			for _, c := range cands {
				if !c.keyed {
					noPath = append(noPath, c)
				}
			}
			if len(noPath) > 0 {
				e = pick(&g.gen, noPath)
			}
		}
		if !e.keyed {
			needNoPath = false
		}
		picked = append(picked, e)
		joined[e.child] = true
	}
	g.label(fmt.Sprintf("join: %d-way", len(picked)+1))
	left := map[string]bool{} // child alias → its edge is a LEFT join
	for _, e := range picked {
		if g.chance(0.45) {
			left[e.child] = true
		}
	}

	// The written order: a left-deep FROM in which every table is linked
	// to one written before it, and each LEFT join's optional side follows
	// the table it hangs on. So a table may come before its parent only
	// over INNER joins, and the first table is one whose path to d is all
	// INNER.
	written := g.writtenOrder(picked, left)
	if written[0] != "d" {
		g.label("FROM: joined table first")
	} else if len(written) > 2 && !slices.Equal(written[1:], childrenOf(picked)) {
		g.label("FROM: joins reordered")
	}
	q.from = []jfrom{{t: g.table(written[0])}}
	g.scope = []*jtable{q.from[0].t}
	for k, alias := range written[1:] {
		e, childFirst := linkTo(picked, alias, written[:k+1])
		child, parent := g.table(e.child), g.table(e.parent)
		f := jfrom{t: g.table(alias), join: "JOIN"}
		if left[e.child] && !childFirst {
			f.join = "LEFT JOIN"
		}
		g.label("join: " + f.join)
		g.label("path: " + e.path)
		var eq *expr
		if e.ddb != "" {
			eq = leaf(tBool, "join key", e.ddb, e.lite)
		} else {
			pe, ce := g.colOf(parent, e.pcol), g.colOf(child, e.ccol)
			eq = mkSame(tBool, "join key", []*expr{pe, ce}, func(k []string) string { return k[0] + " = " + k[1] })
			if g.chance(0.4) {
				eq = mkSame(tBool, "join key", []*expr{ce, pe}, func(k []string) string { return k[0] + " = " + k[1] })
			}
		}
		f.on = []*expr{eq}
		if k == 0 && e.ddb == "" && e.pcol == e.ccol && e.parent == "d" && !childFirst && g.chance(0.25) {
			f.using = e.pcol
			g.label("join: USING")
		} else {
			g.scope = append(g.scope, f.t)
			other := parent
			if childFirst {
				other = child
			}
			g.onExtras(&f, f.t, other)
			g.scope = g.scope[:len(g.scope)-1]
		}
		if mode == "both keyed" && k == 0 && f.t != d {
			// The joined side has key conditions of its own: read both by
			// key and hash-join (in ON, so that a LEFT join keeps its rows).
			kc := g.childKeyCond(f.t)
			if f.using != "" {
				f.using = ""
				f.on = []*expr{eq}
			}
			if f.join == "JOIN" && g.chance(0.5) {
				q.where = append(q.where, kc)
			} else {
				f.on = append(f.on, kc)
			}
			g.label("both sides keyed")
		}
		g.scope = append(g.scope, f.t)
		q.from = append(q.from, f)
	}
	// A LEFT join written first may be spelled as a RIGHT JOIN (ddbsql
	// accepts RIGHT JOIN as the first join only), before more joins or not.
	if q.from[1].join == "LEFT JOIN" && q.from[1].using == "" && g.chance(0.3) {
		q.from[0], q.from[1] = jfrom{t: q.from[1].t}, jfrom{t: q.from[0].t, join: "RIGHT JOIN", on: q.from[1].on}
		g.label("join: RIGHT JOIN")
		if len(q.from) > 2 {
			g.label("join: RIGHT JOIN before more joins")
		}
	}
	if mode == "both keyed" && written[0] != "d" && written[1] == "d" {
		// The first table is the joined side: its key conditions go to WHERE.
		q.where = append(q.where, g.childKeyCond(g.table(written[0])))
		g.label("both sides keyed")
	}

	// Key conditions on the driving table.
	var keyConds []*expr
	if mode == "key elsewhere" {
		g.keyElsewhere(q)
	}
	if mode != "scan driving" && (mode != "key elsewhere" || g.chance(0.3)) {
		pk := g.colOf(d, "pk")
		if g.chance(0.12) {
			keyConds = append(keyConds, g.keyDisjunction(d))
			g.label("driving: key disjunction")
		} else if g.chance(0.15) {
			keyConds = append(keyConds, mkSame(tBool, "key", []*expr{pk}, func(k []string) string { return k[0] + " IN ('P', 'Q')" }))
			g.label("driving: pk IN")
		} else {
			keyConds = append(keyConds, mkSame(tBool, "key", []*expr{pk}, func(k []string) string { return k[0] + " = 'P'" }))
			g.label("driving: pk =")
		}
		if g.chance(0.4) {
			lo := g.r.Int64N(jdRowsP)
			hi := lo + 20 + g.r.Int64N(80)
			keyConds = append(keyConds, mkSame(tBool, "key", []*expr{g.colOf(d, "id")}, func(k []string) string {
				return fmt.Sprintf("%s BETWEEN %d AND %d", k[0], lo, hi)
			}))
			g.label("driving: sort key range")
		}
	} else {
		g.label("driving: Scan")
	}
	q.where = append(keyConds, q.where...)
	if g.chance(0.7) {
		for range 1 + g.r.IntN(2) {
			p := g.pred(g.r.IntN(2), g.whereTables())
			q.where = append(q.where, p)
		}
	}
	// WHERE on the optional side of a LEFT join.
	if opt := g.optional(); len(opt) > 0 && g.chance(0.3) {
		t := pick(&g.gen, opt)
		if g.chance(0.5) {
			c := g.colOf(t, t.unique[0])
			op := pick(&g.gen, []string{"IS NULL", "IS NOT NULL"})
			q.where = append(q.where, mkSame(tBool, op, []*expr{c}, func(k []string) string { return "(" + k[0] + " " + op + ")" }))
			g.label("WHERE: key IS [NOT] NULL on the optional side")
		} else {
			q.where = append(q.where, g.pred(1, []*jtable{t}))
			g.label("WHERE: predicate on the optional side")
		}
	}
	g.finish(q)
	hasC := false
	for _, f := range q.from {
		hasC = hasC || f.t == g.jd.c
	}
	if !hasC && g.chance(0.15) {
		q.consistent = true
		g.label("--consistent")
	}
	g.styleFrom(q)
	return q
}

// writtenOrder draws the order in which the join tree is written: d and
// picked's children in the order drawn, or a random connected order in
// which only INNER joins are written child first.
func (g *jgen) writtenOrder(picked []edge, left map[string]bool) []string {
	natural := append([]string{"d"}, childrenOf(picked)...)
	if len(picked) == 0 || g.chance(0.4) {
		return natural
	}
	parent := map[string]string{}
	for _, e := range picked {
		parent[e.child] = e.parent
	}
	// Candidates to write first: tables whose path to d is all INNER.
	var starts []string
	for _, a := range natural {
		ok := true
		for x := a; x != "d"; x = parent[x] {
			ok = ok && !left[x]
		}
		if ok {
			starts = append(starts, a)
		}
	}
	order := []string{pick(&g.gen, starts)}
	in := map[string]bool{order[0]: true}
	for len(order) < len(natural) {
		var next []string
		for _, e := range picked {
			switch {
			case in[e.parent] && !in[e.child]:
				next = append(next, e.child)
			case in[e.child] && !in[e.parent] && !left[e.child]:
				next = append(next, e.parent)
			}
		}
		a := pick(&g.gen, next)
		order = append(order, a)
		in[a] = true
	}
	return order
}

func childrenOf(picked []edge) []string {
	out := make([]string, len(picked))
	for i, e := range picked {
		out[i] = e.child
	}
	return out
}

// linkTo finds the edge linking alias to the tables written before it (in
// a tree, exactly one); childFirst is set when alias is that edge's parent,
// written after its child.
func linkTo(picked []edge, alias string, before []string) (edge, bool) {
	for _, e := range picked {
		if e.child == alias && slices.Contains(before, e.parent) {
			return e, false
		}
		if e.parent == alias && slices.Contains(before, e.child) {
			return e, true
		}
	}
	panic("no edge links " + alias)
}

// keyElsewhere puts key conditions on a joined table other than d: in
// WHERE (which makes a LEFT join to it an inner one), or in the ON of the
// LEFT join whose optional side it is (which keeps that side optional, so
// it cannot drive).
func (g *jgen) keyElsewhere(q *jquery) {
	var cands []int
	for k, f := range q.from {
		if f.t != g.jd.d {
			cands = append(cands, k)
		}
	}
	k := pick(&g.gen, cands)
	f := &q.from[k]
	kc := g.childKeyCond(f.t)
	optional := f.join == "LEFT JOIN" || (k == 0 && len(q.from) > 1 && q.from[1].join == "RIGHT JOIN")
	if f.join == "LEFT JOIN" && g.chance(0.4) {
		if f.using != "" {
			f.on, f.using = []*expr{g.usingEquality(q, k)}, ""
		}
		f.on = append(f.on, kc)
		g.label("key elsewhere: in the optional side's ON")
		return
	}
	q.where = append(q.where, kc)
	if optional {
		g.label("key elsewhere: in WHERE on an optional side")
	} else {
		g.label("key elsewhere: in WHERE on an inner side")
	}
}

// usingEquality is USING (col) of from item k written as an equality.
func (g *jgen) usingEquality(q *jquery, k int) *expr {
	col := q.from[k].using
	pe, ce := g.colOf(q.from[0].t, col), g.colOf(q.from[k].t, col)
	return mkSame(tBool, "join key", []*expr{pe, ce}, func(x []string) string { return x[0] + " = " + x[1] })
}

// whereTables are the tables a WHERE condition may read.
func (g *jgen) whereTables() []*jtable { return g.scope }

// optional lists the tables on the optional side of a LEFT (or RIGHT) join.
func (g *jgen) optional() []*jtable {
	var out []*jtable
	for k, f := range g.q.from {
		if f.join == "LEFT JOIN" {
			out = append(out, f.t)
		}
		if f.join == "RIGHT JOIN" {
			out = append(out, g.q.from[k-1].t)
		}
	}
	return out
}

// onExtras adds non-key conditions to a join's ON: on the joined side
// (pushed into the lookup), on the other side, or across both. The other
// side is sometimes a table the join key does not link (linked is the one
// it does): a LEFT join's ON then ties its optional side to a table that
// must be joined before it, whatever order the planner prefers.
func (g *jgen) onExtras(f *jfrom, child, linked *jtable) {
	if !g.chance(0.4) {
		return
	}
	left := g.scope[:len(g.scope)-1]
	if len(left) > 1 && g.chance(0.4) {
		var others []*jtable
		for _, t := range left {
			if t != linked {
				others = append(others, t)
			}
		}
		left = others
		g.label("ON extra: a table the join key does not link")
	}
	switch g.r.IntN(3) {
	case 0:
		f.on = append(f.on, g.pred(g.r.IntN(2), []*jtable{child}))
		g.label("ON extra: joined side")
	case 1:
		f.on = append(f.on, g.pred(0, left))
		g.label("ON extra: other side")
	default:
		a, _ := g.columnOf(tInt, []*jtable{child})
		b, _ := g.columnOf(tInt, left)
		op := pick(&g.gen, jcmpOps)
		f.on = append(f.on, mkSame(tBool, "comparison", []*expr{a, b}, func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" }))
		g.label("ON extra: both sides")
		if op == "=" {
			g.label("ON extra: a second equality")
		}
	}
}

// keyDisjunction is a driving key condition in disjunctive form: an OR of
// 2–3 branches (a sort-key range of 'P', all of 'Q', one key of 'P'), read
// as a union of keyed reads.
func (g *jgen) keyDisjunction(d *jtable) *expr {
	var parts []string // %[1]s is pk, %[2]s id
	for range 2 + g.r.IntN(2) {
		switch g.r.IntN(3) {
		case 0:
			lo := g.r.Int64N(jdRowsP)
			parts = append(parts, fmt.Sprintf("(%%[1]s = 'P' AND %%[2]s BETWEEN %d AND %d)", lo, lo+10+g.r.Int64N(60)))
		case 1:
			parts = append(parts, "%[1]s = 'Q'")
		default:
			parts = append(parts, fmt.Sprintf("(%%[2]s = %d AND %%[1]s = 'P')", 1+g.r.Int64N(jdRowsP+5)))
		}
	}
	format := "(" + strings.Join(parts, " OR ") + ")"
	return mkSame(tBool, "key", []*expr{g.colOf(d, "pk"), g.colOf(d, "id")}, func(k []string) string {
		return fmt.Sprintf(format, k[0], k[1])
	})
}

// childKeyCond is a key condition on a joined table, so that both sides
// are read by key (hash join).
func (g *jgen) childKeyCond(t *jtable) *expr {
	var col *expr
	var vals []string
	switch t.alias {
	case "a":
		col = g.colOf(t, "ak")
		for range 1 + g.r.IntN(6) {
			vals = append(vals, fmt.Sprintf("'A%03d'", g.r.IntN(jaItems+3)))
		}
	case "b":
		col = g.colOf(t, "bk")
		for range 1 + g.r.IntN(3) {
			vals = append(vals, fmt.Sprintf("'B%02d'", g.r.IntN(jbKeys+2)))
		}
	default:
		if g.chance(0.25) {
			// A union of the table and its GSI (which projects too little,
			// so that branch fetches the items) as the hash join's build side.
			cid, cg := g.colOf(t, "cid"), g.colOf(t, "cg")
			id, grp := 1+g.r.IntN(jcItems+3), g.r.IntN(jcGroups+1)
			g.label("both keyed: key disjunction on the joined side")
			return mkSame(tBool, "key", []*expr{cid, cg}, func(k []string) string {
				return fmt.Sprintf("(%s = %d OR %s = 'G%d')", k[0], id, k[1], grp)
			})
		}
		if g.chance(0.5) {
			col = g.colOf(t, "cg")
			vals = []string{fmt.Sprintf("'G%d'", g.r.IntN(jcGroups+1))}
			g.label("both keyed: GSI query on the joined side")
		} else {
			col = g.colOf(t, "cid")
			for range 1 + g.r.IntN(8) {
				vals = append(vals, strconv.Itoa(1+g.r.IntN(jcItems+3)))
			}
		}
	}
	if len(vals) == 1 {
		return mkSame(tBool, "key", []*expr{col}, func(k []string) string { return k[0] + " = " + vals[0] })
	}
	return mkSame(tBool, "key", []*expr{col}, func(k []string) string { return k[0] + " IN (" + strings.Join(vals, ", ") + ")" })
}

// selectExpr draws a select-list expression over the tables in scope.
func (g *jgen) selectExpr() *expr {
	switch f := g.r.Float64(); {
	case f < 0.7:
		return g.anyColumn(g.scope)
	case f < 0.78:
		a, _ := g.columnOf(tInt, g.scope)
		b, _ := g.columnOf(tInt, g.scope)
		e := binop(tInt, pick(&g.gen, []string{"+", "-", "*"}), a, b)
		e.small = true
		return e
	case f < 0.86:
		a, _ := g.columnOf(tStr, g.scope)
		e := fn(tStr, "COALESCE", a, strLit("none"))
		e.ascii = true
		return e
	case f < 0.9:
		a, _ := g.columnOf(tStr, g.scope)
		b, _ := g.columnOf(tStr, g.scope)
		e := mk(tStr, "CONCAT", []*expr{a, b},
			func(k []string) string { return "CONCAT(" + k[0] + ", " + k[1] + ")" },
			func(k []string) string { return "(" + k[0] + " || " + k[1] + ")" })
		e.ascii = true
		return e
	case f < 0.95:
		return g.pred(0, g.scope)
	}
	// An unqualified key attribute that only one table has.
	names := []string{"id"}
	for _, t := range g.scope {
		if t.alias == "b" {
			names = append(names, "bs")
		}
	}
	n := pick(&g.gen, names)
	e := leaf(tInt, "unqualified key", quoteName(n, g.drawStyle()), n)
	e.small = true
	e.name = n
	return e
}

// agg draws an aggregate over the tables in scope.
func (g *jgen) agg() *expr {
	mkAgg := func(t typ, name string, x *expr) *expr {
		e := fn(t, name, x)
		e.agg = true
		e.label = name
		if t == tStr {
			e.ascii = true
		}
		return e
	}
	switch g.r.IntN(7) {
	case 0:
		e := mkSame(tInt, "COUNT(*)", nil, func([]string) string { return "COUNT(*)" })
		e.agg = true
		return e
	case 1:
		return mkAgg(tInt, "COUNT", g.anyColumn(g.scope))
	case 2:
		x := g.anyColumn(g.scope)
		e := mkSame(tInt, "COUNT(DISTINCT)", []*expr{x}, func(k []string) string { return "COUNT(DISTINCT " + k[0] + ")" })
		e.agg = true
		return e
	case 3:
		a, _ := g.columnOf(tInt, g.scope)
		if g.chance(0.3) {
			b, _ := g.columnOf(tInt, g.scope)
			a = binop(tInt, "+", a, b)
		}
		return mkAgg(tInt, "SUM", a)
	case 4:
		a, _ := g.columnOf(tInt, g.scope)
		e := mkAgg(tInt, "AVG", a)
		e.approx = true
		return e
	}
	t := pick(&g.gen, []typ{tInt, tStr})
	a, _ := g.columnOf(t, g.scope)
	return mkAgg(t, pick(&g.gen, []string{"MIN", "MAX"}), a)
}

// tieBreak orders rows totally: every table's unique key.
func (g *jgen) tieBreak(q *jquery) {
	var keys []*expr
	for _, f := range q.from {
		for _, u := range f.t.unique {
			keys = append(keys, g.colOf(f.t, u))
		}
	}
	if g.chance(0.3) {
		g.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	}
	for _, k := range keys {
		q.order = append(q.order, ref{item: -1, e: k, desc: g.chance(0.2)})
	}
	q.total = true
}

func (g *jgen) itemRef(q *jquery, k int) ref {
	r := ref{item: k, form: refForm(g.r.IntN(3)), desc: g.chance(0.3)}
	if r.form == byAlias && q.items[k].alias == "" {
		q.items[k].alias = "x" + strconv.Itoa(k+1)
	}
	return r
}

// finish draws the statement's shape: plain, DISTINCT, aggregate or GROUP BY.
func (g *jgen) finish(q *jquery) {
	switch n := g.r.IntN(100); {
	case n < 42:
		q.kind = qPlain
	case n < 55:
		q.kind = qDistinct
	case n < 67:
		q.kind = qAggregate
	default:
		q.kind = qGrouped
	}
	g.label("shape: " + qkindNames[q.kind])
	switch q.kind {
	case qPlain:
		if g.chance(0.08) {
			// SELECT t.*: one table's attributes, whatever it joins.
			q.starOf = pick(&g.gen, g.scope)
			g.label("shape: SELECT t.*")
			if g.chance(0.6) {
				g.tieBreak(q)
			}
			break
		}
		for range 1 + g.r.IntN(4) {
			q.items = append(q.items, item{e: g.selectExpr()})
		}
		if g.chance(0.2) {
			// ORDER BY the driving table alone: the order can come from
			// its read (no Sort), through lookups and hash joins.
			d := g.jd.d
			keys := []*expr{g.colOf(d, "id")}
			if g.chance(0.6) {
				keys = append([]*expr{g.jcolRef(d, pick(&g.gen, d.cols))}, keys...)
			}
			desc := g.chance(0.4)
			for _, k := range keys {
				q.items = append(q.items, item{e: k})
				q.order = append(q.order, ref{item: len(q.items) - 1, form: byExpr, desc: desc})
			}
			q.driverOrder = true
			g.label("ORDER BY the driving table only")
			break
		}
		if g.chance(0.75) {
			for range g.r.IntN(3) {
				k := g.r.IntN(len(q.items))
				if q.items[k].e.t == tBool {
					continue
				}
				q.order = append(q.order, g.itemRef(q, k))
			}
			g.tieBreak(q)
		}
	case qDistinct:
		for range 1 + g.r.IntN(3) {
			q.items = append(q.items, item{e: g.anyColumn(g.scope)})
		}
		if g.chance(0.7) {
			for _, k := range g.r.Perm(len(q.items)) {
				q.order = append(q.order, g.itemRef(q, k))
			}
			q.total = true
		}
	case qAggregate:
		for range 1 + g.r.IntN(4) {
			q.items = append(q.items, item{e: g.agg()})
		}
	case qGrouped:
		nKeys := 1 + g.r.IntN(2)
		for range nKeys {
			q.items = append(q.items, item{e: g.anyColumn(g.scope), key: true})
			q.group = append(q.group, g.itemRef(q, len(q.items)-1))
		}
		for range 1 + g.r.IntN(3) {
			q.items = append(q.items, item{e: g.agg()})
		}
		if g.chance(0.35) {
			q.having = g.having(q)
			g.label("HAVING")
		}
		if g.chance(0.7) {
			if g.chance(0.3) {
				// An aggregate first, then every key: still total.
				a := g.agg()
				if !a.approx {
					q.order = append(q.order, ref{item: -1, e: a, desc: g.chance(0.5)})
				}
			}
			for k, it := range q.items {
				if it.key {
					q.order = append(q.order, ref{item: k, form: byOrdinal, desc: g.chance(0.3)})
				}
			}
			q.total = true
		}
	}
	for i := range q.items {
		if q.items[i].alias == "" && g.chance(0.2) {
			q.items[i].alias = "x" + strconv.Itoa(i+1)
		}
	}
	exact := true
	for _, it := range q.items {
		exact = exact && !it.e.approx
	}
	if (q.ordered() && g.chance(0.5)) || (!q.ordered() && q.kind != qAggregate && exact && g.chance(0.25)) {
		q.limit = pick(&g.gen, []int{0, 1, 2, 3, 5, 10, 40})
		if g.chance(0.4) {
			q.offset = pick(&g.gen, []int{0, 1, 4, 20})
			q.limitForm = g.r.IntN(2)
		}
		g.label("LIMIT")
		if q.offset >= 0 {
			g.label("OFFSET")
		}
		if !q.ordered() {
			g.label("LIMIT without ORDER BY")
		}
	}
	if q.ordered() {
		g.label("ORDER BY (total)")
	}
	if q.kind == qGrouped && len(q.group) > 1 {
		g.label("GROUP BY two keys")
	}
}

// having draws a HAVING condition: an aggregate or a key against a literal.
func (g *jgen) having(q *jquery) *expr {
	one := func() *expr {
		if g.chance(0.3) {
			for _, it := range q.items {
				if it.key && it.e.t != tMixed {
					op := pick(&g.gen, jcmpOps)
					return mkSame(tBool, "HAVING key", []*expr{it.e, g.litFor(it.e)}, func(x []string) string { return "(" + x[0] + " " + op + " " + x[1] + ")" })
				}
			}
		}
		var a *expr
		for a == nil || a.approx {
			a = g.agg()
		}
		var lit *expr
		if a.t == tStr {
			lit = strLit(pick(&g.gen, jwords))
		} else {
			lit = intLit(g.r.Int64N(12) - 2)
		}
		op := pick(&g.gen, jcmpOps)
		return mkSame(tBool, "HAVING aggregate", []*expr{a, lit}, func(x []string) string { return "(" + x[0] + " " + op + " " + x[1] + ")" })
	}
	if g.chance(0.3) {
		op := pick(&g.gen, []string{"AND", "OR"})
		return mkSame(tBool, op, []*expr{one(), one()}, func(x []string) string { return "(" + x[0] + " " + op + " " + x[1] + ")" })
	}
	return one()
}

// shrinks lists smaller variants of q, most drastic first.
func (q *jquery) shrinks() []*jquery {
	var out []*jquery
	add := func(f func(c *jquery) bool) {
		c := q.copy()
		if f(c) {
			out = append(out, c)
		}
	}
	add(func(c *jquery) bool { ok := c.limit >= 0; c.limit, c.offset = -1, -1; return ok })
	add(func(c *jquery) bool { ok := c.having != nil; c.having = nil; return ok })
	add(func(c *jquery) bool {
		ok := len(c.order) > 0
		c.order, c.total, c.limit, c.offset = nil, false, -1, -1
		return ok
	})
	for k, e := range q.where {
		if e.label == "key" && k == 0 {
			continue
		}
		add(func(c *jquery) bool { c.where = append(c.where[:k:k], c.where[k+1:]...); return true })
		for _, s := range simplifications(e) {
			add(func(c *jquery) bool { c.where[k] = s; return true })
		}
	}
	for i, f := range q.from {
		for k := 1; k < len(f.on); k++ {
			add(func(c *jquery) bool { c.from[i].on = append(c.from[i].on[:k:k], c.from[i].on[k+1:]...); return true })
		}
		if f.join == "LEFT JOIN" {
			add(func(c *jquery) bool { c.from[i].join = "JOIN"; return true })
		}
	}
	for k := range q.items {
		add(func(c *jquery) bool {
			if len(c.items) < 2 || c.items[k].key {
				return false
			}
			for _, rs := range [][]ref{c.group, c.order} {
				for i := range rs {
					if rs[i].item == k {
						return false
					}
					if rs[i].item > k {
						rs[i].item--
					}
				}
			}
			c.items = append(c.items[:k:k], c.items[k+1:]...)
			return true
		})
	}
	return out
}
