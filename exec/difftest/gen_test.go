package difftest

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// gen draws random expressions and queries over a dataset.
type gen struct {
	r  *rand.Rand
	ds *dataset
	// alias is the table's alias in the query being drawn ("" for none):
	// column references may be qualified by it.
	alias string
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

// choose runs one of the weighted alternatives.
func (g *gen) choose(alts ...weighted) *expr {
	total := 0
	for _, a := range alts {
		total += a.w
	}
	n := g.r.IntN(total)
	for _, a := range alts {
		if n < a.w {
			return a.f()
		}
		n -= a.w
	}
	panic("unreachable")
}

type weighted struct {
	w int
	f func() *expr
}

func w(n int, f func() *expr) weighted { return weighted{n, f} }

// gen draws an expression of type t. depth bounds nesting; small asks for
// an integer small enough to multiply; ascii asks for an ASCII string.
func (g *gen) gen(t typ, depth int, small, ascii bool) *expr {
	switch t {
	case tBool:
		return g.pred(depth)
	case tInt:
		return g.intExpr(depth, small)
	case tDec:
		return g.decExpr(depth)
	}
	return g.strExpr(depth, ascii)
}

func (g *gen) column(t typ, small, ascii bool) *expr {
	var cs []column
	for _, c := range columnsOf(t) {
		if (!small || c.small) && (!ascii || c.ascii) {
			cs = append(cs, c)
		}
	}
	return g.colRef(pick(g, cs))
}

// lit draws a literal of type t, usually a value present in the data.
func (g *gen) lit(t typ, small, ascii bool) *expr {
	switch t {
	case tBool:
		return boolLit(g.chance(0.5))
	case tInt:
		if !small && g.chance(0.5) {
			if g.chance(0.7) {
				return intLit(pick(g, g.ds.ints["big"]))
			}
			return intLit(bigValue(g.r))
		}
		if g.chance(0.6) {
			for _, name := range []string{"i", "j", "m_x", "m_sub_z", "id", "my_attr", "h", "date", "l_0"} {
				if g.chance(0.4) {
					return intLit(pick(g, g.ds.ints[name]))
				}
			}
		}
		return intLit(g.r.Int64N(51) - 25)
	case tDec:
		if g.chance(0.6) {
			return decLit(pick(g, g.ds.decs))
		}
		if g.chance(0.5) {
			return decLit((g.r.Int64N(41) - 20) * 50)
		}
		return decLit(g.r.Int64N(200_001) - 100_000)
	}
	var s string
	switch {
	case ascii && g.chance(0.7):
		s = pick(g, asciiPool)
	case ascii:
		s = randString(g.r, true)
	case g.chance(0.5):
		s = pick(g, g.ds.strs[pick(g, []string{"s", "t", "m_y", "a_b", "x_y", "status", "rank"})])
	case g.chance(0.6):
		s = pick(g, unicodePool)
	default:
		s = randString(g.r, false)
	}
	return strLit(s)
}

func (g *gen) intExpr(depth int, small bool) *expr {
	leafOnly := depth <= 0
	anyInt := func() *expr { return g.intExpr(depth-1, small) }
	smallInt := func() *expr { return g.intExpr(depth-1, true) }
	alts := []weighted{
		w(8, func() *expr { return g.column(tInt, small, false) }),
		w(3, func() *expr { return g.lit(tInt, small, false) }),
	}
	if !leafOnly {
		alts = append(alts,
			w(2, func() *expr { return g.arith(tInt, "+", anyInt(), anyInt(), small) }),
			w(2, func() *expr { return g.arith(tInt, "-", anyInt(), anyInt(), small) }),
			w(1, func() *expr { return g.neg(anyInt()) }),
			w(1, func() *expr { return g.abs(anyInt()) }),
			w(1, func() *expr {
				e := binop(tInt, "%", anyInt(), g.divisor(depth))
				e.small = e.kids[0].small
				return e
			}),
			w(1, func() *expr {
				e := mk(tInt, "DIV", []*expr{anyInt(), g.divisor(depth)},
					func(k []string) string { return "(" + k[0] + " DIV " + k[1] + ")" },
					func(k []string) string { return "(" + k[0] + " / " + k[1] + ")" })
				e.small = e.kids[0].small
				return e
			}),
			w(1, func() *expr { return g.caseExpr(tInt, depth, small, false) }),
			w(1, func() *expr { return g.coalesce(tInt, depth, small, false) }),
			w(1, func() *expr { return g.strLen(depth) }),
		)
		if !small {
			alts = append(alts, w(2, func() *expr { return binop(tInt, "*", smallInt(), smallInt()) }))
		}
	}
	return g.choose(alts...)
}

// divisor is a right operand for % and DIV: mostly a non-zero literal,
// sometimes an expression that can be 0 or NULL (both give NULL).
func (g *gen) divisor(depth int) *expr {
	if g.chance(0.7) {
		n := g.r.Int64N(9) + 1
		if g.chance(0.3) {
			n = -n
		}
		return intLit(n)
	}
	return g.intExpr(depth-1, true)
}

func (g *gen) arith(t typ, op string, a, b *expr, small bool) *expr {
	e := binop(t, op, a, b)
	e.small = a.small && b.small
	if small && !e.small {
		return a
	}
	return e
}

func (g *gen) neg(a *expr) *expr {
	// "-(x)", never "--x": -- starts a comment in MySQL and SQLite.
	e := mkSame(a.t, "unary -", []*expr{a}, func(k []string) string { return "-(" + k[0] + ")" })
	e.small = a.small
	return e
}

func (g *gen) abs(a *expr) *expr {
	e := fn(a.t, "ABS", a)
	e.small = a.small
	return e
}

// strLen is CHAR_LENGTH (characters; SQLite length) or LENGTH/size (bytes;
// SQLite length of the UTF-8 blob).
func (g *gen) strLen(depth int) *expr {
	s := g.strExpr(depth-1, false)
	var e *expr
	switch g.r.IntN(3) {
	case 0:
		e = fn2(tInt, "CHAR_LENGTH", "CHAR_LENGTH", "length", s)
	case 1:
		e = mk(tInt, "LENGTH", []*expr{s},
			func(k []string) string { return "LENGTH(" + k[0] + ")" },
			func(k []string) string { return "length(CAST(" + k[0] + " AS BLOB))" })
	default:
		e = mk(tInt, "size", []*expr{s},
			func(k []string) string { return "size(" + k[0] + ")" },
			func(k []string) string { return "length(CAST(" + k[0] + " AS BLOB))" })
	}
	e.small = true
	return e
}

func (g *gen) decExpr(depth int) *expr {
	anyDec := func() *expr { return g.decExpr(depth - 1) }
	alts := []weighted{
		w(8, func() *expr { return g.column(tDec, false, false) }),
		w(3, func() *expr { return g.lit(tDec, false, false) }),
	}
	if depth > 0 {
		alts = append(alts,
			w(2, func() *expr { return binop(tDec, "+", anyDec(), anyDec()) }),
			w(2, func() *expr { return binop(tDec, "-", anyDec(), asDec(g.intExpr(depth-1, true))) }),
			w(2, func() *expr {
				e := mk(tDec, "*", []*expr{anyDec(), g.intExpr(0, true)},
					func(k []string) string { return "(" + k[0] + " * " + k[1] + ")" },
					func(k []string) string { return "(" + k[0] + " * " + k[1] + ")" })
				return e
			}),
			w(1, func() *expr { return g.neg(anyDec()) }),
			w(1, func() *expr { return g.abs(anyDec()) }),
			w(1, func() *expr { return g.caseExpr(tDec, depth, false, false) }),
			w(1, func() *expr { return g.coalesce(tDec, depth, false, false) }),
		)
	}
	return g.choose(alts...)
}

func (g *gen) strExpr(depth int, ascii bool) *expr {
	sub := func() *expr { return g.strExpr(depth-1, ascii) }
	alts := []weighted{
		w(8, func() *expr { return g.column(tStr, false, ascii) }),
		w(3, func() *expr { return g.lit(tStr, false, ascii) }),
	}
	if depth > 0 {
		alts = append(alts,
			w(2, func() *expr {
				// MySQL SUBSTRING and SQLite substr agree for p >= 1, n >= 1
				// (see doc.go for the rest).
				// ddbsql's parser takes only a column as SUBSTRING's first
				// argument (a known bug, see doc.go): mostly columns.
				x := g.column(tStr, false, ascii)
				if g.chance(0.1) {
					x = sub()
				}
				args := []*expr{x, intLit(g.r.Int64N(5) + 1)}
				if g.chance(0.7) {
					args = append(args, intLit(g.r.Int64N(4)+1))
				}
				e := fn2(tStr, "SUBSTRING", "SUBSTRING", "substr", args...)
				e.ascii = args[0].ascii
				return e
			}),
			w(2, func() *expr {
				name := pick(g, []string{"LOWER", "UPPER"})
				e := fn(tStr, name, g.strExpr(depth-1, true))
				e.ascii = true
				return e
			}),
			w(1, func() *expr {
				a, b := sub(), sub()
				e := mk(tStr, "CONCAT", []*expr{a, b},
					func(k []string) string { return "CONCAT(" + k[0] + ", " + k[1] + ")" },
					func(k []string) string { return "(" + k[0] + " || " + k[1] + ")" })
				if g.chance(0.4) {
					// Standard SQL's (and SQLite's) operator.
					e = mkSame(tStr, "||", []*expr{a, b}, func(k []string) string { return "(" + k[0] + " || " + k[1] + ")" })
				}
				e.ascii = a.ascii && b.ascii
				return e
			}),
			w(1, func() *expr { return g.caseExpr(tStr, depth, false, ascii) }),
			w(1, func() *expr { return g.coalesce(tStr, depth, false, ascii) }),
		)
	}
	return g.choose(alts...)
}

// caseExpr is a searched or simple CASE with branches of type t.
func (g *gen) caseExpr(t typ, depth int, small, ascii bool) *expr {
	n := 1 + g.r.IntN(2)
	var kids []*expr
	simple := g.chance(0.35)
	if simple {
		ot := pick(g, []typ{tInt, tStr, tDec})
		kids = append(kids, g.gen(ot, depth-1, true, false))
		for range n {
			kids = append(kids, g.lit(ot, true, false), g.gen(t, depth-1, small, ascii))
		}
	} else {
		for range n {
			kids = append(kids, g.pred(depth-1), g.gen(t, depth-1, small, ascii))
		}
	}
	hasElse := g.chance(0.7)
	if hasElse {
		kids = append(kids, g.gen(t, depth-1, small, ascii))
	}
	render := func(k []string) string {
		var b strings.Builder
		b.WriteString("CASE")
		i := 0
		if simple {
			b.WriteString(" " + k[0])
			i = 1
		}
		for range n {
			b.WriteString(" WHEN " + k[i] + " THEN " + k[i+1])
			i += 2
		}
		if hasElse {
			b.WriteString(" ELSE " + k[i])
		}
		b.WriteString(" END")
		return b.String()
	}
	label := "CASE WHEN"
	if simple {
		label = "CASE x WHEN"
	}
	e := mkSame(t, label, kids, render)
	e.small, e.ascii = small, ascii
	return e
}

// coalesce is COALESCE, IFNULL or NULLIF over values of type t.
func (g *gen) coalesce(t typ, depth int, small, ascii bool) *expr {
	args := []*expr{g.gen(t, depth-1, small, ascii), g.gen(t, depth-1, small, ascii)}
	var e *expr
	switch g.r.IntN(4) {
	case 0:
		e = fn(t, "IFNULL", args...)
	case 1:
		e = fn(t, "NULLIF", args...)
	default:
		if g.chance(0.4) {
			args = append(args, g.lit(t, small, ascii))
		}
		e = fn(t, "COALESCE", args...)
	}
	e.small, e.ascii = small, ascii
	return e
}

// scalarType draws the type compared by a predicate.
func (g *gen) scalarType() typ {
	return pick(g, []typ{tInt, tInt, tInt, tDec, tStr, tStr})
}

// pred draws a predicate (tBool).
func (g *gen) pred(depth int) *expr {
	alts := []weighted{
		w(6, func() *expr { return g.cmp(depth) }),
		w(2, func() *expr { return g.isNull(depth) }),
		w(2, func() *expr { return g.inList(depth) }),
		w(2, func() *expr { return g.between(depth) }),
		w(2, func() *expr { return g.like(depth) }),
		w(2, func() *expr { return g.boolCol() }),
		w(1, func() *expr { return g.dynamoFunc() }),
		w(1, func() *expr {
			// TRUE, FALSE or NULL as a condition of its own.
			if g.chance(0.2) {
				return leaf(tBool, "NULL as a condition", "NULL", "NULL")
			}
			return mkSame(tBool, "TRUE or FALSE as a condition", []*expr{boolLit(g.chance(0.5))}, func(k []string) string { return k[0] })
		}),
		w(1, func() *expr {
			// An integer used as a predicate: TRUE unless 0 (MySQL and SQLite).
			e := g.column(tInt, true, false)
			return mkSame(tBool, "integer as predicate", []*expr{e}, func(k []string) string { return k[0] })
		}),
	}
	alts = append(alts, w(1, func() *expr { return g.orChain() }))
	if depth > 0 {
		alts = append(alts,
			w(3, func() *expr {
				return mkSame(tBool, "AND", []*expr{g.pred(depth - 1), g.pred(depth - 1)},
					func(k []string) string { return "(" + k[0] + " AND " + k[1] + ")" })
			}),
			w(3, func() *expr {
				return mkSame(tBool, "OR", []*expr{g.pred(depth - 1), g.pred(depth - 1)},
					func(k []string) string { return "(" + k[0] + " OR " + k[1] + ")" })
			}),
			w(2, func() *expr { return not(g.pred(depth - 1)) }),
		)
	}
	return g.choose(alts...)
}

func not(p *expr) *expr {
	return mkSame(tBool, "NOT", []*expr{p}, func(k []string) string { return "(NOT " + k[0] + ")" })
}

var cmpOps = []string{"=", "<>", "!=", "<", "<=", ">", ">="}

func (g *gen) cmp(depth int) *expr {
	t := g.scalarType()
	a := g.gen(t, depth-1, false, false)
	var b *expr
	if g.chance(0.65) {
		b = g.lit(t, false, false)
	} else {
		b = g.gen(t, depth-1, false, false)
	}
	if isColumn(a) && isColumn(b) && a.render(false) == b.render(false) && !g.chance(0.1) {
		// x op x says little (and was a pushdown bug, TestAttributeComparisons): keep it rare.
		b = g.lit(t, false, false)
	}
	if g.chance(0.03) {
		b = nullLit(t) // UNKNOWN whatever a is
	}
	if g.chance(0.2) {
		a, b = b, a
	}
	op := pick(g, cmpOps)
	return mkSame(tBool, "comparison "+op, []*expr{a, b}, func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
}

// listLit is a literal for IN lists and BETWEEN bounds: never the empty
// string, because dynalite's IN and BETWEEN treat an attribute holding ""
// as absent (see doc.go, TestDynaliteEmptyString); DynamoDB does not.
func (g *gen) listLit(t typ) *expr {
	for {
		e := g.lit(t, false, false)
		if e.render(true) != "''" {
			return e
		}
	}
}

func (g *gen) isNull(depth int) *expr {
	t := pick(g, []typ{tInt, tDec, tStr, tBool})
	var a *expr
	if t == tBool || g.chance(0.7) {
		a = g.column(t, false, false)
	} else {
		a = g.gen(t, depth-1, false, false)
	}
	op := pick(g, []string{"IS NULL", "IS NOT NULL"})
	return mkSame(tBool, op, []*expr{a}, func(k []string) string { return "(" + k[0] + " " + op + ")" })
}

func (g *gen) inList(depth int) *expr {
	t := g.scalarType()
	kids := []*expr{g.gen(t, depth-1, false, false)}
	for range 1 + g.r.IntN(4) {
		kids = append(kids, g.listLit(t))
	}
	dup := g.chance(0.15)
	if dup {
		kids = append(kids, kids[1+g.r.IntN(len(kids)-1)])
	}
	if g.chance(0.15) {
		kids = append(kids, nullLit(t))
	}
	op := pick(g, []string{"IN", "NOT IN"})
	// PartiQL's [ … ] list (ddbsql only; SQLite reads ( … )).
	open, closing := "(", ")"
	if g.chance(0.3) {
		open, closing = "[", "]"
	}
	e := mk(tBool, op, kids,
		func(k []string) string {
			return "(" + k[0] + " " + op + " " + open + strings.Join(k[1:], ", ") + closing + ")"
		},
		func(k []string) string { return "(" + k[0] + " " + op + " (" + strings.Join(k[1:], ", ") + "))" })
	switch {
	case open == "[":
		e = mkSame(tBool, "IN [ … ]", []*expr{e}, func(k []string) string { return k[0] })
	case dup:
		e = mkSame(tBool, "IN with duplicates", []*expr{e}, func(k []string) string { return k[0] })
	}
	return e
}

func (g *gen) between(depth int) *expr {
	t := g.scalarType()
	x, lo, hi := g.gen(t, depth-1, false, false), g.listLit(t), g.listLit(t)
	if litLess(hi, lo) != g.chance(0.15) { // mostly in order; sometimes reversed (empty)
		lo, hi = hi, lo
	}
	op := pick(g, []string{"BETWEEN", "NOT BETWEEN"})
	return mkSame(tBool, op, []*expr{x, lo, hi}, func(k []string) string {
		return "(" + k[0] + " " + op + " " + k[1] + " AND " + k[2] + ")"
	})
}

// like draws [NOT] LIKE with a pattern built from a data string: some
// characters become _, some runs %, and literal % _ \ are escaped with \.
// SQLite needs ESCAPE '\' (ddbsql's backslash escape is MySQL's default).
func (g *gen) like(depth int) *expr {
	x := g.strExpr(depth-1, false)
	op := pick(g, []string{"LIKE", "NOT LIKE"})
	pat := g.likePattern()
	lit := strLit(pat)
	return mk(tBool, op, []*expr{x, lit},
		func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" },
		func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ` ESCAPE '\')` })
}

func (g *gen) likePattern() string {
	src := pick(g, g.ds.strs[pick(g, []string{"s", "s", "t", "m_y"})])
	if g.chance(0.15) {
		src = pick(g, unicodePool)
	}
	var b strings.Builder
	skipping := false
	for _, r := range src {
		switch f := g.r.Float64(); {
		case f < 0.12:
			b.WriteByte('_')
			skipping = false
			continue
		case f < 0.22:
			if !skipping {
				b.WriteByte('%')
			}
			skipping = true
			continue
		}
		skipping = false
		if r == '%' || r == '_' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	if g.chance(0.3) {
		b.WriteByte('%')
	}
	pat := b.String()
	if g.chance(0.15) {
		pat = "%" + pat
	}
	if pat != "" && strings.Trim(pat, "%") == "" {
		// ddbsql pushes LIKE '%' down as attribute_type(x, S), which
		// dynalite gets wrong for "" (see doc.go, TestDynaliteAttributeType).
		pat = "%_%"
	}
	return pat
}

func (g *gen) boolCol() *expr {
	b := g.column(tBool, false, false)
	switch g.r.IntN(4) {
	case 0:
		return b
	case 1:
		return not(b)
	}
	op := pick(g, []string{"=", "<>"})
	l := boolLit(g.chance(0.5))
	return mkSame(tBool, "BOOL "+op, []*expr{b, l}, func(k []string) string { return "(" + k[0] + " " + op + " " + k[1] + ")" })
}

// dynamoFunc is begins_with or contains on a string: never NULL in ddbsql
// (FALSE for a NULL operand), mapped to instr in SQLite.
func (g *gen) dynamoFunc() *expr {
	x := g.column(tStr, false, false)
	src := pick(g, g.ds.strs[pick(g, []string{"s", "t"})])
	rs := []rune(src)
	var p string
	if len(rs) > 0 {
		a := g.r.IntN(len(rs))
		b := a + g.r.IntN(len(rs)-a+1)
		p = string(rs[a:b])
	}
	if g.chance(0.5) {
		return mk(tBool, "begins_with", []*expr{x, strLit(p)},
			func(k []string) string { return "begins_with(" + k[0] + ", " + k[1] + ")" },
			func(k []string) string { return "coalesce(instr(" + k[0] + ", " + k[1] + ") = 1, 0)" })
	}
	return mk(tBool, "contains", []*expr{x, strLit(p)},
		func(k []string) string { return "contains(" + k[0] + ", " + k[1] + ")" },
		func(k []string) string { return "coalesce(instr(" + k[0] + ", " + k[1] + ") > 0, 0)" })
}

// agg draws an aggregate expression of a random output type.
func (g *gen) agg(allowApprox bool) *expr {
	alts := []weighted{
		w(3, func() *expr {
			e := mkSame(tInt, "COUNT(*)", nil, func([]string) string { return "COUNT(*)" })
			e.agg = true
			return e
		}),
		w(2, func() *expr {
			x := g.gen(pick(g, []typ{tInt, tDec, tStr, tBool}), 1, false, false)
			return g.aggOf(tInt, "COUNT", x)
		}),
		w(2, func() *expr {
			x := g.gen(pick(g, []typ{tInt, tDec, tStr, tBool}), 1, false, false)
			e := mkSame(tInt, "COUNT(DISTINCT)", []*expr{x}, func(k []string) string { return "COUNT(DISTINCT " + k[0] + ")" })
			e.agg = true
			return e
		}),
		w(3, func() *expr {
			if g.chance(0.6) {
				return g.aggOf(tInt, "SUM", g.intExpr(1, false))
			}
			return g.aggOf(tDec, "SUM", g.decExpr(1))
		}),
		w(3, func() *expr {
			t := pick(g, []typ{tInt, tDec, tStr})
			return g.aggOf(t, pick(g, []string{"MIN", "MAX"}), g.gen(t, 1, false, false))
		}),
	}
	if allowApprox {
		alts = append(alts, w(2, func() *expr { return g.avg(false) }))
	}
	e := g.choose(alts...)
	if !e.approx && g.chance(0.2) {
		switch e.t {
		case tInt:
			return g.arith(tInt, "+", e, g.lit(tInt, true, false), false)
		case tStr:
			return fn(tStr, "COALESCE", e, g.lit(tStr, false, false))
		}
	}
	return e
}

// avg is AVG over a small integer or a decimal (smallOnly: the sum stays
// below 2^53, so SQLite's float average orders like the exact one).
func (g *gen) avg(smallOnly bool) *expr {
	if g.chance(0.3) {
		return g.aggOf(tDec, "AVG", g.decExpr(1))
	}
	return g.aggOf(tInt, "AVG", g.intExpr(1, smallOnly))
}

func (g *gen) aggOf(t typ, name string, x *expr) *expr {
	e := fn(t, name, x)
	e.agg = true
	e.approx = name == "AVG"
	if t == tStr {
		e.ascii = x.ascii
	}
	return e
}

// approxItem is an exact-in-ddbsql, floating-in-SQLite division.
func (g *gen) division() *expr {
	a, b := g.intExpr(1, false), g.divisor(1)
	e := mk(tInt, "/", []*expr{a, b},
		func(k []string) string { return "(" + k[0] + " / " + k[1] + ")" },
		func(k []string) string { return "(CAST(" + k[0] + " AS REAL) / " + k[1] + ")" })
	e.approx = true
	return e
}

// keyCond is the query's key condition.
func (g *gen) keyCond() (*expr, string) {
	pk := "pk = 'P'"
	label := "Query"
	switch f := g.r.Float64(); {
	case f < 0.1:
		pk = "pk IN ('P', 'Q')"
		label = "Query pk IN"
	case f < 0.14:
		// An empty partition: aggregates over no rows (COUNT 0, SUM NULL).
		return g.keyText(pick(g, []string{"pk = 'R'", "pk IN ('R', 'S')", "pk = 'P' AND id > 1000"})), "empty partition"
	case f < 0.17:
		// More keys than one BatchGetItem takes (100), some repeated,
		// some of no item.
		ids := make([]string, 101+g.r.IntN(80))
		for i := range ids {
			ids[i] = strconv.Itoa(1 + g.r.IntN(380))
		}
		return g.keyText(pk + " AND id IN (" + strings.Join(ids, ", ") + ")"), "more than 100 keys"
	}
	if g.chance(0.3) {
		return g.keyText(pk), label
	}
	a := g.r.Int64N(380)
	switch g.r.IntN(6) {
	case 0:
		b := a + g.r.Int64N(200)
		return g.keyText(pk + " AND id BETWEEN " + g.keyNumber(a) + " AND " + g.keyNumber(b)), label + " + sort key"
	case 1:
		return g.keyText(pk + " AND id = " + g.keyNumber(a)), label + " + id ="
	}
	return g.keyText(pk + " AND id " + pick(g, []string{"<", "<=", ">", ">="}) + " " + g.keyNumber(a)), label + " + sort key"
}

// keyNumber writes a sort-key bound: mostly the integer, now and then
// with a fraction (.5: between two keys) or as 7.0 or 7e0 (the same
// number, which DynamoDB normalises in keys).
func (g *gen) keyNumber(a int64) string {
	n := strconv.FormatInt(a, 10)
	switch f := g.r.Float64(); {
	case f < 0.05:
		return n + ".5"
	case f < 0.08:
		return n + ".0"
	case f < 0.1:
		return n + "e0"
	}
	return n
}

// keyNames are the key attributes (of the table and its indexes) that key
// condition texts mention.
var keyNames = map[string]bool{"pk": true, "id": true, "status": true, "date": true, "rank": true}

// keyText is a condition written as SQLite text: ddbsql's version writes
// each key attribute name in a style drawn at random (qualified by the
// alias now and then), and IN lists now and then as PartiQL [ … ].
func (g *gen) keyText(s string) *expr {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'') + i + 2
			b.WriteString(s[i:j])
			i = j
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] == '_') {
				j++
			}
			w := s[i:j]
			if keyNames[w] {
				if g.alias != "" && g.chance(0.3) {
					b.WriteString(quoteName(g.alias, g.drawStyle()) + ".")
				}
				w = quoteName(w, g.drawStyle())
			}
			b.WriteString(w)
			i = j
		case c == '(' && strings.HasSuffix(b.String(), "IN ") && g.chance(0.3):
			j := strings.IndexByte(s[i:], ')') + i
			b.WriteString("[" + s[i+1:j] + "]")
			i = j + 1
		default:
			b.WriteByte(c)
			i++
		}
	}
	return leaf(tBool, "", b.String(), s)
}

// litLess orders two literals of the same type (numbers by value, strings
// by their SQLite text).
func litLess(a, b *expr) bool {
	as, bs := a.render(true), b.render(true)
	if a.t == tInt || a.t == tDec {
		x, _ := strconv.ParseInt(as, 10, 64)
		y, _ := strconv.ParseInt(bs, 10, 64)
		return x < y
	}
	return as < bs
}

// keyDisjunction draws a key condition in disjunctive form, rendered in
// both dialects: an OR of 2–4 branches, each with a key condition of its
// own (pk = or IN, usually with a sort-key condition on id) and sometimes
// a filter of its own over columns that are often NULL or missing; or an
// OR of full primary keys; or a factored form (pk = 'P' AND (… OR …),
// (pk = 'P' OR pk = 'Q') AND …). id ranges overlap, so items match several
// branches and must come back once. Now and then one branch has no key
// condition: the statement then needs a Scan (scan is true).
func (g *gen) keyDisjunction() (e *expr, label string, scan bool) {
	text := g.keyText
	or := func(kids []*expr) *expr {
		return mkSame(tBool, "key OR", kids, func(k []string) string { return "(" + strings.Join(k, " OR ") + ")" })
	}
	and := func(a, b *expr) *expr {
		return mkSame(tBool, "", []*expr{a, b}, func(k []string) string { return "(" + k[0] + " AND " + k[1] + ")" })
	}
	withFilter := func(k *expr) *expr {
		if g.chance(0.35) {
			return and(k, g.branchFilter())
		}
		return k
	}
	var branches []*expr
	switch n := g.r.IntN(100); {
	case n < 20:
		for range 2 + g.r.IntN(5) {
			branches = append(branches, text(g.fullKey()))
		}
		return or(branches), "access: key disjunction of full keys", false
	case n < 35:
		for range 2 + g.r.IntN(2) {
			branches = append(branches, withFilter(text(g.sortKeyCond())))
		}
		if g.chance(0.2) {
			branches = append(branches, g.branchFilter()) // a branch the partition key alone answers
		}
		return and(text("pk = 'P'"), or(branches)), "access: key disjunction, factored", false
	case n < 45:
		pks := or([]*expr{text("pk = 'P'"), text(pick(g, []string{"pk = 'Q'", "pk IN ('Q', 'R')", "'Q' = pk"}))})
		if g.chance(0.3) {
			return pks, "access: key disjunction, factored", false
		}
		return and(pks, text(g.sortKeyCond())), "access: key disjunction, factored", false
	}
	for range 2 + g.r.IntN(3) {
		branches = append(branches, withFilter(text(g.branchKey())))
	}
	if g.chance(0.12) {
		branches[g.r.IntN(len(branches))] = g.branchFilter()
		return or(branches), "access: key disjunction with an unkeyed branch (Scan)", true
	}
	return or(branches), "access: key disjunction", false
}

// branchKey is one branch's key condition: a partition, usually narrowed
// by a sort-key condition.
func (g *gen) branchKey() string {
	switch g.r.IntN(8) {
	case 0:
		return "pk = 'Q'"
	case 1:
		return "pk IN ('P', 'Q') AND id " + pick(g, []string{">", "<="}) + " " + strconv.Itoa(1+g.r.IntN(360))
	case 2:
		return g.fullKey()
	case 3:
		return "id " + pick(g, []string{">", "<"}) + " " + strconv.Itoa(280+g.r.IntN(60)) + " AND pk = 'Q'"
	}
	return "pk = 'P' AND " + g.sortKeyCond()
}

// sortKeyCond is a condition on id that overlaps others often.
func (g *gen) sortKeyCond() string {
	a := 1 + g.r.IntN(300)
	switch g.r.IntN(4) {
	case 0:
		return "id BETWEEN " + strconv.Itoa(a) + " AND " + strconv.Itoa(a+g.r.IntN(120))
	case 1:
		return "id = " + strconv.Itoa(a)
	}
	return "id " + pick(g, []string{"<", "<=", ">", ">="}) + " " + strconv.Itoa(a)
}

// fullKey is a primary key, sometimes of no item (id 0, 361+ or the wrong
// partition).
func (g *gen) fullKey() string {
	id := 1 + g.r.IntN(370)
	pk := "P"
	if id > 300 || g.chance(0.1) {
		pk = "Q"
	}
	if g.chance(0.2) {
		return "id = " + strconv.Itoa(id) + " AND pk = '" + pk + "'"
	}
	return "pk = '" + pk + "' AND id = " + strconv.Itoa(id)
}

// branchFilter is a branch's own predicate, often about NULL or missing
// attributes (the generated columns are both, now and then).
func (g *gen) branchFilter() *expr {
	if g.chance(0.4) {
		return g.isNull(0)
	}
	return g.pred(1)
}

// orChain is x = a OR x = b OR … (3 to 8 comparisons of one column, now
// and then of two), written without parentheses: pushed down as one flat
// OR (a deeper one makes dynalite's parser exponentially slow, see doc.go).
func (g *gen) orChain() *expr {
	t := pick(g, []typ{tInt, tStr, tDec})
	x, y := g.column(t, false, false), g.column(t, false, false)
	var kids []*expr
	for range 3 + g.r.IntN(6) {
		c := x
		if g.chance(0.2) {
			c = y
		}
		op := pick(g, []string{"=", "=", "=", "<", ">="})
		kids = append(kids, mkSame(tBool, "", []*expr{c, g.listLit(t)}, func(k []string) string { return k[0] + " " + op + " " + k[1] }))
	}
	return mkSame(tBool, "OR chain", kids, func(k []string) string { return "(" + strings.Join(k, " OR ") + ")" })
}
