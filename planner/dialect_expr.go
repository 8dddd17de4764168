package planner

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// expr renders a bound expression. Every kind either translates or is an
// unsupported error naming it.
func (r *rewriter) expr(e expr.Expr) (string, error) {
	switch x := e.(type) {
	case expr.Column:
		if err := r.derivedPath(x); err != nil {
			return "", err
		}
		return r.column(x, r.types.column(x)), nil
	case expr.Literal:
		return r.literal(x.Value)
	case expr.Binary:
		return r.binary(x)
	case expr.Unary:
		s, err := r.expr(x.X)
		if err != nil {
			return "", err
		}
		if x.Op == expr.OpNot {
			return "NOT (" + s + ")", nil
		}
		return "-(" + s + ")", nil
	case expr.In:
		s, err := r.expr(x.X)
		if err != nil {
			return "", err
		}
		list, err := r.exprs(x.List)
		if err != nil {
			return "", err
		}
		op := " IN ("
		if x.Not {
			op = " NOT IN ("
		}
		return s + op + strings.Join(list, ", ") + ")", nil
	case expr.Between:
		parts, err := r.exprs([]expr.Expr{x.X, x.Lo, x.Hi})
		if err != nil {
			return "", err
		}
		op := " BETWEEN "
		if x.Not {
			op = " NOT BETWEEN "
		}
		return parts[0] + op + parts[1] + " AND " + parts[2], nil
	case expr.Like:
		return r.like(x)
	case expr.IsNull:
		return r.isNull(x)
	case expr.Func:
		return r.call(x)
	case expr.Case:
		return r.caseExpr(x)
	case expr.Cast:
		return r.cast(x)
	case expr.Aggregate:
		return r.aggregate(x)
	case expr.Window:
		return r.window(x)
	case expr.Subquery:
		return r.subqueryExpr(x)
	}
	return "", r.d.refuse("the expression %s", e)
}

// decimal is the type every number is read as.
func (r *dialectOut) decimal() string {
	return "DECIMAL(38, " + strconv.Itoa(r.scale) + ")"
}

func (r *rewriter) literal(v value.Value) (string, error) {
	switch v.Kind() {
	case value.Missing, value.Null:
		return "NULL", nil
	case value.Bool:
		if v.Bool() {
			return "TRUE", nil
		}
		return "FALSE", nil
	case value.String:
		return sqlString(v.Text()), nil
	case value.Number:
		t := v.Text()
		if strings.ContainsAny(t, "eE") {
			// An exponent makes a DOUBLE literal; the text cast is exact.
			return "CAST(" + sqlString(t) + " AS " + r.decimal() + ")", nil
		}
		return t, nil
	case value.Binary:
		// The export writes a B as base64 text, which is what the
		// rewrite reads from the B wrapper: equal bytes, equal text.
		if r.d.Source == SourceJSON {
			return sqlString(base64.StdEncoding.EncodeToString(v.Bytes())), nil
		}
	}
	return "", r.d.refuse("a %s literal over a %s source", v.Kind(), r.d.Source)
}

func (r *rewriter) binary(x expr.Binary) (string, error) {
	l, err := r.expr(x.L)
	if err != nil {
		return "", err
	}
	rr, err := r.expr(x.R)
	if err != nil {
		return "", err
	}
	switch x.Op {
	case expr.OpIntDiv:
		// MySQL's DIV truncates toward zero.
		return "CAST(TRUNC((" + l + ") / (" + rr + ")) AS " + r.decimal() + ")", nil
	}
	// Every operand renders atomic or in parentheses, so one pair around
	// the operation keeps SQL's precedence out of the question.
	return "(" + l + " " + x.Op.String() + " " + rr + ")", nil
}

func (r *rewriter) like(x expr.Like) (string, error) {
	s, err := r.expr(x.X)
	if err != nil {
		return "", err
	}
	p, err := r.expr(x.Pattern)
	if err != nil {
		return "", err
	}
	op := " LIKE "
	if x.Not {
		op = " NOT LIKE "
	}
	// ddbsql's LIKE takes backslash escapes; neither engine has a default
	// escape character.
	return s + op + p + " ESCAPE '\\'", nil
}

// isNull is true for a missing attribute and for DynamoDB's NULL.
func (r *rewriter) isNull(x expr.IsNull) (string, error) {
	var s string
	if c, ok := x.X.(expr.Column); ok && r.wrapped(c) {
		v := r.valueOf(c)
		s = "(" + v + " IS NULL OR " + r.wrapper(c, "NULL") + ")"
		s = "COALESCE(" + s + ", FALSE)"
	} else {
		var err error
		if s, err = r.expr(x.X); err != nil {
			return "", err
		}
		s = "(" + s + " IS NULL)"
	}
	if x.Not {
		return "NOT " + s, nil
	}
	return s, nil
}

func (r *rewriter) caseExpr(x expr.Case) (string, error) {
	var sb strings.Builder
	sb.WriteString("CASE")
	if x.Operand != nil {
		s, err := r.expr(x.Operand)
		if err != nil {
			return "", err
		}
		sb.WriteString(" " + s)
	}
	for _, w := range x.Whens {
		c, err := r.expr(w.Cond)
		if err != nil {
			return "", err
		}
		v, err := r.expr(w.Result)
		if err != nil {
			return "", err
		}
		sb.WriteString(" WHEN " + c + " THEN " + v)
	}
	if x.Else != nil {
		s, err := r.expr(x.Else)
		if err != nil {
			return "", err
		}
		sb.WriteString(" ELSE " + s)
	}
	sb.WriteString(" END")
	return sb.String(), nil
}

func (r *rewriter) cast(x expr.Cast) (string, error) {
	if c, ok := x.X.(expr.Column); ok {
		if x.To == value.Number {
			// inferTypes read the column as a number already.
			return r.column(c, leafN), nil
		}
		// The exact text: an N's digits as DynamoDB stores them.
		return r.column(c, leafText), nil
	}
	s, err := r.expr(x.X)
	if err != nil {
		return "", err
	}
	if x.To == value.Number {
		return "TRY_CAST(" + s + " AS " + r.decimal() + ")", nil
	}
	return "CAST(" + s + " AS VARCHAR)", nil
}

func (r *rewriter) aggregate(x expr.Aggregate) (string, error) {
	fn := strings.ToUpper(x.Func)
	if x.Arg == nil {
		return fn + "(*)", nil
	}
	if c, ok := x.Arg.(expr.Column); ok && (x.Func == "min" || x.Func == "max") && r.types.column(c) == leafText && r.wrapped(c) {
		return r.untypedMinMax(x.Func, c, ""), nil
	}
	s, err := r.expr(x.Arg)
	if err != nil {
		return "", err
	}
	if x.Distinct {
		s = "DISTINCT " + s
	}
	out := fn + "(" + s + ")"
	if x.Func == "avg" {
		// DuckDB's AVG of a DECIMAL is a DOUBLE, Trino's a DECIMAL of
		// the argument's scale; ddbsql's is exact to the scale cast here.
		out = "CAST(" + out + " AS " + r.decimal() + ")"
	}
	return out, nil
}

// untypedMinMax is MIN or MAX of a column of unknown type in ddbsql's
// order of values (BOOL < N < S, numbers by value), as text: the least
// BOOL, else the least number (its digits, by min_by), else the least
// string; MAX the other way round.
func (r *rewriter) untypedMinMax(fn string, c expr.Column, over string) string {
	n := r.wrapper(c, "N")
	b := "CAST(" + strings.ToUpper(fn) + "(" + r.wrapper(c, "BOOL") + ")" + over + " AS VARCHAR)"
	num := fn + "_by(" + n + ", CAST(" + n + " AS " + r.decimal() + "))" + over
	str := strings.ToUpper(fn) + "(" + r.wrapper(c, "S") + ")" + over
	if fn == "min" {
		return "COALESCE(" + b + ", " + num + ", " + str + ")"
	}
	return "COALESCE(" + str + ", " + num + ", " + b + ")"
}

// sortKeys renders one ORDER BY key of the statement: NULL and missing
// values first ascending, last descending, as ddbsql sorts them.
func (r *rewriter) sortKeys(k SortKey) ([]string, error) {
	return r.orderKeys(k.Expr, k.Desc, !k.Desc, !r.sp.distinct)
}

// orderKeys renders a sort key. A column of unknown type sorts in
// ddbsql's order of values: by type (BOOL, N, S), then by value (numbers
// numerically), when expand allows several keys for it.
func (r *rewriter) orderKeys(e expr.Expr, desc, nullsFirst, expand bool) ([]string, error) {
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	if nullsFirst {
		dir += " NULLS FIRST"
	} else {
		dir += " NULLS LAST"
	}
	k := SortKey{Expr: e, Desc: desc}
	if c, ok := k.Expr.(expr.Column); ok && r.types.column(c) == leafText && r.wrapped(c) && expand {
		b, n, s := r.wrapper(c, "BOOL"), r.wrapper(c, "N"), r.wrapper(c, "S")
		rank := "CASE WHEN " + b + " IS NOT NULL THEN 1 WHEN " + n + " IS NOT NULL THEN 2 WHEN " + s + " IS NOT NULL THEN 3 END"
		keys := []string{rank, b, "CAST(" + n + " AS " + r.decimal() + ")", s}
		for i := range keys {
			if r.sp.aggregated() {
				// The column is a GROUP BY key (its text): within a group
				// every row has the same value, which MIN reads.
				keys[i] = "MIN(" + keys[i] + ")"
			}
			keys[i] += dir
		}
		return keys, nil
	}
	text, err := r.expr(k.Expr)
	if err != nil {
		return nil, err
	}
	return []string{bare(text) + dir}, nil
}

// window renders a window function call with its OVER clause; both
// engines have ddbsql's window functions and frames.
func (r *rewriter) window(w expr.Window) (string, error) {
	args, err := r.exprs(w.Args)
	if err != nil {
		return "", err
	}
	fn := strings.ToUpper(w.Func)
	var call string
	switch {
	case w.Func == "count" && len(args) == 0:
		call = "COUNT(*)"
	case w.Func == "ntile":
		call = "NTILE(" + strconv.FormatInt(w.N, 10) + ")"
	case w.Func == "lag" || w.Func == "lead":
		parts := []string{args[0], strconv.FormatInt(w.N, 10)}
		if len(args) > 1 {
			parts = append(parts, args[1])
		}
		call = fn + "(" + strings.Join(parts, ", ") + ")"
	default:
		for i := range args {
			args[i] = bare(args[i])
		}
		call = fn + "(" + strings.Join(args, ", ") + ")"
	}
	var spec []string
	if len(w.Partition) > 0 {
		parts, err := r.exprs(w.Partition)
		if err != nil {
			return "", err
		}
		spec = append(spec, "PARTITION BY "+strings.Join(parts, ", "))
	}
	if len(w.Order) > 0 {
		var keys []string
		for _, k := range w.Order {
			// A RANGE offset is a distance along the one ORDER BY key.
			ks, err := r.orderKeys(k.Expr, k.Desc, k.NullsFirst, !w.Frame.HasOffset())
			if err != nil {
				return "", err
			}
			keys = append(keys, ks...)
		}
		spec = append(spec, "ORDER BY "+strings.Join(keys, ", "))
	}
	if w.UsesFrame() {
		spec = append(spec, w.Frame.String())
	}
	over := " OVER (" + strings.Join(spec, " ") + ")"
	if c, ok := firstColumn(w.Args); ok && (w.Func == "min" || w.Func == "max") && r.types.column(c) == leafText && r.wrapped(c) {
		return r.untypedMinMax(w.Func, c, over), nil
	}
	out := call + over
	if w.Func == "avg" {
		out = "CAST(" + out + " AS " + r.decimal() + ")"
	}
	return out, nil
}

func firstColumn(es []expr.Expr) (expr.Column, bool) {
	if len(es) == 0 {
		return expr.Column{}, false
	}
	c, ok := es[0].(expr.Column)
	return c, ok
}

// derivedPath refuses a document path into a named query's column, which
// holds a computed value with no type-wrappers to follow.
func (r *rewriter) derivedPath(c expr.Column) error {
	if r.sp.froms[c.Source].derived != nil && len(c.Path) > 1 {
		return r.d.refuse("the document path %s into a column of %s", c.Path.Plain(), r.sp.froms[c.Source].alias).
			Hintf("select the path inside the WITH query or derived table instead")
	}
	return nil
}
