package difftest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// fexpr is one generated expression in both dialects.
type fexpr struct {
	ddb, lite, label string
}

type funcGen struct{ r *rand.Rand }

func (g *funcGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// unitSpec is a unit and how SQLite truncates to it and adds it.
type unitSpec struct {
	name      string
	trunc     string // strftime format of the truncated datetime
	part      string // strftime field
	seconds   int    // for date_diff; 0 for calendar units
	modifier  string // SQLite's modifier word for date_add
	perUnit   int    // multiplier of the modifier (weeks are 7 days)
	dateShape bool   // a day or more: a bare date stays a bare date
}

var funcUnits = []unitSpec{
	{"second", "%Y-%m-%dT%H:%M:%SZ", "%S", 1, "seconds", 1, false},
	{"minute", "%Y-%m-%dT%H:%M:00Z", "%M", 60, "minutes", 1, false},
	{"hour", "%Y-%m-%dT%H:00:00Z", "%H", 3600, "hours", 1, false},
	{"day", "%Y-%m-%dT00:00:00Z", "%d", 86400, "days", 1, true},
	{"week", "%Y-%m-%dT00:00:00Z", "%V", 7 * 86400, "days", 7, true},
	{"month", "%Y-%m-01T00:00:00Z", "%m", 0, "months", 1, true},
	{"quarter", "", "", 0, "months", 3, true},
	{"year", "%Y-01-01T00:00:00Z", "%Y", 0, "years", 1, true},
}

// unitText writes a unit as ddbsql accepts it: a string or a bare word,
// any case, singular or plural.
func (g *funcGen) unitText(u unitSpec) string {
	name := u.name
	if g.r.IntN(3) == 0 {
		name += "s"
	}
	switch g.r.IntN(3) {
	case 0:
		name = strings.ToUpper(name)
	case 1:
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	if g.r.IntN(2) == 0 {
		return name
	}
	return "'" + name + "'"
}

// timeCol picks a time column: its SQL text and SQLite's time value
// (numbers need the 'unixepoch' modifier).
func (g *funcGen) timeCol(fraction bool) (ddb, lite string, number bool) {
	switch g.r.IntN(5) {
	case 0:
		return "n", "n, 'unixepoch'", true
	case 1:
		if fraction {
			return "tf", "tf", false
		}
	}
	return "ts", "ts", false
}

// shaped renders a SQLite datetime of format f for value v, a bare date
// when v is one and the unit keeps dates.
func shaped(f, v string, number, keepsDate bool, mods string) string {
	dt := "strftime('" + f + "', " + v + mods + ")"
	if number || !keepsDate {
		return dt
	}
	date := "strftime('" + f[:strings.IndexByte(f, 'T')] + "', " + v + mods + ")"
	return "CASE WHEN length(" + v + ") = 10 THEN " + date + " ELSE " + dt + " END"
}

func (g *funcGen) dateTrunc() fexpr {
	u := funcUnits[g.r.IntN(len(funcUnits))]
	c, v, number := g.timeCol(true)
	ddb := "date_trunc(" + g.unitText(u) + ", " + c + ")"
	if u.name == "quarter" {
		q := "printf('%s-%02d-01', strftime('%Y', " + v + "), (CAST(strftime('%m', " + v + ") AS INTEGER) - 1) / 3 * 3 + 1)"
		full := q + " || 'T00:00:00Z'"
		if !number {
			full = "CASE WHEN length(" + v + ") = 10 THEN " + q + " ELSE " + full + " END"
		}
		return fexpr{ddb, "CASE WHEN strftime('%Y', " + v + ") IS NULL THEN NULL ELSE " + full + " END", "date_trunc"}
	}
	mods := ""
	if u.name == "week" {
		mods = ", 'weekday 0', '-6 days'"
	}
	return fexpr{ddb, shaped(u.trunc, v, number, u.dateShape, mods), "date_trunc"}
}

func (g *funcGen) datePart() fexpr {
	u := funcUnits[g.r.IntN(len(funcUnits))]
	c, v, _ := g.timeCol(true)
	ddb := "date_part(" + g.unitText(u) + ", " + c + ")"
	if u.name == "quarter" {
		return fexpr{ddb, "(CAST(strftime('%m', " + v + ") AS INTEGER) + 2) / 3", "date_part"}
	}
	return fexpr{ddb, "CAST(strftime('" + u.part + "', " + v + ") AS INTEGER)", "date_part"}
}

func (g *funcGen) dateAdd() fexpr {
	u := funcUnits[g.r.IntN(len(funcUnits))]
	c, v, number := g.timeCol(false)
	k := g.r.IntN(81) - 40
	mods := fmt.Sprintf(", '%+d %s'", k*u.perUnit, u.modifier)
	if u.modifier == "months" || u.modifier == "years" {
		mods += ", 'floor'" // month ends clamp, as in date_add
	}
	ddb := "date_add(" + g.unitText(u) + ", " + strconv.Itoa(k) + ", " + c + ")"
	return fexpr{ddb, shaped("%Y-%m-%dT%H:%M:%SZ", v, number, u.dateShape, mods), "date_add"}
}

func (g *funcGen) dateDiff() fexpr {
	u := funcUnits[g.r.IntN(5)] // the fixed-length units: second … week
	a, b := "ts", "ts2"
	if g.r.IntN(2) == 0 {
		a, b = b, a
	}
	ddb := "date_diff(" + g.unitText(u) + ", " + a + ", " + b + ")"
	return fexpr{ddb, fmt.Sprintf("(unixepoch(%s) - unixepoch(%s)) / %d", b, a, u.seconds), "date_diff"}
}

func (g *funcGen) epoch() fexpr {
	if g.r.IntN(2) == 0 {
		return fexpr{"from_unixtime(n)", "strftime('%Y-%m-%dT%H:%M:%SZ', n, 'unixepoch')", "from_unixtime"}
	}
	return g.pickOf(
		fexpr{"to_unixtime(ts)", "unixepoch(ts)", "to_unixtime"},
		fexpr{"to_unixtime(ts2)", "unixepoch(ts2)", "to_unixtime"},
		fexpr{"to_unixtime(n)", "n", "to_unixtime"},
		fexpr{"to_unixtime(from_unixtime(n))", "n", "to_unixtime"},
	)
}

func (g *funcGen) pickOf(xs ...fexpr) fexpr { return xs[g.r.IntN(len(xs))] }

// dateFormat builds a format of specifiers both engines share (MySQL's on
// the left, strftime's on the right) and literal text.
func (g *funcGen) dateFormat() fexpr {
	pieces := [][2]string{{"%Y", "%Y"}, {"%m", "%m"}, {"%d", "%d"}, {"%H", "%H"}, {"%i", "%M"}, {"%s", "%S"},
		{"%S", "%S"}, {"%j", "%j"}, {"%T", "%H:%M:%S"}, {"%v", "%V"}, {"%x", "%G"}, {"%U", "%U"},
		{"%w", "%w"}, {"%%", "%%"}, {"-", "-"}, {" ", " "}, {":", ":"}, {"/", "/"}, {"T", "T"}, {"at ", "at "}}
	var my, lite strings.Builder
	for n := 1 + g.r.IntN(6); n > 0; n-- {
		p := pieces[g.r.IntN(len(pieces))]
		my.WriteString(p[0])
		lite.WriteString(p[1])
	}
	c, v, _ := g.timeCol(true)
	return fexpr{"date_format(" + c + ", '" + my.String() + "')", "strftime('" + lite.String() + "', " + v + ")", "date_format"}
}

func (g *funcGen) strLit(xs ...string) string { return "'" + g.pick(xs...) + "'" }

func (g *funcGen) stringFunc() fexpr {
	switch g.r.IntN(6) {
	case 0:
		from, to := g.strLit(",", "-", "x", "", "a", " ", "日本"), g.strLit("", "+", "::", "yy")
		return fexpr{"replace(s, " + from + ", " + to + ")", "replace(s, " + from + ", " + to + ")", "replace"}
	case 1:
		f := g.pick("trim", "ltrim", "rtrim")
		if g.r.IntN(2) == 0 {
			cs := g.strLit("x", "xa", " x", "", "ab")
			return fexpr{f + "(s, " + cs + ")", f + "(s, " + cs + ")", f}
		}
		return fexpr{f + "(s)", f + "(s)", f}
	case 2:
		p, n := strconv.Itoa(1+g.r.IntN(6)), strconv.Itoa(1+g.r.IntN(4))
		return fexpr{"substr(s, " + p + ", " + n + ")", "substr(s, " + p + ", " + n + ")", "substr"}
	case 3:
		if g.r.IntN(2) == 0 {
			x := strconv.Itoa(g.r.IntN(7) - 3)
			return fexpr{"NULLIF(a, " + x + ")", "nullif(a, " + x + ")", "nullif"}
		}
		return fexpr{"nullif(c, d)", "nullif(c, d)", "nullif"}
	}
	// GREATEST/LEAST of one type; SQLite's max/min are NULL if any argument
	// is, so each argument is coalesced with the others (NULLs ignored).
	args := []string{"a", "b"}
	if g.r.IntN(2) == 0 {
		args = []string{"c", "d"}
		if g.r.IntN(2) == 0 {
			args = append(args, g.strLit("b", "", "zz", "aa"))
		}
	} else if g.r.IntN(2) == 0 {
		args = append(args, strconv.Itoa(g.r.IntN(7)-3))
	}
	name, liteName := "GREATEST", "max"
	if g.r.IntN(2) == 0 {
		name, liteName = "least", "min"
	}
	var co []string
	for i := range args {
		rot := append(append([]string{}, args[i:]...), args[:i]...)
		co = append(co, "coalesce("+strings.Join(rot, ", ")+")")
	}
	return fexpr{name + "(" + strings.Join(args, ", ") + ")", liteName + "(" + strings.Join(co, ", ") + ")", strings.ToLower(name)}
}

func (g *funcGen) expr() fexpr {
	switch g.r.IntN(7) {
	case 0:
		return g.dateTrunc()
	case 1:
		return g.datePart()
	case 2:
		return g.dateAdd()
	case 3:
		return g.dateDiff()
	case 4:
		return g.epoch()
	case 5:
		return g.dateFormat()
	}
	return g.stringFunc()
}

// numeric reports whether e gives numbers (else strings).
func numeric(e fexpr) bool {
	for _, p := range []string{"date_part(", "date_diff(", "to_unixtime(", "NULLIF(a", "GREATEST(a", "least(a"} {
		if strings.HasPrefix(e.ddb, p) {
			return true
		}
	}
	return false
}

// funcStatement is one generated statement in both dialects and the
// functions it uses.
type funcStatement struct {
	ddb, lite string
	labels    []string
}

func (g *funcGen) statement(table string) funcStatement {
	var st funcStatement
	if g.r.IntN(5) == 0 {
		// Grouped by a function: the bucket and its count, in order.
		e := g.pickOf(g.dateTrunc(), g.datePart(), g.stringFunc())
		st.labels = []string{e.label, "group by"}
		st.ddb = "SELECT " + e.ddb + " AS k, COUNT(*) FROM `" + table + "` WHERE pk = 'F' GROUP BY k ORDER BY k"
		st.lite = "SELECT " + e.lite + " AS k, COUNT(*) FROM " + funcTable + " WHERE pk = 'F' GROUP BY k ORDER BY k"
		return st
	}
	var ddbItems, liteItems []string
	var first fexpr
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		e := g.expr()
		if first.ddb == "" {
			first = e
		}
		ddbItems = append(ddbItems, e.ddb)
		liteItems = append(liteItems, e.lite)
		st.labels = append(st.labels, e.label)
	}
	where, liteWhere := "", ""
	if g.r.IntN(3) == 0 {
		e := g.expr()
		st.labels = append(st.labels, "where")
		where, liteWhere = " AND "+e.ddb+" IS NOT NULL", " AND "+e.lite+" IS NOT NULL"
		if op := g.pick("=", "<>", "<", ">="); g.r.IntN(2) == 0 && numeric(e) == numeric(first) {
			// Only values of one type are compared: SQLite converts text
			// to a number next to a CAST, ddbsql never does.
			where, liteWhere = " AND "+e.ddb+" "+op+" "+first.ddb, " AND "+e.lite+" "+op+" "+first.lite
		}
	}
	st.ddb = "SELECT id, " + strings.Join(ddbItems, ", ") + " FROM `" + table + "` WHERE pk = 'F'" + where + " ORDER BY id"
	st.lite = "SELECT id, " + strings.Join(liteItems, ", ") + " FROM " + funcTable + " WHERE pk = 'F'" + liteWhere + " ORDER BY id"
	return st
}
