package planner

import (
	"errors"
	"sort"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// keyedSemiJoin plans a correlated EXISTS or IN whose decorrelated read
// would be a Scan, when one of its correlation columns is the partition key
// of its table or of a GSI (EXISTS (SELECT 1 FROM orders o WHERE
// o.customer_id = c.id)): instead of reading the whole table once, the
// outer rows' values of that column are looked up by key, each distinct
// value once, as a lookup join does (KeyedSemiJoin); a correlated
// aggregate is folded per outer value from the items found (a grouped
// join). ok is false when the subquery does not have that shape (a join,
// a GROUP BY of its own, a nested subquery, no such key): then the Scan
// rule applies as usual.
func (s *subqueries) keyedSemiJoin(dec decorrelated, kind expr.SubqueryKind, outer []expr.Expr, sql string, fallback fallbackRead) (*SubqueryRead, bool, error) {
	if len(outer) == 0 || (aggregatedSelect(dec.sel) && dec.empty == nil) {
		return nil, false, nil // a GROUP BY of its own: its groups are not the outer values'
	}
	if len(dec.sel.From) != 1 {
		return nil, false, nil
	}
	if _, ok := dec.sel.From[0].(*sqlparser.AliasedTableExpr); !ok {
		return nil, false, nil
	}
	nested := &subqueries{ctx: s.ctx, cat: s.cat, opts: s.opts, paths: s.paths, windows: s.windows, scope: s.scope}
	isp := &selectPlanner{ctx: s.ctx, cat: s.cat, opts: s.opts, ast: dec.sel, count: -1}
	if err := isp.resolveFrom(s.paths); err != nil {
		return nil, false, err
	}
	isp.b.subq = nested
	if err := isp.bindClauses(); err != nil {
		return nil, false, err
	}
	if len(nested.planned) > 0 || len(isp.froms) != 1 || len(isp.items) < len(outer) {
		return nil, false, nil
	}
	t := isp.from.table
	key := -1
	var index *IndexDef
	for j := range outer {
		col, ok := isp.items[j].expr.(expr.Column)
		if !ok || len(col.Path) != 1 {
			continue
		}
		a := col.Path[0].Name
		if a == t.PK.Name {
			key, index = j, nil
			break
		}
		if ix := gsiIndex(t, a); ix != nil && !s.opts.Consistent && key < 0 {
			key, index = j, ix
		}
	}
	if key < 0 {
		return nil, false, nil
	}
	items := make([]expr.Expr, len(isp.items))
	for i, it := range isp.items {
		items[i] = it.expr
		if _, ok := it.expr.(expr.Aggregate); !ok && expr.HasAggregate(it.expr) {
			return nil, false, nil
		}
	}
	lj, err := isp.keyLookup(isp.items[key].expr.(expr.Column).Path[0].Name, index, needs{}.with(items, 0), isp.conjuncts)
	if err != nil {
		var de *diag.Error
		if errors.As(err, &de) {
			return nil, false, err
		}
		return nil, false, nil
	}
	lj.Estimate.Note = "one lookup per distinct value of the outer rows"
	read := &SubqueryRead{Number: len(s.planned) + len(s.semis) + 1, Kind: kind, SQL: sql, Keys: len(outer), Result: &expr.SubqueryResult{}, Empty: dec.empty}
	read.Root = fallback.root
	sj := &KeyedSemiJoin{Lookup: lj, Probe: outer[key], Filter: expr.And(isp.conjuncts), Items: items, Sub: read}
	s.semis = append(s.semis, pendingSemiJoin{node: sj, fallback: fallback})
	return read, true, nil
}

// fallbackRead is the plan of a subquery as one read of its own (a Scan),
// for a keyed semi-join that cannot be placed, or why it cannot be read so.
type fallbackRead struct {
	root  Node
	notes []string
	err   error
}

// pendingSemiJoin is a keyed semi-join not yet put above the read.
type pendingSemiJoin struct {
	node     *KeyedSemiJoin
	fallback fallbackRead
}

func gsiIndex(t *TableDef, attr string) *IndexDef {
	for i := range t.Indexes {
		if ix := &t.Indexes[i]; ix.Global && ix.PK.Name == attr {
			return ix
		}
	}
	return nil
}

// attachSemiJoins puts the statement's keyed semi-joins above its read n,
// below everything that evaluates their subqueries. A subquery that a node
// of n evaluates itself (a filter inside a join or a union of key reads)
// would be tested before its rows are read: it is read whole instead, as
// its fallback plan (a Scan, under the Scan rule).
func (s *subqueries) attachSemiJoins(n Node) (Node, error) {
	if s == nil {
		return n, nil
	}
	for _, p := range s.semis {
		if evaluatesSubquery(n, p.node.Sub.Result) {
			if p.fallback.err != nil {
				return nil, p.fallback.err
			}
			s.planned = append(s.planned, p.node.Sub)
			s.notes = append(s.notes, p.fallback.notes...)
			continue
		}
		p.node.Input = n
		p.node.Sub.Root = nil
		n = p.node
	}
	s.semis = nil
	sort.Slice(s.planned, func(i, j int) bool { return s.planned[i].Number < s.planned[j].Number })
	return n, nil
}

// evaluatesSubquery reports whether a node of tree n evaluates an
// expression that reads result.
func evaluatesSubquery(n Node, result *expr.SubqueryResult) bool {
	return Find(n, func(m Node) bool { return evaluatesIn(ClientExprs(m), result) }) != nil
}

// testsKeyedSemiJoin reports whether c tests a subquery that a keyed
// semi-join will read: c must then be evaluated above the whole read.
func (s *subqueries) testsKeyedSemiJoin(c expr.Expr) bool {
	if s == nil {
		return false
	}
	for _, p := range s.semis {
		if evaluatesIn([]expr.Expr{c}, p.node.Sub.Result) {
			return true
		}
	}
	return false
}

// evaluatesIn reports whether one of es reads result.
func evaluatesIn(es []expr.Expr, result *expr.SubqueryResult) bool {
	found := false
	for _, e := range es {
		expr.Walk(e, func(x expr.Expr) bool {
			if sq, ok := x.(expr.Subquery); ok && sq.Result == result {
				found = true
			}
			return !found
		})
	}
	return found
}
