package planner

import (
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// windowFuncs are the functions OVER may follow, with their argument counts.
var windowFuncs = map[string][2]int{
	"row_number": {0, 0}, "rank": {0, 0}, "dense_rank": {0, 0}, "ntile": {1, 1},
	"lag": {1, 3}, "lead": {1, 3}, "first_value": {1, 1}, "last_value": {1, 1},
	"sum": {1, 1}, "avg": {1, 1}, "count": {1, 1}, "min": {1, 1}, "max": {1, 1},
}

// windowFuncNames lists them for hints.
const windowFuncNames = "ROW_NUMBER, RANK, DENSE_RANK, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, SUM, AVG, COUNT, MIN, MAX"

// windowClauseHint says where a window function may go instead.
const windowClauseHint = "window functions are evaluated after WHERE, GROUP BY and HAVING; " +
	"compute the window in the select list of a derived table or WITH query and filter it in the outer query"

// window binds the synthetic call the parser made of f(args) OVER (spec).
func (b *binder) window(n *sqlparser.FuncExpr, spec *parser.Window) (expr.Expr, error) {
	if b.inWindow {
		return nil, errorf(diag.CodeInvalid, "window functions cannot be nested: a window function's arguments and OVER clause cannot contain another")
	}
	if b.clause != "the select list" && b.clause != "ORDER BY" {
		return nil, errorf(diag.CodeInvalid, "window functions are not allowed in %s", b.clauseName()).Hintf("%s", windowClauseHint)
	}
	if len(n.Exprs) != 1+spec.Partition+len(spec.Order) {
		return nil, errorf(diag.CodeInternal, "window call %s has %d arguments, its specification %d", n.Name.String(), len(n.Exprs), 1+spec.Partition+len(spec.Order))
	}
	inner := *b
	inner.inWindow = true
	inner.clause = "a window function"
	call, err := windowCall(n.Exprs[0])
	if err != nil {
		return nil, err
	}
	w, err := inner.windowFunc(call)
	if err != nil {
		return nil, err
	}
	for _, se := range n.Exprs[1 : 1+spec.Partition] {
		p, err := inner.bindArg(se)
		if err != nil {
			return nil, err
		}
		w.Partition = append(w.Partition, p)
	}
	for k, se := range n.Exprs[1+spec.Partition:] {
		o, err := inner.bindArg(se)
		if err != nil {
			return nil, err
		}
		dir := spec.Order[k]
		first := !dir.Desc
		switch dir.Nulls {
		case parser.NullsFirst:
			first = true
		case parser.NullsLast:
			first = false
		}
		w.Order = append(w.Order, expr.WindowKey{Expr: o, Desc: dir.Desc, NullsFirst: first})
	}
	w.Frame, err = windowFrame(spec.Frame, w.Order)
	if err != nil {
		return nil, err
	}
	return w, nil
}

// windowCall is the function call a synthetic window call wraps.
func windowCall(e sqlparser.SelectExpr) (*sqlparser.FuncExpr, error) {
	ae, ok := e.(*sqlparser.AliasedExpr)
	if ok {
		if f, ok := ae.Expr.(*sqlparser.FuncExpr); ok {
			return f, nil
		}
	}
	return nil, errorf(diag.CodeUnknownFunction, "%s is not a window function", sqlparser.String(e)).
		Hintf("window functions: %s", windowFuncNames)
}

// windowFunc binds the function part of a window call.
func (b *binder) windowFunc(f *sqlparser.FuncExpr) (expr.Window, error) {
	name := strings.ToLower(f.Name.String())
	shown := strings.ToUpper(name)
	arity, ok := windowFuncs[name]
	if !ok || !f.Qualifier.IsEmpty() {
		if name == parser.SubstringFunc {
			shown = "SUBSTRING"
		}
		return expr.Window{}, errorf(diag.CodeUnknownFunction, "%s() is not a window function", shown).
			Hintf("window functions: %s", windowFuncNames)
	}
	if f.Distinct {
		return expr.Window{}, errorf(diag.CodeUnsupported, "DISTINCT in a window function (%s(DISTINCT …) OVER …) is not supported", shown)
	}
	if len(f.Exprs) < arity[0] || len(f.Exprs) > arity[1] {
		want := strconv.Itoa(arity[0])
		if arity[1] > arity[0] {
			want += " to " + strconv.Itoa(arity[1])
		}
		return expr.Window{}, errorf(diag.CodeArguments, "%s() takes %s arguments, got %d", shown, want, len(f.Exprs))
	}
	w := expr.Window{Func: name}
	for i, se := range f.Exprs {
		if _, star := se.(*sqlparser.StarExpr); star {
			if name != "count" {
				return w, errorf(diag.CodeArguments, "%s(*) is not valid; only COUNT(*) takes *", shown)
			}
			continue
		}
		if (name == "lag" || name == "lead") && i == 1 || name == "ntile" {
			n, err := windowCount(se, shown, name == "ntile")
			if err != nil {
				return w, err
			}
			w.N = n
			continue
		}
		arg, err := b.bindArg(se)
		if err != nil {
			return w, err
		}
		w.Args = append(w.Args, arg)
	}
	if (name == "lag" || name == "lead") && len(f.Exprs) == 1 {
		w.N = 1
	}
	return w, nil
}

// bindArg binds one argument expression of a window call.
func (b *binder) bindArg(se sqlparser.SelectExpr) (expr.Expr, error) {
	ae, ok := se.(*sqlparser.AliasedExpr)
	if !ok {
		return nil, errorf(diag.CodeArguments, "%s is not valid in a window function", sqlparser.String(se))
	}
	return b.bind(ae.Expr)
}

// windowCount reads NTILE's bucket count or LAG's and LEAD's offset: a
// whole number written as digits, positive for NTILE.
func windowCount(se sqlparser.SelectExpr, fn string, positive bool) (int64, error) {
	what := "the offset of " + fn + "()"
	if positive {
		what = "the argument of " + fn + "()"
	}
	bad := errorf(diag.CodeArguments, "%s must be a whole number such as 1, got %s", what, sqlparser.String(se))
	ae, ok := se.(*sqlparser.AliasedExpr)
	if !ok {
		return 0, bad
	}
	lit, ok := ae.Expr.(*sqlparser.SQLVal)
	if !ok || lit.Type != sqlparser.IntVal {
		return 0, bad
	}
	num, err := value.Num(string(lit.Val))
	if err != nil {
		return 0, bad
	}
	n, ok := num.Int64()
	if !ok || n < 0 || positive && n == 0 {
		return 0, errorf(diag.CodeArguments, "%s must be a positive whole number that fits 64 bits, got %s", what, lit.Val)
	}
	return n, nil
}

// windowFrame resolves the written frame, or standard SQL's default.
func windowFrame(f *parser.Frame, order []expr.WindowKey) (expr.Frame, error) {
	if f == nil {
		return expr.DefaultFrame(len(order) > 0), nil
	}
	out := expr.Frame{Rows: f.Rows}
	for i, b := range []parser.FrameBound{f.Start, f.End} {
		fb := expr.FrameBound{Kind: expr.BoundKind(b.Kind)}
		switch {
		case b.Offset == "":
		case f.Rows:
			n, err := strconv.ParseInt(b.Offset, 10, 64)
			if err != nil {
				return out, errorf(diag.CodeInvalid, "the frame offset %s is too large", b.Offset)
			}
			fb.N = n
		default:
			offset, err := rangeOffset(b.Offset)
			if err != nil {
				return out, err
			}
			fb.Offset = offset
		}
		if i == 0 {
			out.Start = fb
		} else {
			out.End = fb
		}
	}
	if out.HasOffset() {
		if err := rangeOffsetKey(out, order); err != nil {
			return out, err
		}
	}
	return out, nil
}

// rangeOffset reads a RANGE frame offset as an exact decimal number.
func rangeOffset(text string) (string, error) {
	n, err := value.Num(text)
	if err != nil {
		return "", errorf(diag.CodeInvalid, "the RANGE frame offset %s is not a number DynamoDB can hold: %v", text, err)
	}
	if value.CompareNumbers(n, value.NumTrusted("0")) < 0 {
		return "", errorf(diag.CodeInvalid, "a frame offset cannot be negative, got %s", text)
	}
	return n.Text(), nil
}

// rangeOffsetHint says what a RANGE frame with an offset needs.
const rangeOffsetHint = "RANGE with an offset needs exactly one numeric ORDER BY key, as in OVER (ORDER BY price RANGE BETWEEN 10 PRECEDING AND CURRENT ROW); use ROWS to count rows instead"

// rangeOffsetKey checks that a RANGE frame with an offset has one ORDER BY
// key that may be numeric: its values are what the offset is added to.
func rangeOffsetKey(f expr.Frame, order []expr.WindowKey) error {
	if len(order) != 1 {
		return errorf(diag.CodeInvalid, "%s has %d ORDER BY keys: RANGE with an offset needs one numeric ORDER BY key", f, len(order)).
			Hintf("%s", rangeOffsetHint)
	}
	if notNumeric(order[0].Expr) {
		return errorf(diag.CodeInvalid, "%s orders by %s, which is not a number: RANGE with an offset needs one numeric ORDER BY key", f, order[0].Expr).
			Hintf("%s", rangeOffsetHint)
	}
	return nil
}

// notNumeric reports whether e is known, before any row is read, never to
// be a number: a non-numeric constant, a conversion to a string, or a
// condition. A column's values are only known at run time.
func notNumeric(e expr.Expr) bool {
	switch x := e.(type) {
	case expr.Literal:
		k := x.Value.Kind()
		return k != value.Number && k != value.Null && k != value.Missing
	case expr.Cast:
		return x.To != value.Number
	case expr.Binary:
		return x.Op.IsComparison() || x.Op == expr.OpAnd || x.Op == expr.OpOr
	case expr.Unary:
		return x.Op == expr.OpNot
	case expr.In, expr.Between, expr.Like, expr.IsNull:
		return true
	}
	return false
}
