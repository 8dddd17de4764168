package eval

import (
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Truth is a SQL truth value.
type Truth uint8

// Truth values. Unknown is SQL's third truth value (a comparison with NULL).
const (
	False Truth = iota
	True
	Unknown
)

func (t Truth) String() string {
	switch t {
	case False:
		return "FALSE"
	case True:
		return "TRUE"
	}
	return "UNKNOWN"
}

// Value returns t as a value: BOOL for True and False, Missing for Unknown.
func (t Truth) Value() value.Value {
	switch t {
	case True:
		return value.BoolOf(true)
	case False:
		return value.BoolOf(false)
	}
	return value.MissingValue()
}

func truthOf(b bool) Truth {
	if b {
		return True
	}
	return False
}

// TruthOf interprets a value as a predicate result: BOOL is itself, Missing
// and NULL are Unknown, a number is True unless it is zero (as in MySQL),
// and every other type is False (never coerced).
func TruthOf(v value.Value) Truth {
	switch v.Kind() {
	case value.Bool:
		return truthOf(v.Bool())
	case value.Missing, value.Null:
		return Unknown
	case value.Number:
		return truthOf(!isZeroText(v.Text()))
	}
	return False
}

// isZeroText reports whether number text denotes zero.
func isZeroText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '1' && c <= '9':
			return false
		case c == 'e' || c == 'E':
			return true
		}
	}
	return true
}

// Test evaluates a WHERE or HAVING predicate. Only True passes.
func Test(pred expr.Expr, row Row) (Truth, error) { return truth(pred, row) }

// truth evaluates a predicate without building a value for it.
func truth(e expr.Expr, row Row) (Truth, error) {
	switch t := e.(type) {
	case expr.Binary:
		switch {
		case t.Op == expr.OpAnd:
			return and(t.L, t.R, row)
		case t.Op == expr.OpOr:
			return or(t.L, t.R, row)
		case t.Op.IsComparison():
			return comparison(t, row)
		}
	case expr.Unary:
		if t.Op == expr.OpNot {
			x, err := truth(t.X, row)
			return not(x), err
		}
	case expr.In:
		return in(t, row)
	case expr.Between:
		return between(t, row)
	case expr.Like:
		return like(t, row)
	case expr.IsNull:
		return isNull(t, row)
	case expr.Subquery:
		return subqueryTruth(t, row)
	}
	v, err := Eval(e, row)
	if err != nil {
		return Unknown, err
	}
	return TruthOf(v), nil
}

func not(t Truth) Truth {
	switch t {
	case True:
		return False
	case False:
		return True
	}
	return Unknown
}

// and is SQL AND: FALSE wins over UNKNOWN; the right side is not evaluated
// when the left is FALSE.
func and(l, r expr.Expr, row Row) (Truth, error) {
	a, err := truth(l, row)
	if err != nil || a == False {
		return False, err
	}
	b, err := truth(r, row)
	if err != nil {
		return False, err
	}
	return and3(a, b), nil
}

func and3(a, b Truth) Truth {
	switch {
	case a == False || b == False:
		return False
	case a == Unknown || b == Unknown:
		return Unknown
	}
	return True
}

// or is SQL OR: TRUE wins over UNKNOWN; the right side is not evaluated
// when the left is TRUE.
func or(l, r expr.Expr, row Row) (Truth, error) {
	a, err := truth(l, row)
	if err != nil {
		return False, err
	}
	if a == True {
		return True, nil
	}
	b, err := truth(r, row)
	if err != nil {
		return False, err
	}
	switch {
	case b == True:
		return True, nil
	case a == Unknown || b == Unknown:
		return Unknown, nil
	}
	return False, nil
}

func isNull(n expr.IsNull, row Row) (Truth, error) {
	v, err := Eval(n.X, row)
	if err != nil {
		return False, err
	}
	return truthOf(v.IsNull() != n.Not), nil
}
