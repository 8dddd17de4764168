package planner

import "github.com/ddbsql/ddbsql/planner/expr"

// rejectsNull reports whether predicate p can never be TRUE when every
// column that isNull selects is NULL or missing. It answers two questions:
// whether a WHERE conjunct drops the NULL-extended rows of a LEFT join's
// optional side (which then makes it an inner join), and whether a WHERE
// requires an index key attribute to exist (so that a sparse index holds
// every matching item).
//
// It is deliberately conservative: "true" must hold under the evaluator's
// semantics (exec/eval), so only shapes whose result on NULL is UNKNOWN or
// FALSE count — comparisons, [NOT] IN, [NOT] BETWEEN and [NOT] LIKE on a
// NULL operand, IS NOT NULL, begins_with and contains on a NULL argument,
// AND with one such side, OR whose every branch is one, and NOT of a shape
// that yields UNKNOWN. IS NULL, COALESCE and other functions, CASE, and a
// bare column used as a condition never count.
func rejectsNull(p expr.Expr, isNull func(expr.Column) bool) bool {
	switch n := p.(type) {
	case expr.Binary:
		switch {
		case n.Op == expr.OpAnd:
			return rejectsNull(n.L, isNull) || rejectsNull(n.R, isNull)
		case n.Op == expr.OpOr:
			return rejectsNull(n.L, isNull) && rejectsNull(n.R, isNull)
		}
	case expr.Unary:
		return n.Op == expr.OpNot && unknownOnNull(n.X, isNull)
	case expr.IsNull:
		return n.Not && nullWhen(n.X, isNull)
	case expr.Func:
		// Never NULL: FALSE unless both arguments have the right type.
		if (n.Name == "begins_with" || n.Name == "contains") && len(n.Args) == 2 {
			return nullWhen(n.Args[0], isNull) || nullWhen(n.Args[1], isNull)
		}
	}
	return unknownOnNull(p, isNull)
}

// unknownOnNull reports whether predicate p is UNKNOWN whenever the
// selected columns are NULL: a comparison with such an operand, or [NOT]
// IN, [NOT] BETWEEN, [NOT] LIKE testing such a value.
func unknownOnNull(p expr.Expr, isNull func(expr.Column) bool) bool {
	switch n := p.(type) {
	case expr.Binary:
		return n.Op.IsComparison() && (nullWhen(n.L, isNull) || nullWhen(n.R, isNull))
	case expr.In:
		return len(n.List) > 0 && nullWhen(n.X, isNull)
	case expr.Between:
		return nullWhen(n.X, isNull)
	case expr.Like:
		return nullWhen(n.X, isNull)
	}
	return false
}

// nullWhen reports whether value expression e is NULL whenever the
// selected columns are: such a column itself, or arithmetic over one
// (arithmetic with a NULL operand is NULL).
func nullWhen(e expr.Expr, isNull func(expr.Column) bool) bool {
	switch n := e.(type) {
	case expr.Column:
		return isNull(n)
	case expr.Binary:
		switch n.Op {
		case expr.OpAdd, expr.OpSub, expr.OpMul, expr.OpDiv, expr.OpMod, expr.OpIntDiv:
			return nullWhen(n.L, isNull) || nullWhen(n.R, isNull)
		}
	case expr.Unary:
		return n.Op == expr.OpNeg && nullWhen(n.X, isNull)
	}
	return false
}

// ofSource selects every column of FROM item src: all of them are NULL in
// a row that a LEFT join extended with NULLs.
func ofSource(src int) func(expr.Column) bool {
	return func(c expr.Column) bool { return c.Source == src }
}

// ofAttr selects the columns of FROM item src under top-level attribute
// attr: all of them are missing in an item without attr.
func ofAttr(src int, attr string) func(expr.Column) bool {
	return func(c expr.Column) bool { return c.Source == src && len(c.Path) > 0 && c.Path[0].Name == attr }
}
