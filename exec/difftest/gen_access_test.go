package difftest

import (
	"strconv"
	"strings"
)

// Access paths beyond the table's key: the sparse GSI ByStatus (status,
// date), the sparse LSI ByRank (pk, rank), index hints, FROM t.index, and
// WHERE clauses that nest key and other conditions freely.

// indexMembership is the SQLite condition for "the item is in index".
func indexMembership(index string) string {
	if index == gsiName {
		return `("status" IS NOT NULL AND "date" IS NOT NULL)`
	}
	return `"rank" IS NOT NULL`
}

// nameLabels says how a column reference was written.
func nameLabels(e *expr) []string {
	text := e.render(false)
	var ls []string
	switch {
	case strings.Contains(text, `"`):
		ls = append(ls, nameStyleLabels[styleDouble])
	case strings.Contains(text, "`"):
		ls = append(ls, nameStyleLabels[styleBacktick])
	default:
		ls = append(ls, nameStyleLabels[styleBare])
	}
	if strings.Count(text, ".") > strings.Count(e.name, ".") {
		ls = append(ls, "names: qualified by the alias")
	}
	if strings.Contains(e.name, "[") {
		ls = append(ls, "names: list index")
	}
	switch e.name {
	case "value", "count", "data", "size", "name", "status", "date":
		ls = append(ls, "names: DynamoDB reserved word")
	case "my-attr", "a.b", "#h", "x y":
		ls = append(ls, "names: needing quotes ("+e.name+")")
	}
	return ls
}

// statusLit is a GSI partition key value, now and then one no item has.
func (g *gen) statusLit() string {
	if g.chance(0.1) {
		return "'none'"
	}
	return "'" + pick(g, statusPool) + "'"
}

// rangeCond is a condition on a numeric sort key named col over values
// 0..span.
func (g *gen) rangeCond(col string, lo, span int) string {
	a := lo + g.r.IntN(span)
	switch g.r.IntN(5) {
	case 0:
		return col + " BETWEEN " + strconv.Itoa(a) + " AND " + strconv.Itoa(a+g.r.IntN(span/2+1))
	case 1:
		return col + " = " + strconv.Itoa(a)
	}
	return col + " " + pick(g, []string{"<", "<=", ">", ">="}) + " " + strconv.Itoa(a)
}

// indexAccess draws a read through an index: a GSI or LSI key condition
// (the planner's choice of path), with or without a hint, or the index
// itself (FROM t.index), keyed or scanned.
func (g *gen) indexAccess(q *query) {
	// gsiCond conditions the GSI's keys; without a condition on date it
	// does not require the sort key (see data_test.go for why the data
	// never tests that).
	withDate := false
	gsiCond := func() *expr {
		c := "status = " + g.statusLit()
		if g.chance(0.15) {
			c = "status IN (" + g.statusLit() + ", " + g.statusLit() + ")"
		}
		if withDate = g.chance(0.6); withDate {
			c += " AND " + g.rangeCond("date", 0, 40)
		}
		return g.keyText(c)
	}
	lsiCond := func() *expr {
		return g.and(g.keyText(pick(g, []string{"pk = 'P'", "pk = 'Q'"})), g.rankCond())
	}
	switch n := g.r.IntN(100); {
	case n < 25:
		q.keyCond, q.keyLabel = gsiCond(), "GSI key condition"
	case n < 40:
		q.keyCond, q.keyLabel = lsiCond(), "LSI sort-key condition"
	case n < 50:
		// A disjunction across the table and the GSI: a union.
		q.keyCond, q.keyLabel = g.or(g.keyText("pk = 'Q'"), gsiCond()), "key disjunction across table and GSI"
	case n < 75:
		// A hint: the rows must not change, or the hint is refused
		// (sparse_index_hint) when the index might miss matching items.
		idx := pick(g, []string{gsiName, lsiName})
		verb := pick(g, []string{"USE", "FORCE"})
		q.hint = verb + " INDEX (" + quoteName(idx, g.drawStyle()) + ")"
		var c *expr
		switch g.r.IntN(3) {
		case 0: // the index's own key condition: the hint is honoured
			c = lsiCond()
			if idx == gsiName {
				c = gsiCond()
			}
			q.hintHonoured = idx == lsiName || withDate
		case 1: // a key condition of the table: the index may miss items
			t := "pk = 'P'"
			if g.chance(0.5) {
				t += " AND " + g.rangeCond("id", 1, 360)
			}
			c = g.keyText(t)
		default: // the table's key and a condition on the index key
			c = g.and(g.keyText("pk = 'P'"), g.rankCond())
			if idx == gsiName {
				c = g.keyText("pk = 'P' AND " + pick(g, []string{"status IS NOT NULL", "date > 3", "status = 'open'", "(date > 3 OR id < 10)"}))
			}
		}
		q.keyCond, q.keyLabel = c, "index hint"
	default:
		// The index itself: only the items it holds.
		q.index = pick(g, []string{gsiName, lsiName})
		q.indexStyle = g.drawStyle()
		switch {
		case g.chance(0.3):
			q.scan, q.keyLabel = true, "index read directly (Scan)"
		case q.index == gsiName:
			q.keyCond, q.keyLabel = gsiCond(), "index read directly (Query)"
		case g.chance(0.6):
			q.keyCond, q.keyLabel = lsiCond(), "index read directly (Query)"
		default:
			q.keyCond, q.keyLabel = g.keyText(pick(g, []string{"pk = 'P'", "pk = 'Q'"})), "index read directly (Query)"
		}
	}
}

// mixedWhere is a WHERE that nests key conditions (of the table and its
// indexes) and other predicates in AND, OR and NOT at any depth: DNF or
// not, keyed or not. Without AllowScan ddbsql must return the right rows
// or refuse with scan_not_allowed, never anything else.
func (g *gen) mixedWhere(depth int) *expr {
	if depth <= 0 || g.chance(0.25) {
		if g.chance(0.55) {
			return g.keyLeaf()
		}
		return g.pred(0)
	}
	and := func(a, b *expr) *expr {
		return mkSame(tBool, "AND", []*expr{a, b}, func(k []string) string { return "(" + k[0] + " AND " + k[1] + ")" })
	}
	switch g.r.IntN(7) {
	case 0, 1, 2:
		return and(g.mixedWhere(depth-1), g.mixedWhere(depth-1))
	case 3, 4, 5:
		return mkSame(tBool, "OR", []*expr{g.mixedWhere(depth - 1), g.mixedWhere(depth - 1)},
			func(k []string) string { return "(" + k[0] + " OR " + k[1] + ")" })
	}
	return not(g.mixedWhere(depth - 1))
}

// keyLeaf is one condition on a key attribute.
func (g *gen) keyLeaf() *expr {
	switch g.r.IntN(12) {
	case 0, 1, 2:
		return g.keyText("pk = " + pick(g, []string{"'P'", "'P'", "'Q'", "'R'"}))
	case 3:
		return g.keyText("pk IN (" + pick(g, []string{"'P', 'Q'", "'Q', 'Q'", "'P', NULL", "'R', 'P', 'Q'", "'Q'"}) + ")")
	case 4:
		return g.keyText(pick(g, []string{"pk <> 'P'", "pk > 'P'", "pk LIKE 'P%'", "pk IS NULL"}))
	case 5, 6, 7:
		return g.keyText(g.rangeCond("id", 1, 370))
	case 8:
		ids := make([]string, 1+g.r.IntN(4))
		for i := range ids {
			ids[i] = strconv.Itoa(1 + g.r.IntN(370))
		}
		return g.keyText("id IN (" + strings.Join(ids, ", ") + ")")
	case 9:
		return g.keyText("status = " + g.statusLit())
	case 10:
		return g.keyText(g.rangeCond("date", 0, 40))
	}
	return g.rankCond()
}

func (g *gen) and(a, b *expr) *expr {
	return mkSame(tBool, "", []*expr{a, b}, func(k []string) string { return "(" + k[0] + " AND " + k[1] + ")" })
}

func (g *gen) or(a, b *expr) *expr {
	return mkSame(tBool, "", []*expr{a, b}, func(k []string) string { return "(" + k[0] + " OR " + k[1] + ")" })
}

// rankCond is a condition on the LSI's string sort key: a comparison,
// BETWEEN (now and then with its bounds reversed), begins_with, or LIKE
// with a literal prefix (escaped wildcards included; an unescaped _ keeps
// the LIKE on the client).
func (g *gen) rankCond() *expr {
	col := g.colRef(colByLite("rank"))
	lit := func() *expr { return strLit(pick(g, rankPool)) }
	prefix := func() []rune {
		p := []rune(pick(g, rankPool))
		return p[:1+g.r.IntN(len(p))]
	}
	switch g.r.IntN(6) {
	case 0, 1:
		op := pick(g, []string{"=", "<", "<=", ">", ">="})
		return mkSame(tBool, "sort key "+op, []*expr{col, lit()}, func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
	case 2:
		lo, hi := lit(), lit()
		if litLess(hi, lo) != g.chance(0.1) {
			lo, hi = hi, lo
		}
		return mkSame(tBool, "sort key BETWEEN", []*expr{col, lo, hi}, func(k []string) string { return "(" + k[0] + " BETWEEN " + k[1] + " AND " + k[2] + ")" })
	case 3:
		return mk(tBool, "sort key begins_with", []*expr{col, strLit(string(prefix()))},
			func(k []string) string { return "begins_with(" + k[0] + ", " + k[1] + ")" },
			func(k []string) string { return "coalesce(instr(" + k[0] + ", " + k[1] + ") = 1, 0)" })
	}
	var b strings.Builder
	for _, r := range prefix() {
		if (r == '%' || r == '_' || r == '\\') && g.chance(0.8) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('%')
	return mk(tBool, "sort key LIKE prefix", []*expr{col, strLit(b.String())},
		func(k []string) string { return "(" + k[0] + " LIKE " + k[1] + ")" },
		func(k []string) string { return "(" + k[0] + " LIKE " + k[1] + ` ESCAPE '\')` })
}
