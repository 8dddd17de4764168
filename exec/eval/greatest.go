package eval

import (
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// extremum evaluates GREATEST (sign 1) and LEAST (sign -1) as PostgreSQL
// does: NULL arguments are ignored, and the result is NULL only when all
// are. Values compare by value.Order, the order of ORDER BY, MIN and MAX:
// numbers numerically, strings and binaries byte-wise, and values of
// different types by type (BOOL < N < S < B < sets < L < M).
func extremum(f expr.Func, row Row, sign int) (value.Value, error) {
	best := value.MissingValue()
	for i := range f.Args {
		v, err := arg(f, row, i)
		if err != nil {
			return value.Value{}, err
		}
		if v.IsNull() {
			continue
		}
		if best.IsNull() || value.Order(v, best)*sign > 0 {
			best = v
		}
	}
	return best, nil
}

func fnGreatest(f expr.Func, row Row) (value.Value, error) { return extremum(f, row, 1) }
func fnLeast(f expr.Func, row Row) (value.Value, error)    { return extremum(f, row, -1) }
