package planner

import (
	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// subqueryClauses are the clauses a subquery may be written in.
var subqueryClauses = map[string]bool{"WHERE": true, "HAVING": true, "the select list": true}

// subquery binds a subquery used as a value (scalar), or as EXISTS's or
// IN's operand, planning it as a read of its own.
func (b *binder) subquery(sq *sqlparser.Subquery, kind expr.SubqueryKind, x expr.Expr, not bool) (expr.Expr, error) {
	if b.subq == nil || !subqueryClauses[b.clause] {
		return nil, errorf(diag.CodeUnsupported, "subqueries are not supported in %s; write them in WHERE, HAVING or the select list", b.clauseName())
	}
	read, outer, err := b.subq.plan(b, sq, kind)
	if err != nil {
		return nil, err
	}
	return expr.Subquery{Kind: kind, X: x, Not: not, Outer: outer, Number: read.Number, Result: read.Result}, nil
}

// inSubquery binds x [NOT] IN (SELECT c …).
func (b *binder) inSubquery(n *sqlparser.ComparisonExpr, sq *sqlparser.Subquery) (expr.Expr, error) {
	if t, ok := n.Left.(sqlparser.ValTuple); ok {
		return nil, errorf(diag.CodeUnsupported, "a row value %s IN (SELECT …) is not supported: compare one column", sqlparser.String(t)).
			Hintf("write one IN per column, or an EXISTS with equalities: EXISTS (SELECT 1 FROM s WHERE s.a = t.a AND s.b = t.b)")
	}
	x, err := b.bind(n.Left)
	if err != nil {
		return nil, err
	}
	return b.subquery(sq, expr.SubqueryIn, x, n.Operator == sqlparser.NotInStr)
}
