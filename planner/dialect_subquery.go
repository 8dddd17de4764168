package planner

import (
	"github.com/ddbsql/ddbsql/planner/expr"
)

// subqueryText is an uncorrelated subquery, rendered once (the first time
// inferTypes or expr asks), with the type of the value it yields.
type subqueryText struct {
	text string
	typ  leafType
	err  error
}

// subquery renders the SELECT of a subquery in the same answer (its tables'
// DDL joins the statement's). A correlated one, which ddbsql decorrelates
// into a lookup, is refused.
func (r *rewriter) subquery(x expr.Subquery) *subqueryText {
	if st, ok := r.subqs[x.Result]; ok {
		return st
	}
	st := &subqueryText{}
	if r.subqs == nil {
		r.subqs = map[*expr.SubqueryResult]*subqueryText{}
	}
	r.subqs[x.Result] = st
	subq := r.sp.b.subq
	ast := subq.selects[x.Result]
	if ast == nil || len(x.Outer) > 0 {
		st.err = r.d.refuse("a correlated subquery: %s", x.String())
		return st
	}
	untyped := r.untypedOut
	text, _, err := r.selectText(r.sp.ctx, r.sp.cat, SelectInput{AST: ast, Paths: subq.paths, Windows: subq.windows}, r.sp.opts)
	r.untypedOut = untyped
	if err != nil {
		st.err = err
		return st
	}
	st.text = text
	if len(r.lastTypes) == 1 {
		st.typ = r.lastTypes[0]
	}
	return st
}

// subqueryExpr renders a subquery where the statement uses it.
func (r *rewriter) subqueryExpr(x expr.Subquery) (string, error) {
	st := r.subquery(x)
	if st.err != nil {
		return "", st.err
	}
	body := "(" + indent(st.text) + ")"
	switch x.Kind {
	case expr.SubqueryExists:
		if x.Not {
			return "NOT EXISTS " + body, nil
		}
		return "EXISTS " + body, nil
	case expr.SubqueryIn:
		v, err := r.expr(x.X)
		if err != nil {
			return "", err
		}
		if x.Not {
			return "(" + v + " NOT IN " + body + ")", nil
		}
		return "(" + v + " IN " + body + ")", nil
	}
	return body, nil
}
