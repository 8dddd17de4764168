package eval

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// fnAbs is ABS on an N; exact.
func fnAbs(f expr.Func, row Row) (value.Value, error) {
	v, err := arg(f, row, 0)
	if err != nil || v.IsNull() {
		return value.MissingValue(), err
	}
	if v.Kind() != value.Number {
		return value.Value{}, argTypeError(f, "a number", v)
	}
	if s := v.Text(); s != "" && s[0] == '-' {
		return value.NumTrusted(s[1:]), nil
	}
	return v, nil
}

// fnRound is ROUND(x[, d]): x rounded to d decimal places (d may be
// negative), half away from zero as MySQL rounds exact values.
func fnRound(f expr.Func, row Row) (value.Value, error) {
	x, err := arg(f, row, 0)
	if err != nil {
		return value.Value{}, err
	}
	dv := value.NumTrusted("0")
	if len(f.Args) == 2 {
		if dv, err = arg(f, row, 1); err != nil {
			return value.Value{}, err
		}
	}
	if anyNull(x, dv) {
		return value.MissingValue(), nil
	}
	if x.Kind() != value.Number {
		return value.Value{}, argTypeError(f, "a number", x)
	}
	if dv.Kind() != value.Number {
		return value.Value{}, argTypeError(f, "a number of decimal places", dv)
	}
	places, err := intArg(dv)
	if err != nil {
		return value.Value{}, err
	}
	if _, ok := x.Int64(); ok && places >= 0 {
		return x, nil
	}
	// DynamoDB numbers have at most 130+37 decimals and magnitude below
	// 1E+126, so ±200 places cover every case.
	places = min(max(places, -200), 200)
	var d, r apd.Decimal
	if err := decimalOf(x, &d); err != nil {
		return value.Value{}, err
	}
	if -d.Exponent <= int32(places) {
		return x, nil
	}
	if _, err := wideCtx.Quantize(&r, &d, -int32(places)); err != nil {
		return value.Value{}, errorf(diag.CodeInternal, "%s: %v", f.String(), err)
	}
	return numberResult(&r, f)
}
