package eval

import (
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// fnCoalesce is COALESCE and IFNULL: the first argument that is not NULL
// (Missing or DynamoDB NULL), evaluated left to right and lazily.
func fnCoalesce(f expr.Func, row Row) (value.Value, error) {
	for i := range f.Args {
		v, err := arg(f, row, i)
		if err != nil || !v.IsNull() {
			return v, err
		}
	}
	return value.MissingValue(), nil
}

// fnNullif is NULLIF(a, b): NULL when a = b (DynamoDB equality), else a.
func fnNullif(f expr.Func, row Row) (value.Value, error) {
	a, b, err := args2(f, row)
	if err != nil {
		return value.Value{}, err
	}
	if equal(a, b) == True {
		return value.MissingValue(), nil
	}
	return a, nil
}

// fnIf is MySQL IF(cond, then, else); only a True cond picks then.
func fnIf(f expr.Func, row Row) (value.Value, error) {
	t, err := truth(f.Args[0], row)
	if err != nil {
		return value.Value{}, err
	}
	if t == True {
		return arg(f, row, 1)
	}
	return arg(f, row, 2)
}

// fnDdbNull is DynamoDB's NULL type ({"NULL": true}): a stored value that
// reads as SQL NULL, unlike a missing attribute, which UPDATE … = NULL makes.
func fnDdbNull(expr.Func, Row) (value.Value, error) { return value.NullValue(), nil }
