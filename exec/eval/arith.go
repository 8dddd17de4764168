package eval

import (
	"math"
	"strconv"

	"github.com/cockroachdb/apd/v3"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// arithmetic evaluates + - * / % DIV on N operands.
func arithmetic(b expr.Binary, row Row) (value.Value, error) {
	l, err := Eval(b.L, row)
	if err != nil {
		return value.Value{}, err
	}
	r, err := Eval(b.R, row)
	if err != nil {
		return value.Value{}, err
	}
	if l.IsNull() || r.IsNull() {
		return value.MissingValue(), nil
	}
	if l.Kind() != value.Number || r.Kind() != value.Number {
		return value.Value{}, errorf(diag.CodeType, "%q: %s needs numbers, got %s", sqlText(b), b.Op, typeNames(l, r))
	}
	if x, ok := l.Int64(); ok {
		if y, ok := r.Int64(); ok {
			if v, done := intArithmetic(b.Op, x, y); done {
				return v, nil
			}
		}
	}
	return decimalArithmetic(b, l, r)
}

// intArithmetic is the allocation-light path for int64 operands; done is
// false when the result needs the exact decimal path (int64 overflow or a
// fractional quotient).
func intArithmetic(op expr.Op, x, y int64) (v value.Value, done bool) {
	var z int64
	switch op {
	case expr.OpAdd:
		z = x + y
		if (z > x) != (y > 0) {
			return v, false
		}
	case expr.OpSub:
		z = x - y
		if (z < x) != (y > 0) {
			return v, false
		}
	case expr.OpMul:
		if x == 0 || y == 0 {
			return intValue(0), true
		}
		z = x * y
		if z/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
			return v, false
		}
	case expr.OpDiv:
		if y == 0 {
			return value.MissingValue(), true
		}
		if x%y != 0 || (x == math.MinInt64 && y == -1) {
			return v, false
		}
		z = x / y
	case expr.OpIntDiv:
		if y == 0 {
			return value.MissingValue(), true
		}
		if x == math.MinInt64 && y == -1 {
			return v, false
		}
		z = x / y
	case expr.OpMod:
		if y == 0 {
			return value.MissingValue(), true
		}
		z = x % y
	default:
		return v, false
	}
	return intValue(z), true
}

func intValue(i int64) value.Value { return value.NumTrusted(strconv.FormatInt(i, 10)) }

// decimalArithmetic computes exactly with apd; only / rounds (to 38
// significant digits, half away from zero).
func decimalArithmetic(b expr.Binary, l, r value.Value) (value.Value, error) {
	var x, y, z apd.Decimal
	if err := decimalOf(l, &x); err != nil {
		return value.Value{}, err
	}
	if err := decimalOf(r, &y); err != nil {
		return value.Value{}, err
	}
	if y.IsZero() && (b.Op == expr.OpDiv || b.Op == expr.OpIntDiv || b.Op == expr.OpMod) {
		return value.MissingValue(), nil // MySQL: division by zero is NULL
	}
	var err error
	switch b.Op {
	case expr.OpAdd:
		_, err = exactCtx.Add(&z, &x, &y)
	case expr.OpSub:
		_, err = exactCtx.Sub(&z, &x, &y)
	case expr.OpMul:
		_, err = exactCtx.Mul(&z, &x, &y)
	case expr.OpDiv:
		_, err = quoCtx.Quo(&z, &x, &y)
	case expr.OpIntDiv:
		_, err = wideCtx.QuoInteger(&z, &x, &y)
	case expr.OpMod:
		_, err = wideCtx.Rem(&z, &x, &y)
	default:
		return value.Value{}, errorf(diag.CodeInternal, "%q: %s is not an arithmetic operator", sqlText(b), b.Op)
	}
	if err != nil {
		return value.Value{}, errorf(diag.CodeOverflow, "%q: %v", sqlText(b), err)
	}
	return numberResult(&z, b)
}

// negate is unary minus on an N.
func negate(u expr.Unary, row Row) (value.Value, error) {
	if u.Op != expr.OpNeg {
		return value.Value{}, errorf(diag.CodeInternal, "unknown unary operator %s", u.Op)
	}
	v, err := Eval(u.X, row)
	if err != nil || v.IsNull() {
		return value.MissingValue(), err
	}
	if v.Kind() != value.Number {
		return value.Value{}, errorf(diag.CodeType, "%q: unary minus needs a number, got %s", u.String(), v.Kind())
	}
	return negText(v), nil
}

// negText flips the sign of an N value's text.
func negText(v value.Value) value.Value {
	s := v.Text()
	switch {
	case s != "" && s[0] == '-':
		return value.NumTrusted(s[1:])
	case isZeroText(s):
		return value.NumTrusted("0")
	}
	return value.NumTrusted("-" + s)
}
