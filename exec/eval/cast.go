package eval

import (
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// cast is CAST(x AS number|string). It never fails on the operand's type:
// whatever has no number is NULL.
//
//	to number: N as is; S parsed exactly (surrounding spaces allowed) or
//	           NULL when it is not a number DynamoDB can store; BOOL 1/0;
//	           everything else NULL.
//	to string: S as is; N its digits; BOOL 'true'/'false'; B its bytes;
//	           sets, lists and maps their JSON text.
func cast(c expr.Cast, row Row) (value.Value, error) {
	v, err := Eval(c.X, row)
	if err != nil || v.IsNull() {
		return value.MissingValue(), err
	}
	switch c.To {
	case value.Number:
		return castNumber(v), nil
	case value.String:
		return castString(v), nil
	}
	return value.Value{}, errorf(diag.CodeInternal, "%s: cannot cast to %s", c.String(), c.To)
}

func castNumber(v value.Value) value.Value {
	switch v.Kind() {
	case value.Number:
		return v
	case value.String:
		// Parse exactly (no context precision), then require a number
		// DynamoDB can store as is.
		var d apd.Decimal
		if _, _, err := d.SetString(strings.TrimSpace(v.Text())); err != nil {
			return value.MissingValue()
		}
		if n, problem := fitNumber(&d); problem == "" {
			return n
		}
		return value.MissingValue()
	case value.Bool:
		if v.Bool() {
			return value.NumTrusted("1")
		}
		return value.NumTrusted("0")
	}
	return value.MissingValue()
}

func castString(v value.Value) value.Value {
	switch v.Kind() {
	case value.String:
		return v
	case value.Number, value.Binary:
		return value.Str(v.Text())
	case value.Bool:
		if v.Bool() {
			return value.Str("true")
		}
		return value.Str("false")
	}
	return value.Str(v.JSON())
}
