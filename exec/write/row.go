package write

import (
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// itemRow serves an item's attributes to the evaluator by the column IDs
// the planner gave the statement's SET, VALUES and WHERE expressions.
type itemRow struct {
	item  value.Value // an M, or Missing for VALUES (no item)
	names map[expr.ColumnID]string
}

func (r itemRow) Attr(id expr.ColumnID) value.Value {
	if r.item.Kind() != value.Map {
		return value.MissingValue()
	}
	return r.item.Attr(r.names[id])
}

func (r itemRow) Item(int) (value.Value, bool) { return r.item, r.item.Kind() == value.Map }

// Ref is never asked for: write expressions read columns, not positions.
func (r itemRow) Ref(int) value.Value { return value.MissingValue() }
