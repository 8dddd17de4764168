package eval

import (
	"fmt"

	"github.com/cockroachdb/apd/v3"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// DynamoDB's number range: at most 38 significant digits, magnitude
// between 1E-130 and 9.99…E+125.
const (
	maxDigits   = ddblimits.NumberDigits
	maxAdjusted = ddblimits.NumberMaxExponent
	minAdjusted = ddblimits.NumberMinExponent
)

// exactCtx computes sums, differences and products exactly (Precision 0
// disables rounding) with exponents far wider than DynamoDB's, so the range
// check happens once, on the final result.
var exactCtx = apd.Context{
	Precision:   0,
	MaxExponent: apd.MaxExponent,
	MinExponent: apd.MinExponent,
	Rounding:    apd.RoundHalfUp,
}

// wideCtx is for integer quotients and remainders, which apd computes
// exactly as long as the integer quotient fits its precision; 400 digits
// cover any two DynamoDB numbers (38 digits spread over exponents
// -130…+125).
var wideCtx = apd.Context{
	Precision:   400,
	MaxExponent: apd.MaxExponent,
	MinExponent: apd.MinExponent,
	Rounding:    apd.RoundHalfUp,
}

// quoCtx rounds a quotient to DynamoDB's 38 significant digits, half away
// from zero.
var quoCtx = apd.Context{
	Precision:   maxDigits,
	MaxExponent: apd.MaxExponent,
	MinExponent: apd.MinExponent,
	Rounding:    apd.RoundHalfUp,
}

// decimalOf parses an N value into d.
func decimalOf(v value.Value, d *apd.Decimal) error {
	if _, _, err := d.SetString(v.Text()); err != nil || d.Form != apd.Finite {
		return errorf(diag.CodeInternal, "invalid number text %q", v.Text())
	}
	return nil
}

// numberResult converts an exact result into an N value, or an overflow
// error naming the expression when DynamoDB cannot store it.
func numberResult(d *apd.Decimal, e expr.Expr) (value.Value, error) {
	v, problem := fitNumber(d)
	if problem != "" {
		return value.Value{}, errorf(diag.CodeOverflow, "%q %s", sqlText(e), problem)
	}
	return v, nil
}

// fitNumber converts d into a canonical N value; problem says why DynamoDB
// could not store it.
func fitNumber(d *apd.Decimal) (v value.Value, problem string) {
	if d.Form != apd.Finite {
		return v, "is not a finite number"
	}
	var r apd.Decimal
	r.Reduce(d)
	if r.IsZero() {
		return value.NumTrusted("0"), ""
	}
	digits := r.NumDigits()
	adjusted := int64(r.Exponent) + digits - 1
	switch {
	case digits > maxDigits:
		return v, fmt.Sprintf("exceeds DynamoDB's %d significant digits (the exact result has %d)", maxDigits, digits)
	case adjusted > maxAdjusted:
		return v, fmt.Sprintf("exceeds DynamoDB's largest number magnitude 9.99…E+125 (result is about 1E+%d)", adjusted)
	case adjusted < minAdjusted:
		return v, fmt.Sprintf("is below DynamoDB's smallest number magnitude 1E-130 (result is about 1E%d)", adjusted)
	}
	return value.NumTrusted(r.Text('f')), ""
}

// intArg converts an N argument to an integer, rounding half away from zero
// as MySQL does for a fractional position or length, and clamping to ±1e15.
func intArg(v value.Value) (int64, error) {
	const limit = 1_000_000_000_000_000
	if i, ok := v.Int64(); ok {
		return min(max(i, -limit), limit), nil
	}
	var d apd.Decimal
	if err := decimalOf(v, &d); err != nil {
		return 0, err
	}
	if d.Cmp(apd.New(limit, 0)) > 0 {
		return limit, nil
	}
	if d.Cmp(apd.New(-limit, 0)) < 0 {
		return -limit, nil
	}
	var r apd.Decimal
	if _, err := wideCtx.RoundToIntegralValue(&r, &d); err != nil {
		return 0, errorf(diag.CodeInternal, "rounding %s: %v", v.Text(), err)
	}
	i, err := r.Int64()
	if err != nil {
		return 0, errorf(diag.CodeInternal, "rounding %s: %v", v.Text(), err)
	}
	return i, nil
}
