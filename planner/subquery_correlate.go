package planner

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// decorrelated is a subquery rewritten so that it no longer refers to the
// statement around it: every correlation condition inner = outer.column of
// its WHERE is removed and its inner side selected first, so the rows,
// read once, can be looked up by the outer values (a semi- or anti-join on
// the client, or a grouped join for an aggregate).
type decorrelated struct {
	sel   *sqlparser.Select
	outer []sqlparser.Expr // the outer side of each correlation, in order
	// empty is the row a correlated aggregate without GROUP BY yields for
	// outer values no row has (COUNT 0, the others NULL); nil otherwise.
	empty *value.Value
}

// decorrelate rewrites sel, nested in a statement whose FROM aliases are
// outerAliases (and, further out, enclosing).
func decorrelate(sel *sqlparser.Select, outerAliases, enclosing []string, kind expr.SubqueryKind) (decorrelated, error) {
	sc := correlationScope{inner: innerAliases(sel), outer: outerAliases, enclosing: enclosing}
	var keys, outer []sqlparser.Expr
	var kept []sqlparser.Expr
	if sel.Where != nil {
		for _, c := range splitAnd(sel.Where.Expr) {
			refs, err := sc.outerRefs(c)
			if err != nil {
				return decorrelated{}, err
			}
			if len(refs) == 0 {
				kept = append(kept, c)
				continue
			}
			in, out, ok := sc.correlation(c)
			if !ok {
				return decorrelated{}, errorf(diag.CodeUnsupported, "correlated subquery: the condition %s refers to %s of the outer query, which cannot be decorrelated into a join",
					sqlparser.String(c), sqlparser.String(refs[0])).
					Hintf("only equalities between a column of the subquery and one of the outer query (o.customer_id = c.id), joined by AND, can be decorrelated")
			}
			keys, outer = append(keys, in), append(outer, out)
		}
	}
	if err := sc.noOuterOutsideWhere(sel); err != nil {
		return decorrelated{}, err
	}
	ns := *sel
	ns.Where = nil
	if len(kept) > 0 {
		ns.Where = &sqlparser.Where{Type: sqlparser.WhereStr, Expr: joinAnd(kept)}
	}
	agg := aggregatedSelect(sel)
	if kind == expr.SubqueryExists && !agg {
		// Whether a row exists needs none of its columns.
		ns.SelectExprs = sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: sqlparser.NewIntVal([]byte("1"))}}
		ns.OrderBy = nil
		ns.Distinct = ""
	}
	d := decorrelated{sel: &ns, outer: outer}
	if len(keys) == 0 {
		if ns.Limit == nil {
			// One row says whether any exists; two whether a scalar has too many.
			switch kind {
			case expr.SubqueryExists:
				ns.Limit = &sqlparser.Limit{Rowcount: sqlparser.NewIntVal([]byte("1"))}
			case expr.SubqueryScalar:
				ns.Limit = &sqlparser.Limit{Rowcount: sqlparser.NewIntVal([]byte("2"))}
			}
		}
		return d, nil
	}
	if sel.Limit != nil {
		return decorrelated{}, errorf(diag.CodeUnsupported, "correlated subquery with LIMIT: a limit per outer row cannot be decorrelated into a join").
			Hintf("drop the LIMIT, or write the subquery without referring to the outer query")
	}
	items := make(sqlparser.SelectExprs, 0, len(keys)+len(ns.SelectExprs))
	for _, k := range keys {
		items = append(items, &sqlparser.AliasedExpr{Expr: k})
	}
	ns.SelectExprs = append(items, ns.SelectExprs...)
	if agg {
		if len(sel.GroupBy) == 0 {
			if sel.Having != nil {
				return decorrelated{}, errorf(diag.CodeUnsupported, "correlated subquery: an aggregate with HAVING and no GROUP BY cannot be decorrelated into a join")
			}
			empty := value.NullValue()
			if kind != expr.SubqueryExists {
				v, ok := emptyAggregate(sel.SelectExprs[0].(*sqlparser.AliasedExpr).Expr)
				if !ok {
					return decorrelated{}, errorf(diag.CodeUnsupported, "correlated subquery: %s is not a single aggregate (COUNT, SUM, MIN, MAX or AVG), so it cannot be decorrelated into a grouped join",
						sqlparser.String(sel.SelectExprs[0])).
						Hintf("select one aggregate, e.g. (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id), and compute around it in the outer query")
				}
				empty = v
			}
			d.empty = &empty
		}
		ns.GroupBy = append(append(sqlparser.GroupBy{}, keys...), sel.GroupBy...)
	}
	return d, nil
}

// correlationScope tells the subquery's own names from the outer query's.
type correlationScope struct {
	inner, outer, enclosing []string
}

// innerAliases are the aliases (or table names) of sel's FROM items.
func innerAliases(sel *sqlparser.Select) []string {
	var out []string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch t := n.(type) {
		case *sqlparser.AliasedTableExpr:
			name := t.As.String()
			if tn, ok := t.Expr.(sqlparser.TableName); ok && name == "" {
				name = tn.Name.String()
				if !tn.Qualifier.IsEmpty() {
					name = tn.Qualifier.String()
				}
			}
			out = append(out, name)
			return false, nil
		case sqlparser.Expr:
			return false, nil
		}
		return true, nil
	}, sel.From)
	return out
}

// refOf classifies a column reference: 0 the subquery's own (or a document
// path of its table), 1 the outer query's, 2 a query further out.
func (sc correlationScope) refOf(c *sqlparser.ColName) int {
	first := c.Qualifier.Name.String()
	if q := c.Qualifier.Qualifier.String(); q != "" {
		first = q
	}
	if first == "" || hasName(sc.inner, first) {
		return 0
	}
	if hasName(sc.outer, first) {
		return 1
	}
	if hasName(sc.enclosing, first) {
		return 2
	}
	return 0
}

func hasName(names []string, n string) bool {
	for _, x := range names {
		if x == n || strings.EqualFold(x, n) {
			return true
		}
	}
	return false
}

// outerRefs lists e's references to the outer query, not looking into
// subqueries nested in e (they are decorrelated against this one); a
// reference to a query further out is an error.
func (sc correlationScope) outerRefs(e sqlparser.SQLNode) ([]*sqlparser.ColName, error) {
	var refs []*sqlparser.ColName
	var bad *sqlparser.ColName
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch t := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.ColName:
			switch sc.refOf(t) {
			case 1:
				refs = append(refs, t)
			case 2:
				bad = t
			}
		}
		return true, nil
	}, e)
	if bad != nil {
		return nil, errorf(diag.CodeUnsupported, "correlated subquery: %s refers to a query more than one level out, which cannot be decorrelated", sqlparser.String(bad)).
			Hintf("refer only to the FROM items of the query the subquery is written in")
	}
	return refs, nil
}

// correlation splits inner = outer (either way round) where outer is a
// plain column of the outer query and inner refers to none of it.
func (sc correlationScope) correlation(c sqlparser.Expr) (inner, outer sqlparser.Expr, ok bool) {
	for {
		p, isParen := c.(*sqlparser.ParenExpr)
		if !isParen {
			break
		}
		c = p.Expr
	}
	cmp, isCmp := c.(*sqlparser.ComparisonExpr)
	if !isCmp || cmp.Operator != sqlparser.EqualStr {
		return nil, nil, false
	}
	pure := func(e sqlparser.Expr) bool {
		col, ok := e.(*sqlparser.ColName)
		return ok && sc.refOf(col) == 1
	}
	none := func(e sqlparser.Expr) bool {
		refs, err := sc.outerRefs(e)
		return err == nil && len(refs) == 0
	}
	switch {
	case pure(cmp.Right) && none(cmp.Left):
		return cmp.Left, cmp.Right, true
	case pure(cmp.Left) && none(cmp.Right):
		return cmp.Right, cmp.Left, true
	}
	return nil, nil, false
}

// noOuterOutsideWhere rejects references to the outer query anywhere but
// the subquery's WHERE.
func (sc correlationScope) noOuterOutsideWhere(sel *sqlparser.Select) error {
	parts := []struct {
		clause string
		node   sqlparser.SQLNode
	}{{"select list", sel.SelectExprs}, {"GROUP BY", sel.GroupBy}, {"ORDER BY", sel.OrderBy}, {"FROM", sel.From}}
	if sel.Having != nil {
		parts = append(parts, struct {
			clause string
			node   sqlparser.SQLNode
		}{"HAVING", sel.Having})
	}
	for _, p := range parts {
		if p.node == nil {
			continue
		}
		refs, err := sc.outerRefs(p.node)
		if err != nil {
			return err
		}
		if len(refs) > 0 {
			return errorf(diag.CodeUnsupported, "correlated subquery: %s in its %s refers to the outer query, which cannot be decorrelated into a join", sqlparser.String(refs[0]), p.clause).
				Hintf("refer to the outer query only in the subquery's WHERE, with equalities (o.customer_id = c.id)")
		}
	}
	return nil
}

// aggregatedSelect reports whether sel groups its rows.
func aggregatedSelect(sel *sqlparser.Select) bool {
	if len(sel.GroupBy) > 0 || sel.Having != nil {
		return true
	}
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch t := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.FuncExpr:
			if t.IsAggregate() {
				found = true
			}
		}
		return !found, nil
	}, sel.SelectExprs)
	return found
}

func splitAnd(e sqlparser.Expr) []sqlparser.Expr {
	switch t := e.(type) {
	case *sqlparser.AndExpr:
		return append(splitAnd(t.Left), splitAnd(t.Right)...)
	case *sqlparser.ParenExpr:
		if _, ok := t.Expr.(*sqlparser.AndExpr); ok {
			return splitAnd(t.Expr)
		}
	}
	return []sqlparser.Expr{e}
}

func joinAnd(es []sqlparser.Expr) sqlparser.Expr {
	out := es[0]
	for _, e := range es[1:] {
		out = &sqlparser.AndExpr{Left: out, Right: e}
	}
	return out
}
