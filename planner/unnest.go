package planner

import (
	"slices"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// unnestItem is an UNNEST of the FROM clause as the parser handed it over
// (see parser.UnnestFunc): the expression to expand, the alias and its
// columns, and whether it was LEFT JOINed.
type unnestItem struct {
	alias, value, ordinality string
	x                        sqlparser.Expr
	left                     bool
}

// unnestPlan is a bound UNNEST: FROM item source, whose columns are the
// element and its position.
type unnestPlan struct {
	unnestItem
	source int
	bound  expr.Expr
}

// asUnnest recognises the derived table the parser makes of an UNNEST.
func asUnnest(te sqlparser.TableExpr) (unnestItem, bool) {
	ate, ok := te.(*sqlparser.AliasedTableExpr)
	if !ok {
		return unnestItem{}, false
	}
	sq, ok := ate.Expr.(*sqlparser.Subquery)
	if !ok {
		return unnestItem{}, false
	}
	sel, ok := sq.Select.(*sqlparser.Select)
	if !ok || len(sel.SelectExprs) == 0 {
		return unnestItem{}, false
	}
	first, ok := sel.SelectExprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return unnestItem{}, false
	}
	f, ok := first.Expr.(*sqlparser.FuncExpr)
	if !ok || !strings.EqualFold(f.Name.String(), parser.UnnestFunc) || len(f.Exprs) != 1 {
		return unnestItem{}, false
	}
	arg, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return unnestItem{}, false
	}
	it := unnestItem{alias: ate.As.String(), value: first.As.String(), x: arg.Expr}
	if len(sel.SelectExprs) == 2 {
		if o, ok := sel.SelectExprs[1].(*sqlparser.AliasedExpr); ok {
			it.ordinality = o.As.String()
		}
	}
	return it, true
}

// splitUnnests takes the UNNESTs off the end of the FROM clause — after
// the tables, as CROSS JOIN UNNEST(…), LEFT JOIN UNNEST(…) ON true or
// , UNNEST(…) — and returns the rest, for the join planner.
func splitUnnests(from sqlparser.TableExprs) (sqlparser.TableExprs, []unnestItem, error) {
	var items []unnestItem
	// Comma form: FROM t, UNNEST(t.tags) AS u(tag).
	for len(from) > 1 {
		it, ok := asUnnest(from[len(from)-1])
		if !ok {
			break
		}
		items = append(items, it)
		from = from[:len(from)-1]
	}
	if len(from) == 1 {
		for {
			j, ok := from[0].(*sqlparser.JoinTableExpr)
			if !ok {
				break
			}
			it, ok := asUnnest(j.RightExpr)
			if !ok {
				break
			}
			switch j.Join {
			case sqlparser.JoinStr:
			case sqlparser.LeftJoinStr:
				it.left = true
			default:
				return nil, nil, errorf(diag.CodeUnsupported, "%s UNNEST is not supported; write CROSS JOIN UNNEST(…) or LEFT JOIN UNNEST(…) ON true", strings.ToUpper(j.Join))
			}
			if len(j.Condition.Using) > 0 || (j.Condition.On != nil && !isTrue(j.Condition.On)) {
				return nil, nil, errorf(diag.CodeUnsupported, "JOIN UNNEST(…) takes no condition but ON true; filter the elements in WHERE")
			}
			if it.left && j.Condition.On == nil {
				return nil, nil, errorf(diag.CodeSyntax, "LEFT JOIN UNNEST(…) needs ON true")
			}
			items = append(items, it)
			from = sqlparser.TableExprs{j.LeftExpr}
		}
	}
	for i, k := 0, len(items)-1; i < k; i, k = i+1, k-1 {
		items[i], items[k] = items[k], items[i]
	}
	var inside error
	for _, te := range from {
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			if te, ok := n.(sqlparser.TableExpr); ok {
				if _, ok := asUnnest(te); ok {
					inside = errorf(diag.CodeUnsupported, "UNNEST must come after the tables it expands: FROM t [JOIN …] CROSS JOIN UNNEST(t.list) AS u(value)")
					return false, nil
				}
			}
			return true, nil
		}, te)
	}
	return from, items, inside
}

func isTrue(e sqlparser.Expr) bool {
	for {
		p, ok := e.(*sqlparser.ParenExpr)
		if !ok {
			break
		}
		e = p.Expr
	}
	b, ok := e.(sqlparser.BoolVal)
	return ok && bool(b)
}

// bindUnnests binds each UNNEST's expression over the FROM items before it
// and adds it as a FROM item of its own, whose columns are its element
// and position.
func (sp *selectPlanner) bindUnnests(items []unnestItem) error {
	if len(items) == 0 {
		return nil
	}
	for _, it := range items {
		if sp.b.sourceByAlias(it.alias) >= 0 {
			return errorf(diag.CodeInvalid, "the alias %s is used twice in FROM; give each UNNEST its own alias", it.alias)
		}
		inner := *sp.b
		inner.clause = "UNNEST"
		x, err := inner.bind(it.x)
		if err != nil {
			return err
		}
		if expr.HasAggregate(x) {
			return errorf(diag.CodeAggregate, "aggregates are not allowed in UNNEST")
		}
		x = qualified(x, sp.b.sources)
		cols := []string{it.value}
		if it.ordinality != "" {
			cols = append(cols, it.ordinality)
		}
		src := len(sp.b.sources)
		sp.b.sources = append(sp.b.sources, source{alias: it.alias, table: &TableDef{Name: it.alias}, unnest: cols})
		sp.unnests = append(sp.unnests, unnestPlan{unnestItem: it, source: src, bound: x})
	}
	return nil
}

// readsUnnest reports whether e reads a column of an UNNEST (whose FROM
// items follow the tables').
func (sp *selectPlanner) readsUnnest(e expr.Expr) bool {
	for _, c := range expr.Columns(e) {
		if c.Source >= len(sp.froms) {
			return true
		}
	}
	return false
}

// prepareUnnestRead adapts the read to the flatten above it: it must
// return the expanded attributes and the table's columns the conditions
// over elements use, and it can neither stop early for LIMIT nor count
// for COUNT(*), since rows multiply or vanish above it. It returns the
// conjuncts the read may take and those that wait for the elements.
func (sp *selectPlanner) prepareUnnestRead(req *readRequest) (read, after []expr.Expr) {
	if len(sp.unnests) == 0 {
		return sp.conjuncts, nil
	}
	for _, c := range sp.conjuncts {
		if sp.readsUnnest(c) {
			after = append(after, c)
		} else {
			read = append(read, c)
		}
	}
	extra := append([]expr.Expr(nil), after...)
	for _, u := range sp.unnests {
		extra = append(extra, u.bound)
	}
	sp.unnestNeeds = extra
	req.need = req.need.with(extra, 0)
	req.limit, req.order, req.countOnly = -1, nil, false
	return read, after
}

// flatten puts the Unnest nodes above the read, or above the whole join
// when the statement joins tables: the read's (or join's) own client
// conditions first, then each flatten, and returns the conditions over
// elements, which run above them.
func (sp *selectPlanner) flatten(rp *readPlan, after []expr.Expr) {
	if len(sp.unnests) == 0 {
		return
	}
	node := rp.node
	if len(rp.client) > 0 {
		node = &Filter{Input: node, Pred: expr.And(rp.client)}
	}
	for _, u := range sp.unnests {
		node = &Unnest{Input: node, Source: u.source, Alias: u.alias, X: u.bound, Value: u.value, Ordinality: u.ordinality, Left: u.left}
	}
	rp.node, rp.client, rp.orderSatisfied, rp.counted = node, after, false, false
}

// unnestColumn is column p of FROM item src, written qualified (u.value):
// an UNNEST has only its named columns.
func (b *binder) unnestColumn(src int, p []value.PathElem) (expr.Expr, error) {
	s := b.sources[src]
	if s.unnest != nil && !slices.Contains(s.unnest, p[0].Name) {
		return nil, errorf(diag.CodeUnknownColumn, "%s has no column %s; its columns: %s", s.alias, value.QuoteName(p[0].Name), strings.Join(s.unnest, ", "))
	}
	return b.col(src, p), nil
}

// resolveUnnest places a bare name in a statement with UNNEST: an UNNEST's
// column, or else an attribute of the one table (with several tables, the
// join rules decide).
func (b *binder) resolveUnnest(p value.Path) (int, bool) {
	tables, unnests := -1, 0
	for i, s := range b.sources {
		if s.unnest != nil {
			if slices.Contains(s.unnest, p[0].Name) {
				return i, true
			}
			unnests++
			continue
		}
		if tables >= 0 {
			tables = -2
		} else if tables == -1 {
			tables = i
		}
	}
	return tables, unnests > 0 && tables >= 0
}

// qualified names each column's FROM item in x (bound while only the
// table was in scope), as every column is once an UNNEST joins it.
func qualified(x expr.Expr, sources []source) expr.Expr {
	out, _ := expr.Transform(x, func(e expr.Expr) (expr.Expr, bool, error) {
		if c, ok := e.(expr.Column); ok && c.Qualifier == "" && c.Source < len(sources) {
			c.Qualifier = sources[c.Source].alias
			return c, true, nil
		}
		return e, false, nil
	})
	return out
}
