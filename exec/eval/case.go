package eval

import (
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// evalCase is CASE. Simple form: the operand is evaluated once and compared
// to each WHEN with DynamoDB equality (a NULL never matches). Searched form:
// the first WHEN that is True. No match: ELSE, or NULL without one.
func evalCase(c expr.Case, row Row) (value.Value, error) {
	var operand value.Value
	if c.Operand != nil {
		var err error
		if operand, err = Eval(c.Operand, row); err != nil {
			return value.Value{}, err
		}
	}
	for _, w := range c.Whens {
		var t Truth
		if c.Operand != nil {
			v, err := Eval(w.Cond, row)
			if err != nil {
				return value.Value{}, err
			}
			t = equal(operand, v)
		} else {
			var err error
			if t, err = truth(w.Cond, row); err != nil {
				return value.Value{}, err
			}
		}
		if t == True {
			return Eval(w.Result, row)
		}
	}
	if c.Else == nil {
		return value.MissingValue(), nil
	}
	return Eval(c.Else, row)
}
