package planner

import (
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// aggregate plans GROUP BY: the Aggregate node outputs the group values then
// the aggregate values; select items, HAVING and ORDER BY are rewritten to
// read those columns (expr.Ref). A column outside an aggregate must be one
// of the GROUP BY expressions.
func (sp *selectPlanner) aggregate(input Node, items []expr.Expr) (*Aggregate, []expr.Expr, expr.Expr, []SortKey, error) {
	node := &Aggregate{Input: input, Groups: sp.groups}
	rewrite := func(e expr.Expr, clause string) (expr.Expr, error) {
		return expr.Transform(e, func(x expr.Expr) (expr.Expr, bool, error) {
			if i := indexOfExpr(sp.groups, x); i >= 0 {
				return expr.Ref{Index: i, Name: x.String()}, true, nil
			}
			switch n := x.(type) {
			case expr.Aggregate:
				for j, a := range node.Aggs {
					if a.String() == n.String() {
						return expr.Ref{Index: len(sp.groups) + j, Name: n.String()}, true, nil
					}
				}
				node.Aggs = append(node.Aggs, n)
				return expr.Ref{Index: len(sp.groups) + len(node.Aggs) - 1, Name: n.String()}, true, nil
			case expr.Column:
				return nil, true, errorf(diag.CodeAggregate, "column %s in %s must appear in GROUP BY or be used in an aggregate function such as MIN(%s)", n, clause, n)
			}
			return nil, false, nil
		})
	}
	out := make([]expr.Expr, len(items))
	for i, it := range items {
		var err error
		if out[i], err = rewrite(it, "the select list"); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	var having expr.Expr
	if sp.having != nil {
		var err error
		if having, err = rewrite(sp.having, "HAVING"); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	order := make([]SortKey, len(sp.order))
	for i, k := range sp.order {
		e, err := rewrite(k.Expr, "ORDER BY")
		if err != nil {
			return nil, nil, nil, nil, err
		}
		order[i] = SortKey{Expr: e, Desc: k.Desc}
	}
	return node, out, having, order, nil
}
