package difftest

import (
	"strconv"
	"strings"
)

type qkind uint8

const (
	qPlain     qkind = iota // SELECT exprs … [ORDER BY … , id] [LIMIT]
	qDistinct               // SELECT DISTINCT exprs … [ORDER BY every item] [LIMIT]
	qAggregate              // SELECT aggregates … (no GROUP BY: one row)
	qGrouped                // SELECT keys, aggregates … GROUP BY … [HAVING] [ORDER BY …, keys] [LIMIT]
)

var qkindNames = [...]string{"plain", "DISTINCT", "aggregate without GROUP BY", "GROUP BY"}

type refForm uint8

const (
	byExpr refForm = iota
	byAlias
	byOrdinal
)

var refFormNames = [...]string{"expression", "alias", "ordinal"}

type item struct {
	e     *expr
	alias string
	key   bool // a GROUP BY key
}

// ref is a GROUP BY or ORDER BY entry: a select item (by expression, alias
// or ordinal) or, with item < 0, an expression of its own.
type ref struct {
	item int
	e    *expr
	form refForm
	desc bool
}

type query struct {
	kind     qkind
	scan     bool  // no key condition: a Scan (AllowScan)
	keyCond  *expr // "pk = 'P' …" (names written at random); nil for a scan
	keyExpr  *expr // instead of keyCond: a key condition in disjunctive form
	keyLabel string
	// mix: the WHERE nests key and other conditions freely; the query
	// runs without AllowScan first and must then return the right rows or
	// fail with scan_not_allowed (and is re-run with AllowScan).
	mix bool
	// How FROM is written: the table name's quotes, an alias (qualifying
	// some column references) with or without AS, an index read directly
	// (FROM t.index: only the items the index holds) and an index hint.
	tableStyle nameStyle
	alias      string
	aliasStyle nameStyle
	aliasAS    bool
	index      string
	indexStyle nameStyle
	hint       string // "USE INDEX (ByStatus)", …; "" for none
	// hintHonoured: the conditions require the hinted index's keys, so
	// the hint must be followed, never refused.
	hintHonoured bool
	// star: SELECT * (or alias.* when starQualified) instead of items.
	star, starQualified bool
	// How the text is laid out: keywords' case, and the blank before
	// each clause (" ", a line break, a line break and a tab).
	kwCase keywordCase
	sep    string
	// Session options: --segments (0: ddbsql's choice), --concurrency,
	// --consistent (re-run without it when it meets a GSI).
	segments, concurrency int
	consistent            bool
	items                 []item
	where                 *expr
	group                 []ref
	having                *expr
	order                 []ref
	total                 bool // ORDER BY determines the order completely (ends in a unique key)
	limit                 int  // -1: none
	offset                int  // -1: none
	limitForm             int  // 0: LIMIT n [OFFSET m]; 1: LIMIT m, n
}

// ordered reports whether results must match row for row.
func (q *query) ordered() bool { return q.total && len(q.order) > 0 }

// subset reports whether q has a LIMIT but no total order, so only the
// number of rows and their membership in the full result are determined.
func (q *query) subset() bool { return q.limit >= 0 && !q.ordered() }

func (q *query) kinds() []outKind {
	ks := make([]outKind, len(q.items))
	for i, it := range q.items {
		ks[i] = it.e.outKind()
	}
	return ks
}

func (q *query) refText(r ref, lite bool) string {
	if r.item < 0 {
		return r.e.render(lite)
	}
	switch q.refForm(r) {
	case byAlias:
		return q.items[r.item].alias
	case byOrdinal:
		return strconv.Itoa(r.item + 1)
	}
	return q.items[r.item].e.render(lite)
}

// refForm is how r is rendered: a constant item is referred to by ordinal.
func (q *query) refForm(r ref) refForm {
	if r.item >= 0 && r.form == byExpr && q.items[r.item].e.isConst() {
		return byOrdinal
	}
	return r.form
}

func (q *query) refExpr(r ref) *expr {
	if r.item < 0 {
		return r.e
	}
	return q.items[r.item].e
}

// render writes the statement in ddbsql's dialect (lite=false, table is the
// prefixed DynamoDB table) or SQLite's.
func (q *query) render(lite bool, table string) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	if q.kind == qDistinct {
		b.WriteString("DISTINCT ")
	}
	if q.star {
		switch {
		case lite:
			b.WriteString(`"` + strings.Join(liteColumns, `", "`) + `"`)
		case q.starQualified:
			b.WriteString(quoteName(q.alias, q.aliasStyle) + ".*")
		default:
			b.WriteString("*")
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
	if lite {
		b.WriteString(" FROM " + tableName)
	} else {
		b.WriteString(q.clause("FROM ") + quoteName(table, q.tableStyle))
		if q.index != "" {
			b.WriteString("." + quoteName(q.index, q.indexStyle))
		}
		if q.alias != "" {
			if q.aliasAS {
				b.WriteString(" AS")
			}
			b.WriteString(" " + quoteName(q.alias, q.aliasStyle))
		}
		if q.hint != "" {
			b.WriteString(" " + q.hint)
		}
	}
	var conds []string
	if lite && q.index != "" {
		// An index holds only the items that have its key attributes.
		conds = append(conds, indexMembership(q.index))
	}
	if q.keyCond != nil {
		conds = append(conds, q.keyCond.render(lite))
	}
	if q.keyExpr != nil {
		conds = append(conds, q.keyExpr.render(lite))
	}
	if q.where != nil {
		conds = append(conds, q.where.render(lite))
	}
	if len(conds) > 0 {
		b.WriteString(q.clause("WHERE ") + strings.Join(conds, " AND "))
	}
	if len(q.group) > 0 {
		b.WriteString(q.clause("GROUP BY "))
		for i, r := range q.group {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(q.refText(r, lite))
		}
	}
	if q.having != nil {
		b.WriteString(q.clause("HAVING ") + q.having.render(lite))
	}
	if len(q.order) > 0 {
		b.WriteString(q.clause("ORDER BY "))
		for i, r := range q.order {
			if i > 0 {
				b.WriteString(", ")
			}
			text := q.refText(r, lite)
			if lite && (r.item < 0 || q.refForm(r) == byExpr) && q.refExpr(r).t != tStr {
				// SQLite folds e.g. ((1 IS NULL) AND b) to the integer 0 and
				// then reads it as an ordinal; + 0 keeps it an expression
				// with the same value and order.
				text = "(" + text + ") + 0"
			}
			b.WriteString(text)
			if r.desc {
				b.WriteString(" DESC")
			} else if i%2 == 1 {
				b.WriteString(" ASC")
			}
		}
	}
	if q.limit >= 0 {
		switch {
		case q.offset >= 0 && q.limitForm == 1:
			b.WriteString(q.clause("LIMIT ") + strconv.Itoa(q.offset) + ", " + strconv.Itoa(q.limit))
		case q.offset >= 0:
			b.WriteString(q.clause("LIMIT ") + strconv.Itoa(q.limit) + " OFFSET " + strconv.Itoa(q.offset))
		default:
			b.WriteString(q.clause("LIMIT ") + strconv.Itoa(q.limit))
		}
	}
	if lite {
		return strings.ReplaceAll(b.String(), "\x00", " ")
	}
	return recase(strings.ReplaceAll(b.String(), "\x00", q.separator()), q.kwCase)
}

// clause starts a clause: a NUL marks where the layout's blank goes.
func (q *query) clause(kw string) string { return "\x00" + kw }

func (q *query) separator() string {
	if q.sep == "" {
		return " "
	}
	return q.sep
}

// labels lists the constructs the query exercises, for the coverage report.
func (q *query) labels() []string {
	ls := []string{"query: " + qkindNames[q.kind]}
	switch {
	case q.keyExpr != nil:
		ls = append(ls, q.keyLabel)
	case q.mix:
	case q.keyLabel != "":
		ls = append(ls, "access: "+q.keyLabel)
	case q.scan:
		ls = append(ls, "access: Scan")
	}
	if q.where != nil {
		ls = append(ls, "WHERE")
	}
	if q.mix {
		ls = append(ls, "WHERE: key and other conditions nested freely")
	}
	ls = append(ls, keywordCaseLabels[q.kwCase])
	if q.scan && q.segments > 1 {
		ls = append(ls, "options: parallel Scan segments")
	}
	if q.concurrency == 1 {
		ls = append(ls, "options: --concurrency 1")
	}
	if q.consistent {
		ls = append(ls, "options: --consistent")
	}
	if q.sep != "" {
		ls = append(ls, "layout: clauses on lines of their own")
	}
	if q.alias != "" {
		ls = append(ls, "FROM: alias")
	}
	if q.index != "" {
		ls = append(ls, "FROM: t.index ("+q.index+")")
	}
	if q.hint != "" {
		ls = append(ls, "hint: "+strings.Fields(q.hint)[0]+" INDEX")
	}
	if q.star {
		star := "SELECT *"
		if q.starQualified {
			star = "SELECT alias.*"
		}
		ls = append(ls, star)
	}
	if q.limit >= 0 && q.offset >= 100 {
		ls = append(ls, "OFFSET past the end")
	}
	for _, r := range q.group {
		ls = append(ls, "GROUP BY "+refFormNames[r.form])
	}
	if len(q.group) > 1 {
		ls = append(ls, "GROUP BY two keys")
	}
	if q.having != nil {
		ls = append(ls, "HAVING")
		if len(q.group) == 0 {
			ls = append(ls, "HAVING without GROUP BY")
		}
	}
	if hs := q.headers(); len(hs) > 0 {
		for i := range q.items {
			if q.itemName(i) != hs[i] {
				ls = append(ls, "header: duplicate names")
				break
			}
		}
	}
	for _, r := range q.order {
		f := refFormNames[r.form]
		if r.item < 0 {
			f = "expression not selected"
		}
		ls = append(ls, "ORDER BY "+f)
		if r.desc {
			ls = append(ls, "ORDER BY DESC")
		}
	}
	if q.subset() {
		ls = append(ls, "LIMIT without ORDER BY")
	}
	if q.limit >= 0 {
		ls = append(ls, "LIMIT")
		if q.limit == 0 {
			ls = append(ls, "LIMIT 0")
		}
	}
	if q.offset >= 0 {
		ls = append(ls, "OFFSET")
		if q.limitForm == 1 {
			ls = append(ls, "LIMIT m, n")
		}
	}
	exprs := []*expr{q.keyCond, q.keyExpr, q.where, q.having}
	for _, it := range q.items {
		exprs = append(exprs, it.e)
	}
	for _, r := range append(append([]ref(nil), q.group...), q.order...) {
		exprs = append(exprs, r.e)
	}
	for _, e := range exprs {
		e.walk(func(n *expr) {
			if n.label != "" {
				ls = append(ls, "expr: "+n.label)
			}
			if n.name != "" {
				ls = append(ls, nameLabels(n)...)
			}
		})
	}
	return ls
}

// genQuery draws one query.
func (g *gen) genQuery() *query {
	q := &query{limit: -1, offset: -1}
	q.tableStyle = pick(g, []nameStyle{styleDouble, styleBacktick})
	q.kwCase = pick(g, []keywordCase{caseUpper, caseUpper, caseUpper, caseLower, caseLower, caseTitle})
	q.sep = pick(g, []string{"", "", "", "", "\n", "\n\t"})
	q.segments = pick(g, []int{0, 0, 1, 2, 3, 7})
	q.concurrency = pick(g, []int{8, 8, 1, 2})
	q.consistent = g.chance(0.1)
	if g.chance(0.3) {
		// Not m (a map attribute: m.x would be ambiguous) nor a column.
		q.alias = pick(g, []string{"t0", "src", "T", "order", "my table"})
		q.aliasStyle, q.aliasAS = g.drawStyle(), g.chance(0.5)
		g.alias = q.alias
	}
	switch {
	case g.chance(0.25):
		q.scan = true
	case g.chance(0.25):
		q.keyExpr, q.keyLabel, q.scan = g.keyDisjunction()
	case g.chance(0.2):
		g.indexAccess(q)
	case g.chance(0.15):
		q.mix = true
	default:
		q.keyCond, q.keyLabel = g.keyCond()
	}
	switch n := g.r.IntN(100); {
	case n < 35:
		q.kind = qPlain
	case n < 50:
		q.kind = qDistinct
	case n < 63:
		q.kind = qAggregate
	default:
		q.kind = qGrouped
	}
	if q.mix {
		q.where = g.mixedWhere(1 + g.r.IntN(3))
	} else if g.chance(0.85) {
		q.where = g.pred(1 + g.r.IntN(3))
	}
	switch q.kind {
	case qPlain:
		g.plain(q)
	case qDistinct:
		g.distinct(q)
	case qAggregate:
		for range 1 + g.r.IntN(4) {
			q.items = append(q.items, item{e: g.agg(true)})
		}
		if g.chance(0.2) {
			// HAVING without GROUP BY: one group (or none).
			q.having = g.havingPred(q, 1)
		}
	case qGrouped:
		g.grouped(q)
	}
	for i := range q.items {
		if q.items[i].alias == "" && g.chance(0.3) {
			q.items[i].alias = g.itemAlias(i)
		}
	}
	g.duplicateNames(q)
	// LIMIT with a total order (compared row for row), or now and then
	// without one (compared as a subset; exact cells only, see subset).
	exact := !q.has(func(e *expr) bool { return e.approx })
	if (q.ordered() && g.chance(0.5)) || (!q.ordered() && q.kind != qAggregate && exact && g.chance(0.2)) {
		q.limit = pick(g, []int{0, 1, 2, 3, 5, 10, 25, 100})
		if g.chance(0.4) {
			q.offset = pick(g, []int{0, 1, 3, 10, 50, 400})
			q.limitForm = g.r.IntN(2)
		}
	}
	return q
}

// itemAlias is an alias for select item i: plain, or quoted with a space
// or in mixed case (output names keep their case).
func (g *gen) itemAlias(i int) string {
	n := strconv.Itoa(i + 1)
	switch g.r.IntN(5) {
	case 0:
		return `"c ` + n + `"`
	case 1:
		return "`Col" + n + "`"
	case 2:
		return `"Sum-` + n + `"`
	}
	return "c" + n
}

// duplicateNames now and then gives a select item the output name of an
// earlier one (SQL allows it; JSON keys are then made unique). Only when
// nothing refers to items by name, which would be ambiguous.
func (g *gen) duplicateNames(q *query) {
	if len(q.items) < 2 || len(q.order) > 0 || len(q.group) > 0 || q.having != nil || !g.chance(0.15) {
		return
	}
	k := 1 + g.r.IntN(len(q.items)-1)
	j := g.r.IntN(k)
	name := q.itemName(j)
	if strings.ContainsAny(name, "`()' ") || name == "" {
		return
	}
	q.items[k].alias = quoteName(name, styleDouble)
}

func (g *gen) anyType() typ {
	return pick(g, []typ{tInt, tInt, tDec, tStr, tStr, tBool})
}

func (g *gen) plain(q *query) {
	if g.chance(0.12) {
		// SELECT * (or alias.*): every attribute of each item.
		q.star, q.starQualified = true, q.alias != "" && g.chance(0.5)
	}
	for range 1 + g.r.IntN(4) {
		if q.star {
			break
		}
		if g.chance(0.1) {
			q.items = append(q.items, item{e: g.division()})
			continue
		}
		q.items = append(q.items, item{e: g.gen(g.anyType(), g.r.IntN(3), false, false)})
	}
	if !g.chance(0.6) {
		return
	}
	for range g.r.IntN(3) {
		if q.star {
			if e := g.gen(g.anyType(), g.r.IntN(2), false, false); !e.isConst() && !e.approx {
				q.order = append(q.order, ref{item: -1, e: e, desc: g.chance(0.4)})
			}
			continue
		}
		k := g.r.IntN(len(q.items))
		if q.items[k].e.approx || g.chance(0.3) {
			e := g.gen(g.anyType(), g.r.IntN(2), false, false)
			if !e.isConst() {
				q.order = append(q.order, ref{item: -1, e: e, desc: g.chance(0.4)})
			}
			continue
		}
		q.order = append(q.order, g.itemRef(q, k))
	}
	// id is unique: the order is total.
	q.order = append(q.order, ref{item: -1, e: g.colRef(columns[0]), desc: g.chance(0.3)})
	q.total = true
}

// itemRef refers to item k by expression, alias or ordinal.
func (g *gen) itemRef(q *query, k int) ref {
	r := ref{item: k, form: refForm(g.r.IntN(3)), desc: g.chance(0.4)}
	if r.form == byAlias && q.items[k].alias == "" {
		q.items[k].alias = "c" + strconv.Itoa(k+1)
	}
	return r
}

func (g *gen) distinct(q *query) {
	for range 1 + g.r.IntN(3) {
		// Mostly columns and shallow expressions, so rows repeat.
		q.items = append(q.items, item{e: g.gen(g.anyType(), g.r.IntN(2)*g.r.IntN(2), false, false)})
	}
	if !g.chance(0.6) {
		return
	}
	for _, k := range g.r.Perm(len(q.items)) {
		q.order = append(q.order, g.itemRef(q, k))
	}
	q.total = true
}

// groupKey draws a GROUP BY key that reads a column (a constant key is
// pointless, and SQLite may fold it into an integer, an ordinal).
func (g *gen) groupKey() *expr {
	for {
		if k := g.groupKey1(); !k.isConst() {
			return k
		}
	}
}

func (g *gen) groupKey1() *expr {
	if g.chance(0.55) {
		c := pick(g, []string{"i", "j", "j", "d", "s", "t", "t", "b", "m_x", "m_y", "pk", "my_attr", "a_b", "h", "x_y", "status", "date", "rank", "l_0", "l_1"})
		return g.colRef(colByLite(c))
	}
	switch g.r.IntN(6) {
	case 0:
		return binop(tInt, "%", g.column(tInt, true, false), intLit(g.r.Int64N(4)+2))
	case 1:
		return fn(tStr, pick(g, []string{"LOWER", "UPPER"}), g.column(tStr, false, true))
	case 2:
		return fn2(tStr, "SUBSTRING", "SUBSTRING", "substr", g.column(tStr, false, false), intLit(1), intLit(1))
	case 3:
		return g.pred(0)
	case 4:
		return g.caseExpr(tStr, 1, false, false)
	}
	return g.coalesce(tInt, 1, true, false)
}

func (g *gen) grouped(q *query) {
	nKeys := 1 + g.r.IntN(2)
	selectKeys := g.chance(0.9)
	for range nKeys {
		k := g.groupKey()
		if !selectKeys {
			q.group = append(q.group, ref{item: -1, e: k})
			continue
		}
		q.items = append(q.items, item{e: k, key: true})
		q.group = append(q.group, g.itemRef(q, len(q.items)-1))
	}
	for range 1 + g.r.IntN(3) {
		q.items = append(q.items, item{e: g.agg(true)})
	}
	// Shuffle the select list so keys are not always first; refs follow.
	perm := g.r.Perm(len(q.items))
	items := make([]item, len(q.items))
	for from, to := range perm {
		items[to] = q.items[from]
	}
	for i := range q.group {
		if q.group[i].item >= 0 {
			q.group[i].item = perm[q.group[i].item]
		}
	}
	q.items = items
	for i := range q.items {
		if q.items[i].alias != "" {
			q.items[i].alias = "g" + strconv.Itoa(i+1)
		}
	}
	if g.chance(0.35) {
		q.having = g.havingPred(q, 1)
	}
	if !selectKeys || !g.chance(0.6) {
		return
	}
	for range g.r.IntN(3) {
		if g.chance(0.2) {
			q.order = append(q.order, ref{item: -1, e: g.agg(false), desc: g.chance(0.5)})
			continue
		}
		k := g.r.IntN(len(q.items))
		if q.items[k].e.approx {
			continue
		}
		q.order = append(q.order, g.itemRef(q, k))
	}
	// Every key, last: the order is total.
	for k, it := range q.items {
		if it.key {
			q.order = append(q.order, ref{item: k, form: byOrdinal, desc: g.chance(0.3)})
		}
	}
	q.total = true
}

// havingPred draws a HAVING condition over aggregates and group keys.
func (g *gen) havingPred(q *query, depth int) *expr {
	alts := []weighted{
		w(4, func() *expr {
			a := g.agg(false)
			op := pick(g, cmpOps)
			return mkSame(tBool, "HAVING comparison", []*expr{a, g.lit(a.t, false, a.ascii)},
				func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
		}),
		w(1, func() *expr {
			a := g.avg(true)
			op := pick(g, cmpOps)
			return mkSame(tBool, "HAVING AVG", []*expr{a, g.lit(a.t, true, false)},
				func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
		}),
		w(1, func() *expr {
			a := g.agg(false)
			lo, hi := g.lit(a.t, false, false), g.lit(a.t, false, false)
			if litLess(hi, lo) {
				lo, hi = hi, lo
			}
			return mkSame(tBool, "HAVING BETWEEN", []*expr{a, lo, hi},
				func(k []string) string { return "(" + k[0] + " BETWEEN " + k[1] + " AND " + k[2] + ")" })
		}),
	}
	var aggItems []int
	for k, it := range q.items {
		if it.e.agg && !it.e.approx && !it.key {
			aggItems = append(aggItems, k)
		}
	}
	if len(aggItems) > 0 {
		alts = append(alts, w(1, func() *expr {
			// An aggregate's alias (MySQL and SQLite resolve it).
			k := pick(g, aggItems)
			if q.items[k].alias == "" {
				q.items[k].alias = "g" + strconv.Itoa(k+1)
			}
			it := q.items[k]
			a := leaf(it.e.t, "HAVING alias", it.alias, it.alias)
			a.agg = true
			op := pick(g, cmpOps)
			return mkSame(tBool, "HAVING comparison", []*expr{a, g.lit(it.e.t, false, it.e.ascii)},
				func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
		}))
	}
	var keys []*expr
	for _, r := range q.group {
		if r.item >= 0 {
			keys = append(keys, q.items[r.item].e)
		} else {
			keys = append(keys, r.e)
		}
	}
	if len(keys) > 0 { // none without GROUP BY
		alts = append(alts, w(2, func() *expr {
			k := pick(g, keys)
			if k.t == tBool {
				return k
			}
			op := pick(g, cmpOps)
			return mkSame(tBool, "HAVING key comparison", []*expr{k, g.lit(k.t, false, false)},
				func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
		}))
	}
	if depth > 0 {
		alts = append(alts,
			w(2, func() *expr {
				return mkSame(tBool, "AND", []*expr{g.havingPred(q, depth-1), g.havingPred(q, depth-1)},
					func(k []string) string { return "(" + k[0] + " AND " + k[1] + ")" })
			}),
			w(2, func() *expr {
				return mkSame(tBool, "OR", []*expr{g.havingPred(q, depth-1), g.havingPred(q, depth-1)},
					func(k []string) string { return "(" + k[0] + " OR " + k[1] + ")" })
			}),
			w(1, func() *expr { return not(g.havingPred(q, depth-1)) }),
		)
	}
	return g.choose(alts...)
}

// copy returns a copy whose slices may be modified.
func (q *query) copy() *query {
	c := *q
	c.items = append([]item(nil), q.items...)
	c.group = append([]ref(nil), q.group...)
	c.order = append([]ref(nil), q.order...)
	return &c
}

// shrinks lists smaller variants of q, most drastic first.
func (q *query) shrinks() []*query {
	var out []*query
	add := func(f func(c *query) bool) {
		c := q.copy()
		if f(c) {
			out = append(out, c)
		}
	}
	add(func(c *query) bool { ok := c.limit >= 0; c.limit, c.offset = -1, -1; return ok })
	add(func(c *query) bool { ok := c.offset >= 0; c.offset = -1; return ok })
	add(func(c *query) bool { ok := c.having != nil; c.having = nil; return ok })
	add(func(c *query) bool {
		ok := len(c.order) > 0
		c.order, c.total, c.limit, c.offset = nil, false, -1, -1
		return ok
	})
	add(func(c *query) bool { ok := c.where != nil; c.where = nil; return ok })
	add(func(c *query) bool {
		ok := c.keyCond != nil && c.keyCond.render(true) != "pk = 'P'" || c.keyExpr != nil
		c.keyCond, c.keyExpr, c.scan = leaf(tBool, "", "pk = 'P'", "pk = 'P'"), nil, false
		return ok
	})
	if q.keyExpr != nil {
		// Fewer branches or simpler branch filters; a variant that loses
		// its key conditions fails differently (no Scan allowed) and is
		// not kept.
		for _, k := range simplifications(q.keyExpr) {
			c := q.copy()
			c.keyExpr = k
			out = append(out, c)
		}
		for i := range q.keyExpr.kids {
			if or := q.keyExpr; or.label == "key OR" && len(or.kids) > 2 {
				c := q.copy()
				c.keyExpr = or.clone()
				c.keyExpr.kids = append(c.keyExpr.kids[:i:i], or.kids[i+1:]...)
				out = append(out, c)
			}
		}
	}
	if q.where != nil {
		for _, w := range simplifications(q.where) {
			c := q.copy()
			c.where = w
			out = append(out, c)
		}
	}
	if q.having != nil {
		for _, h := range simplifications(q.having) {
			c := q.copy()
			c.having = h
			out = append(out, c)
		}
	}
	for k := range q.items {
		add(func(c *query) bool { return c.dropItem(k) })
	}
	for k, it := range q.items {
		for _, e := range simplifications(it.e) {
			c := q.copy()
			c.items[k].e = e
			out = append(out, c)
		}
	}
	return out
}

// dropItem removes select item k unless something refers to it.
func (q *query) dropItem(k int) bool {
	if len(q.items) < 2 || q.items[k].key {
		return false
	}
	for _, rs := range [][]ref{q.group, q.order} {
		for i := range rs {
			if rs[i].item == k {
				return false
			}
			if rs[i].item > k {
				rs[i].item--
			}
		}
	}
	q.items = append(q.items[:k], q.items[k+1:]...)
	return true
}

// has reports whether any expression of q satisfies f.
func (q *query) has(f func(*expr) bool) bool {
	found := false
	visit := func(e *expr) {
		e.walk(func(n *expr) { found = found || f(n) })
	}
	visit(q.keyExpr)
	visit(q.where)
	visit(q.having)
	for _, it := range q.items {
		visit(it.e)
	}
	for _, r := range append(append([]ref(nil), q.group...), q.order...) {
		visit(r.e)
	}
	return found
}

func isColumn(e *expr) bool { return e.label == "column" || e.label == "document path" }
