package planner

import (
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// build assembles the operator tree above the read:
// read → client filter → aggregate → HAVING → windows → project → distinct → sort → limit → trim.
func (sp *selectPlanner) build() (*Plan, error) {
	agg := sp.aggregated()
	win := sp.hasWindows()
	if err := sp.checkWindowPlaces(); err != nil {
		return nil, err
	}
	if sp.star && agg {
		return nil, errorf(diag.CodeAggregate, "SELECT * cannot be combined with GROUP BY or aggregates; list the grouped columns")
	}
	if sp.star && sp.distinct {
		return nil, errorf(diag.CodeUnsupported, "SELECT DISTINCT * is not supported: every item has a unique primary key, so it equals SELECT *")
	}
	req := readRequest{need: sp.baseNeeds(), limit: -1}
	if !agg && !sp.distinct && !win {
		req.order = sp.order
		if sp.count >= 0 {
			req.limit = sp.offset + sp.count
		}
	}
	req.countOnly = agg && !win && len(sp.groups) == 0 && sp.having == nil && !sp.distinct &&
		len(sp.items) == 1 && isCountStar(sp.items[0].expr) && sp.onlyCountInOrder() && len(sp.froms) == 1 && !sp.noTable
	var rp *readPlan
	var err error
	switch {
	case sp.noTable:
		rp = &readPlan{node: &OneRow{}, client: sp.conjuncts}
	case len(sp.froms) > 1:
		conjuncts, afterUnnest := sp.prepareUnnestRead(&req)
		tables := sp.conjuncts
		sp.conjuncts = conjuncts
		rp, err = sp.planJoin(req)
		sp.conjuncts = tables
		if err == nil {
			sp.flatten(rp, afterUnnest)
		}
	default:
		conjuncts, afterUnnest := sp.prepareUnnestRead(&req)
		if rp, err = sp.planSingle(req, conjuncts); err == nil {
			sp.flatten(rp, afterUnnest)
		}
	}
	if err != nil {
		return nil, err
	}
	node, err := sp.b.subq.attachSemiJoins(rp.node)
	if err != nil {
		return nil, err
	}
	if len(rp.client) > 0 {
		node = &Filter{Input: node, Pred: expr.And(rp.client)}
	}
	if rp.counted {
		node = &Project{Input: node, Exprs: []expr.Expr{expr.Ref{Index: 0, Name: sp.items[0].name}}, Names: []string{sp.items[0].name}}
		return &Plan{Root: sp.limit(node), Columns: []string{sp.items[0].name}}, nil
	}
	if sp.star {
		return sp.buildStar(node, rp)
	}
	items := make([]expr.Expr, len(sp.items))
	names := make([]string, len(sp.items))
	for i, it := range sp.items {
		items[i], names[i] = it.expr, it.name
	}
	order := sp.order
	if agg {
		var aggNode *Aggregate
		var having expr.Expr
		aggNode, items, having, order, err = sp.aggregate(node, items)
		if err != nil {
			return nil, err
		}
		node = aggNode
		if having != nil {
			node = &Filter{Input: node, Pred: having, Having: true}
		}
	}
	if win {
		node, items, order = sp.planWindows(node, items, order)
	}
	// The read satisfies ORDER BY only when it was asked to (not with
	// DISTINCT, GROUP BY or windows, which reorder rows).
	return sp.finish(node, items, names, order, rp.orderSatisfied && req.order != nil)
}

// finish projects, de-duplicates, sorts and limits.
func (sp *selectPlanner) finish(node Node, items []expr.Expr, names []string, order []SortKey, orderSatisfied bool) (*Plan, error) {
	exprs := append([]expr.Expr(nil), items...)
	outNames := append([]string(nil), names...)
	var keys []SortKey
	if len(order) > 0 && !orderSatisfied {
		for _, k := range order {
			idx := indexOfExpr(items, k.Expr)
			if idx < 0 {
				if sp.distinct {
					return nil, errorf(diag.CodeInvalid, "with SELECT DISTINCT, ORDER BY %s must be one of the selected columns", k.Expr)
				}
				idx = len(exprs)
				exprs = append(exprs, k.Expr)
				outNames = append(outNames, "")
			}
			keys = append(keys, SortKey{Expr: expr.Ref{Index: idx, Name: k.Expr.String()}, Desc: k.Desc})
		}
	}
	node = &Project{Input: node, Exprs: exprs, Names: outNames}
	if sp.distinct {
		node = &Distinct{Input: node}
	}
	if len(keys) > 0 {
		s := &Sort{Input: node, Keys: keys}
		if sp.count >= 0 {
			s.TopN = sp.offset + sp.count
		}
		node = s
	}
	node = sp.limit(node)
	if len(exprs) > len(items) {
		refs := make([]expr.Expr, len(items))
		for i := range items {
			refs[i] = expr.Ref{Index: i, Name: names[i]}
		}
		node = &Project{Input: node, Exprs: refs, Names: names}
	}
	return &Plan{Root: node, Columns: names}, nil
}

func (sp *selectPlanner) buildStar(node Node, rp *readPlan) (*Plan, error) {
	// Sort below the Project: ORDER BY may name columns the Project drops
	// (another table's, with alias.*).
	if len(sp.order) > 0 && !rp.orderSatisfied {
		s := &Sort{Input: node, Keys: sp.order}
		if sp.count >= 0 {
			s.TopN = sp.offset + sp.count
		}
		node = s
	}
	proj := &Project{Input: node, Star: true}
	froms := sp.froms
	if items := len(sp.b.sources); !sp.bareStar && items > 1 && len(sp.starSources) < items {
		// alias.* in a join or with UNNEST: that table's attributes, not
		// the joined row's.
		proj.StarSources = append([]int(nil), sp.starSources...)
		froms = nil
		for _, src := range sp.starSources {
			proj.StarAliases = append(proj.StarAliases, sp.b.sources[src].alias)
			if src < len(sp.froms) {
				froms = append(froms, sp.froms[src])
			}
		}
	}
	node = proj
	var keys []string
	for _, f := range froms {
		names := f.table.KeyNames()
		if f.derived != nil {
			names = f.derived.keys
		}
		for _, k := range names {
			if !contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return &Plan{Root: sp.limit(node), Star: true, KeyColumns: keys}, nil
}

func (sp *selectPlanner) limit(node Node) Node {
	if sp.count < 0 && sp.offset == 0 {
		return node
	}
	return &Limit{Input: node, Offset: sp.offset, Count: sp.count}
}

// baseNeeds collects what the statement reads from items above the WHERE.
func (sp *selectPlanner) baseNeeds() needs {
	if sp.star {
		return needs{star: true}
	}
	return needs{}.with(sp.aboveWhere(), 0)
}

// aboveWhere lists the expressions evaluated after the read: the select
// list, GROUP BY, HAVING and ORDER BY.
func (sp *selectPlanner) aboveWhere() []expr.Expr {
	var es []expr.Expr
	for _, it := range sp.items {
		es = append(es, it.expr)
	}
	es = append(es, sp.groups...)
	if sp.having != nil {
		es = append(es, sp.having)
	}
	for _, k := range sp.order {
		es = append(es, k.Expr)
	}
	return es
}

func (sp *selectPlanner) onlyCountInOrder() bool {
	for _, k := range sp.order {
		if !isCountStar(k.Expr) {
			if _, ok := k.Expr.(expr.Literal); !ok {
				return false
			}
		}
	}
	return true
}

func isCountStar(e expr.Expr) bool {
	a, ok := e.(expr.Aggregate)
	return ok && a.Func == "count" && a.Arg == nil
}

// indexOfExpr finds an expression among items by its rendering.
func indexOfExpr(items []expr.Expr, e expr.Expr) int {
	s := e.String()
	for i, it := range items {
		if it.String() == s {
			return i
		}
	}
	return -1
}
