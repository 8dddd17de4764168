package difftest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Subquery statement generator (doc.go, "Subqueries"), over the join
// dataset: every statement is written once with placeholders {d} {a} {b}
// {c} for the tables, rendered with the DynamoDB names for ddbsql and the
// plain names for SQLite.

// squery is one generated subquery statement.
type squery struct {
	sql    string // with table placeholders
	cols   int    // output columns (all compared as mixed N/S cells)
	labels []string
}

func (q *squery) render(jd *joinData, lite bool) string {
	name := func(t *jtable) string {
		if lite {
			return t.name
		}
		return "`" + t.ddb + "`"
	}
	return strings.NewReplacer("{d}", name(jd.d), "{a}", name(jd.a), "{b}", name(jd.b), "{c}", name(jd.c)).Replace(q.sql)
}

type sgen struct {
	r      *rand.Rand
	jd     *joinData
	labels []string
}

func (g *sgen) label(l string) { g.labels = append(g.labels, l) }

func (g *sgen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// keys draws 1–4 key literals (some of them dangling); aKey, bKey and cg one.
func (g *sgen) keys(format string, n int) string {
	k := 1 + g.r.IntN(4)
	out := make([]string, k)
	for i := range out {
		out[i] = fmt.Sprintf(format, g.r.IntN(n))
	}
	return strings.Join(out, ", ")
}

func (g *sgen) aKeys() string { return g.keys("'A%03d'", jaItems+10) }
func (g *sgen) aKey() string  { return fmt.Sprintf("'A%03d'", g.r.IntN(jaItems+10)) }
func (g *sgen) bKey() string  { return fmt.Sprintf("'B%02d'", g.r.IntN(jbKeys+3)) }
func (g *sgen) cg() string    { return fmt.Sprintf("'G%d'", g.r.IntN(jcGroups+2)) }
func (g *sgen) bKeys() string { return g.keys("'B%02d'", jbKeys+3) }
func (g *sgen) small() int    { return g.r.IntN(11) - 5 }

// dPart is a key condition on the driving table: a partition, sometimes
// narrowed by an id range.
func (g *sgen) dPart() string {
	pk := g.pick("'P'", "'Q'")
	if g.r.IntN(3) == 0 {
		lo := 1 + g.r.IntN(jdRowsP+jdRowsQ)
		return fmt.Sprintf("d.pk = %s AND d.id BETWEEN %d AND %d", pk, lo, lo+40+g.r.IntN(80))
	}
	return "d.pk = " + pk
}

// subSet is an uncorrelated subquery yielding one mixed column (with
// NULLs, duplicates, values of the wrong type), read by key.
func (g *sgen) subSet() (sql string, col string) {
	switch g.r.IntN(6) {
	case 0:
		return fmt.Sprintf("SELECT d2.ak FROM {d} d2 WHERE d2.pk = %s AND d2.i %s %d", g.pick("'P'", "'Q'"), g.pick("<", ">", "="), g.small()), "ak"
	case 1:
		return fmt.Sprintf("SELECT a2.abk FROM {a} a2 WHERE a2.ak IN (%s)", g.aKeys()), "bk"
	case 2:
		return fmt.Sprintf("SELECT b2.cg FROM {b} b2 WHERE b2.bk IN (%s)", g.bKeys()), "cg"
	case 3:
		return fmt.Sprintf("SELECT b2.bv FROM {b} b2 WHERE b2.bk IN (%s)", g.bKeys()), "i"
	case 4:
		return fmt.Sprintf("SELECT c2.cn FROM {c} c2 WHERE c2.cg = %s", g.cg()), "i"
	}
	return fmt.Sprintf("SELECT d2.cid FROM {d} d2 WHERE d2.pk = 'Q' AND d2.s = '%s'", jwords[g.r.IntN(len(jwords))]), "cid"
}

// predicate is a subquery predicate over the driving row d.
func (g *sgen) predicate() string {
	switch g.r.IntN(9) {
	case 0, 1:
		sub, col := g.subSet()
		not := g.pick("", "NOT ")
		g.label("IN (SELECT …), uncorrelated")
		if not != "" {
			g.label("NOT IN (SELECT …)")
		}
		return fmt.Sprintf("d.%s %sIN (%s)", col, not, sub)
	case 2:
		not := g.pick("", "NOT ")
		g.label("EXISTS, uncorrelated")
		return fmt.Sprintf("%sEXISTS (SELECT 1 FROM {b} b2 WHERE b2.bk = %s AND b2.bv > %d)", not, g.bKey(), g.small())
	case 3:
		g.label("scalar aggregate, uncorrelated")
		agg := g.pick("MAX(b2.bv)", "MIN(b2.bv)", "COUNT(*)", "SUM(b2.bv)", "COUNT(b2.bv)")
		return fmt.Sprintf("d.i %s (SELECT %s FROM {b} b2 WHERE b2.bk IN (%s))", g.pick("<", ">", "=", "<>", ">="), agg, g.bKeys())
	case 4:
		g.label("scalar of one item, uncorrelated")
		return fmt.Sprintf("d.i %s (SELECT a2.an FROM {a} a2 WHERE a2.ak = %s)", g.pick("<", ">", "=", "<>"), g.aKey())
	case 5:
		not := g.pick("", "NOT ")
		g.label("EXISTS, correlated")
		if not != "" {
			g.label("NOT EXISTS, correlated")
		}
		return fmt.Sprintf("%sEXISTS (SELECT 1 FROM {b} b2 WHERE b2.bk = d.bk%s)", not, g.bFilter())
	case 6:
		not := g.pick("", "NOT ")
		g.label("IN (SELECT …), correlated")
		if not != "" {
			g.label("NOT IN (SELECT …), correlated")
		}
		return fmt.Sprintf("d.i %sIN (SELECT b2.bv FROM {b} b2 WHERE b2.bk = d.bk%s)", not, g.bFilter())
	case 7:
		g.label("scalar aggregate, correlated")
		agg := g.pick("COUNT(*)", "MAX(c2.cn)", "SUM(c2.cx)", "COUNT(c2.cx)", "MIN(c2.cx)")
		return fmt.Sprintf("(SELECT %s FROM {c} c2 WHERE c2.cg = d.cg) %s %d", agg, g.pick("<", ">", "=", ">="), g.small()+5)
	}
	switch g.r.IntN(3) {
	case 0:
		g.label("correlated on an attribute that is no key (a Scan)")
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("%sEXISTS (SELECT 1 FROM {b} b2 WHERE b2.bt = d.s)", g.pick("", "NOT "))
		}
		return fmt.Sprintf("(SELECT COUNT(*) FROM {a} a2 WHERE a2.at = d.s) %s %d", g.pick("<", ">", "="), g.r.IntN(25))
	case 1:
		g.label("nested subquery")
		return fmt.Sprintf("d.ak %sIN (SELECT a2.ak FROM {a} a2 WHERE a2.ak IN (%s) AND a2.abk IN (SELECT b3.bk FROM {b} b3 WHERE b3.bk IN (%s) AND b3.bv > %d))",
			g.pick("", "NOT "), g.aKeys(), g.bKeys(), g.small())
	}
	g.label("EXISTS, correlated on two columns")
	return fmt.Sprintf("%sEXISTS (SELECT 1 FROM {a} a2 WHERE a2.ak = d.ak AND a2.an = d.i)", g.pick("", "NOT "))
}

// bFilter is an optional extra condition of a correlated subquery on jb;
// without a key condition of its own that subquery is a Scan.
func (g *sgen) bFilter() string {
	switch g.r.IntN(3) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" AND b2.bv %s %d", g.pick("<", ">", "<>"), g.small())
	}
	return fmt.Sprintf(" AND b2.bk IN (%s)", g.bKeys())
}

// wrap puts a predicate inside OR, NOT or AND with another condition.
func (g *sgen) wrap(p string) string {
	switch g.r.IntN(6) {
	case 0:
		g.label("inside OR")
		return fmt.Sprintf("(%s OR d.i %s %d)", p, g.pick("<", ">", "="), g.small())
	case 1:
		g.label("inside NOT")
		return "NOT (" + p + ")"
	case 2:
		g.label("two subqueries")
		return fmt.Sprintf("(%s %s %s)", p, g.pick("AND", "OR"), g.predicate())
	}
	return p
}

// fanout is a statement whose key IN (SELECT …), or key = (SELECT …) of
// one item, can be a keyed fan-out.
func (g *sgen) fanout() squery {
	if g.r.IntN(5) == 0 {
		g.label("fan-out: key = (SELECT …)")
		id := 1 + g.r.IntN(jdRowsP+jdRowsQ+5)
		pk := "'P'"
		if id > jdRowsP {
			pk = "'Q'"
		}
		return squery{sql: fmt.Sprintf("SELECT c.cid, c.ct FROM {c} c WHERE c.cid = (SELECT d2.cid FROM {d} d2 WHERE d2.pk = %s AND d2.id = %d)", pk, id), cols: 2}
	}
	sub, col := g.subSet()
	var sql string
	cols := 2
	switch col {
	case "ak":
		g.label("fan-out: BatchGetItem by table key")
		sql = "SELECT a.ak, a.an FROM {a} a WHERE a.ak IN (" + sub + ")"
	case "bk":
		g.label("fan-out: Query by partition key")
		sql = "SELECT b.bk, b.bs, b.bv FROM {b} b WHERE b.bk IN (" + sub + ")"
		cols = 3
	case "cg":
		g.label("fan-out: GSI Query and fetch")
		sql = "SELECT c.cid, c.cx FROM {c} c WHERE c.cg IN (" + sub + ")"
	default:
		g.label("fan-out: BatchGetItem by numeric key")
		sub = fmt.Sprintf("SELECT d2.cid FROM {d} d2 WHERE d2.pk = %s", g.pick("'P'", "'Q'"))
		sql = "SELECT c.cid, c.ct FROM {c} c WHERE c.cid IN (" + sub + ")"
	}
	if g.r.IntN(3) == 0 {
		g.label("fan-out with another condition")
		switch col {
		case "ak":
			sql += fmt.Sprintf(" AND a.an %s %d", g.pick("<", ">"), g.small())
		case "bk":
			sql += fmt.Sprintf(" AND b.bv %s %d", g.pick("<", ">"), g.small())
		default:
			sql += " AND c.ct IS NOT NULL"
		}
	}
	return squery{sql: sql, cols: cols}
}

// genSubquery draws one statement.
func (g *sgen) genSubquery() squery {
	var q squery
	switch g.r.IntN(9) {
	case 0:
		q = g.fanout()
	case 1:
		g.label("scalar in the select list")
		q = squery{sql: fmt.Sprintf("SELECT d.id, (SELECT COUNT(*) FROM {b} b2 WHERE b2.bk = d.bk) FROM {d} d WHERE %s", g.dPart()), cols: 2}
		if g.r.IntN(2) == 0 {
			q.sql = fmt.Sprintf("SELECT d.id, (SELECT MAX(a2.an) FROM {a} a2 WHERE a2.ak IN (%s)) FROM {d} d WHERE %s", g.aKeys(), g.dPart())
		}
	case 5:
		g.label("scalar subquery in HAVING")
		q = squery{sql: fmt.Sprintf("SELECT d.s, COUNT(*) FROM {d} d WHERE %s GROUP BY d.s HAVING COUNT(*) > (SELECT COUNT(*) FROM {b} b2 WHERE b2.bk IN (%s))", g.dPart(), g.bKeys()), cols: 2}
	case 6:
		g.label("aggregate over a fan-out")
		sub, _ := g.subSet()
		if !strings.Contains(sub, "b2.cg") {
			sub = fmt.Sprintf("SELECT d2.bk FROM {d} d2 WHERE d2.pk = %s", g.pick("'P'", "'Q'"))
		} else {
			sub = strings.Replace(sub, "SELECT b2.cg", "SELECT b2.bk", 1)
		}
		q = squery{sql: "SELECT COUNT(*), SUM(b.bv), MAX(b.bt) FROM {b} b WHERE b.bk IN (" + sub + ")", cols: 3}
	case 7:
		g.label("subquery in a join's WHERE")
		q = squery{sql: fmt.Sprintf("SELECT d.id, a.an FROM {d} d JOIN {a} a ON a.ak = d.ak WHERE %s AND %s", g.dPart(), g.wrap(g.predicate())), cols: 2}
	case 2:
		g.label("predicate in the select list (CASE)")
		q = squery{sql: fmt.Sprintf("SELECT d.id, CASE WHEN %s THEN 'y' ELSE 'n' END FROM {d} d WHERE %s", g.predicate(), g.dPart()), cols: 2}
	default:
		q = squery{sql: fmt.Sprintf("SELECT d.id, d.i FROM {d} d WHERE %s AND %s", g.dPart(), g.wrap(g.predicate())), cols: 2}
	}
	q.labels = g.labels
	return q
}
