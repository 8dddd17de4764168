package eval

import (
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Row is the evaluator's view of one input row. Implement it on a pointer
// type and reuse it across rows: converting a struct value to Row on every
// call would allocate.
type Row interface {
	// Attr returns column id: the top-level attribute the planner
	// numbered id (one FROM item's, see expr.Column.ID), or Missing when
	// the row has no such attribute. Rows bind IDs to their columns once
	// per batch, so this is a read by index, never a lookup by name.
	Attr(id expr.ColumnID) value.Value
	// Item returns the whole item (an M) of FROM item source for
	// item_size(); false when the row does not carry the full item.
	Item(source int) (value.Value, bool)
	// Ref returns input column i (for expr.Ref).
	Ref(i int) value.Value
}

// Eval evaluates e over row. Predicates yield BOOL, or Missing for UNKNOWN.
func Eval(e expr.Expr, row Row) (value.Value, error) {
	switch t := e.(type) {
	case expr.Column:
		if len(t.Path) == 0 {
			return value.Value{}, errorf(diag.CodeInternal, "column reference without a path")
		}
		v := row.Attr(t.ID)
		if len(t.Path) > 1 {
			var setAt int
			if v, setAt = t.Path.Lookup(v); setAt > 0 {
				return value.Value{}, setIndexError(t.Path, setAt, row.Attr(t.ID))
			}
		}
		return v, nil
	case expr.Literal:
		return t.Value, nil
	case expr.Ref:
		return row.Ref(t.Index), nil
	case expr.Binary:
		if t.Op.IsComparison() || t.Op == expr.OpAnd || t.Op == expr.OpOr {
			return truthValue(truth(e, row))
		}
		return arithmetic(t, row)
	case expr.Unary:
		if t.Op == expr.OpNot {
			return truthValue(truth(e, row))
		}
		return negate(t, row)
	case expr.In, expr.Between, expr.Like, expr.IsNull:
		return truthValue(truth(e, row))
	case expr.Func:
		return call(t, row)
	case expr.Case:
		return evalCase(t, row)
	case expr.Cast:
		return cast(t, row)
	case expr.Subquery:
		return subqueryValue(t, row)
	case expr.Aggregate:
		return value.Value{}, errorf(diag.CodeInternal, "aggregate %s reached the row evaluator; the aggregation operator must replace it", t.String())
	case nil:
		return value.Value{}, errorf(diag.CodeInternal, "nil expression")
	}
	if d, ok := deref(e); ok {
		return Eval(d, row)
	}
	return value.Value{}, errorf(diag.CodeInternal, "cannot evaluate expression node %T", e)
}

func truthValue(t Truth, err error) (value.Value, error) {
	if err != nil {
		return value.Value{}, err
	}
	return t.Value(), nil
}

// deref accepts pointers to nodes, which also satisfy expr.Expr.
func deref(e expr.Expr) (expr.Expr, bool) {
	switch t := e.(type) {
	case *expr.Column:
		return deptr(t)
	case *expr.Literal:
		return deptr(t)
	case *expr.Ref:
		return deptr(t)
	case *expr.Binary:
		return deptr(t)
	case *expr.Unary:
		return deptr(t)
	case *expr.In:
		return deptr(t)
	case *expr.Between:
		return deptr(t)
	case *expr.Like:
		return deptr(t)
	case *expr.IsNull:
		return deptr(t)
	case *expr.Func:
		return deptr(t)
	case *expr.Case:
		return deptr(t)
	case *expr.Cast:
		return deptr(t)
	case *expr.Aggregate:
		return deptr(t)
	}
	return nil, false
}

func deptr[T expr.Expr](p *T) (expr.Expr, bool) {
	if p == nil {
		return nil, false
	}
	return *p, true
}
