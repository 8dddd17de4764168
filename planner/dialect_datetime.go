package planner

import (
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The date and time functions (issue 15's), over UTC timestamps read from
// ISO 8601 strings (or epoch seconds, from a number). Their string results
// are written as ISO 8601 UTC with seconds, 2024-03-01T00:00:00Z; ddbsql
// keeps a date-only input date-only and a fraction of a second, which
// the rewrite does not (the README says so).

// isoText formats a timestamp as ddbsql's NowText does, in each engine.
func (r *dialectOut) isoText(ts string) string {
	if r.athena() {
		return "format_datetime(" + ts + ", 'yyyy-MM-dd''T''HH:mm:ss''Z''')"
	}
	return "strftime(" + ts + ", '%Y-%m-%dT%H:%M:%SZ')"
}

// timeOf reads a timestamp in UTC: from epoch seconds when the argument
// is a number, else from ISO 8601 text (NULL when it is not one, as in
// ddbsql).
func (r *rewriter) timeOf(e expr.Expr) (string, error) {
	s, err := r.expr(e)
	if err != nil {
		return "", err
	}
	num := r.types.typeOf(e) == leafN
	switch {
	case r.athena() && num:
		return "(from_unixtime(" + s + ") AT TIME ZONE 'UTC')", nil
	case r.athena():
		return "(try(from_iso8601_timestamp(" + s + ")) AT TIME ZONE 'UTC')", nil
	case num:
		return "(to_timestamp(" + s + ") AT TIME ZONE 'UTC')", nil
	}
	return "(TRY_CAST(" + s + " AS TIMESTAMPTZ) AT TIME ZONE 'UTC')", nil
}

// unitOf is a call's unit argument, a literal the binder checked.
func (r *rewriter) unitOf(x expr.Func, e expr.Expr) (funcs.Unit, error) {
	if lit, ok := e.(expr.Literal); ok && lit.Value.Kind() == value.String {
		if u, ok := funcs.ParseTimeUnit(lit.Value.Text()); ok {
			return u, nil
		}
	}
	return 0, r.d.refuse("%s() with a unit that is not written in the statement", x.Name)
}

// dateFunc renders date_trunc, date_part, date_add, date_diff,
// from_unixtime and date_format.
func (r *rewriter) dateFunc(x expr.Func) (string, error) {
	switch x.Name {
	case "date_trunc", "date_part":
		u, err := r.unitOf(x, x.Args[0])
		if err != nil {
			return "", err
		}
		ts, err := r.timeOf(x.Args[1])
		if err != nil {
			return "", err
		}
		if x.Name == "date_trunc" {
			return r.isoText("date_trunc('" + u.String() + "', " + ts + ")"), nil
		}
		// Whole seconds, as ddbsql's date_part gives; Trino has EXTRACT
		// only.
		if r.athena() {
			return "CAST(EXTRACT(" + strings.ToUpper(u.String()) + " FROM " + ts + ") AS " + r.decimal() + ")", nil
		}
		return "CAST(floor(date_part('" + u.String() + "', " + ts + ")) AS " + r.decimal() + ")", nil
	case "date_add":
		u, err := r.unitOf(x, x.Args[0])
		if err != nil {
			return "", err
		}
		n, err := r.expr(x.Args[1])
		if err != nil {
			return "", err
		}
		ts, err := r.timeOf(x.Args[2])
		if err != nil {
			return "", err
		}
		if r.athena() {
			return r.isoText("date_add('" + u.String() + "', CAST(" + n + " AS BIGINT), " + ts + ")"), nil
		}
		step := map[funcs.Unit]string{funcs.Second: "to_seconds", funcs.Minute: "to_minutes", funcs.Hour: "to_hours", funcs.Day: "to_days",
			funcs.Week: "to_weeks", funcs.Month: "to_months", funcs.Quarter: "to_months", funcs.Year: "to_years"}[u]
		count := "CAST(" + n + " AS BIGINT)"
		if u == funcs.Quarter {
			count = "3 * " + count
		}
		return r.isoText("(" + ts + " + " + step + "(" + count + "))"), nil
	case "date_diff":
		u, err := r.unitOf(x, x.Args[0])
		if err != nil {
			return "", err
		}
		a, err := r.timeOf(x.Args[1])
		if err != nil {
			return "", err
		}
		b, err := r.timeOf(x.Args[2])
		if err != nil {
			return "", err
		}
		// Whole units elapsed: Trino's date_diff, DuckDB's date_sub.
		fn := "date_diff"
		if !r.athena() {
			fn = "date_sub"
		}
		return "CAST(" + fn + "('" + u.String() + "', " + a + ", " + b + ") AS " + r.decimal() + ")", nil
	case "from_unixtime":
		s, err := r.expr(x.Args[0])
		if err != nil {
			return "", err
		}
		if r.athena() {
			return r.isoText("(from_unixtime(" + s + ") AT TIME ZONE 'UTC')"), nil
		}
		return r.isoText("(to_timestamp(" + s + ") AT TIME ZONE 'UTC')"), nil
	case "date_format":
		ts, err := r.timeOf(x.Args[0])
		if err != nil {
			return "", err
		}
		lit, ok := x.Args[1].(expr.Literal)
		if !ok || lit.Value.Kind() != value.String {
			return "", r.d.refuse("date_format() with a format that is not a string literal")
		}
		if r.athena() {
			// Trino's date_format takes MySQL's letters, as ddbsql does.
			return "date_format(" + ts + ", " + sqlString(lit.Value.Text()) + ")", nil
		}
		f, err := r.strftime(lit.Value.Text())
		if err != nil {
			return "", err
		}
		return "strftime(" + ts + ", " + sqlString(f) + ")", nil
	}
	return "", r.d.refuse("the function %s()", x.Name)
}

// mysqlToStrftime maps MySQL's date_format letters to DuckDB's strftime.
var mysqlToStrftime = map[byte]string{
	'Y': "%Y", 'y': "%y", 'm': "%m", 'c': "%-m", 'd': "%d", 'e': "%-d", 'H': "%H", 'k': "%-H",
	'h': "%I", 'I': "%I", 'l': "%-I", 'i': "%M", 's': "%S", 'S': "%S", 'p': "%p", 'f': "%f",
	'j': "%j", 'M': "%B", 'b': "%b", 'W': "%A", 'a': "%a", 'T': "%H:%M:%S", 'r': "%I:%M:%S %p", '%': "%%",
}

// strftime translates a MySQL format; week-number letters have no exact
// equivalent and are refused.
func (r *rewriter) strftime(f string) (string, error) {
	var sb strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			sb.WriteByte(c)
			continue
		}
		if i+1 >= len(f) {
			sb.WriteString("%%")
			continue
		}
		i++
		m, ok := mysqlToStrftime[f[i]]
		if !ok {
			return "", r.d.refuse("date_format's %%%c for DuckDB", f[i])
		}
		sb.WriteString(m)
	}
	return sb.String(), nil
}
