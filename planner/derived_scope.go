package planner

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
)

// WITH queries and derived tables are named queries a FROM can read. Before
// planning, one pass over the statement (prepare) builds their scopes (a
// WITH query sees the ones defined before it; a derived table the scope of
// its SELECT) and counts how often the plan will read each: the statement
// and the queries it reads, each counted once however often it is read
// itself, since it runs once. A query read once is planned in place
// (Derived); one read several times is materialized once and replayed
// (Materialize, CTEScan, under a With); one never read is not planned.

// cteDef is one WITH query or derived table.
type cteDef struct {
	name    string
	columns []string // the declared column list, if any
	body    *parser.Select
	derived bool
	alias   string    // a derived table's alias, when it declares columns
	scope   *cteScope // what its body can name
	owner   *queryInfo
	uses    int

	planned bool
	plan    *Plan
	outCols []string // nil: the body is a SELECT *
	mat     *Materialize
}

// cteScope is the named queries visible at one place of the statement.
type cteScope struct {
	parent *cteScope
	defs   []*cteDef
}

// lookup finds a named query by name: exactly as written first, then
// ignoring case, as SQL names are; the nearest scope wins.
func (s *cteScope) lookup(name string) *cteDef {
	for sc := s; sc != nil; sc = sc.parent {
		for _, d := range sc.defs {
			if d.name == name {
				return d
			}
		}
		for _, d := range sc.defs {
			if strings.EqualFold(d.name, name) {
				return d
			}
		}
	}
	return nil
}

// queryInfo is one WITH list: its definitions, for the With node.
type queryInfo struct {
	defs []*cteDef
}

// queryScopes maps every SELECT AST of the statement (subqueries included)
// to the scope its FROM names resolve in. It travels in Options, so any
// planning of a nested SELECT sees it.
type queryScopes struct {
	of      map[*sqlparser.Select]*cteScope
	queries map[*parser.Query]*queryInfo
	notes   []string
}

func newQueryScopes() *queryScopes {
	return &queryScopes{of: map[*sqlparser.Select]*cteScope{}, queries: map[*parser.Query]*queryInfo{}}
}

// prepare builds the scopes of sel and adds to count the reads sel makes
// of queries defined outside it.
func (qs *queryScopes) prepare(sel *parser.Select, scope *cteScope, count map[*cteDef]int) {
	if sel.Query == nil {
		s := scope
		if len(sel.Derived) > 0 {
			s = &cteScope{parent: scope}
			for i := range sel.Derived {
				d := &sel.Derived[i]
				def := &cteDef{name: d.Name, columns: d.Columns, alias: d.Alias, body: d.Body, derived: true, scope: scope}
				s.defs = append(s.defs, def)
				qs.prepare(d.Body, scope, count)
			}
		}
		qs.prepareAST(sel.AST, s, count)
		return
	}
	q := sel.Query
	info := &queryInfo{}
	qs.queries[q] = info
	for i, c := range q.With {
		info.defs = append(info.defs, &cteDef{name: c.Name, columns: c.Columns, body: c.Body, owner: info,
			scope: &cteScope{parent: scope, defs: info.defs[:i:i]}})
	}
	main := &cteScope{parent: scope, defs: info.defs}
	local := map[*cteDef]int{}
	qs.prepareExpr(q.Body, main, local)
	for i := len(info.defs) - 1; i >= 0; i-- {
		d := info.defs[i]
		d.uses = local[d]
		if d.uses > 0 {
			qs.prepare(d.body, d.scope, local)
		}
	}
	for d, n := range local {
		if d.owner != info {
			count[d] += n
		}
	}
}

func (qs *queryScopes) prepareExpr(e parser.QueryExpr, scope *cteScope, count map[*cteDef]int) {
	switch t := e.(type) {
	case *parser.Select:
		qs.prepare(t, scope, count)
	case *parser.SetOp:
		qs.prepareExpr(t.Left, scope, count)
		qs.prepareExpr(t.Right, scope, count)
	}
}

// prepareAST records the scope of ast and of the subqueries in it, and
// counts the named queries its FROM items read.
func (qs *queryScopes) prepareAST(ast *sqlparser.Select, scope *cteScope, count map[*cteDef]int) {
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch t := n.(type) {
		case *sqlparser.Select:
			qs.of[t] = scope
		case *sqlparser.AliasedTableExpr:
			if tn, ok := t.Expr.(sqlparser.TableName); ok && tn.Qualifier.IsEmpty() {
				if d := scope.lookup(tn.Name.String()); d != nil {
					count[d]++
					if d.derived {
						d.uses++
					}
				}
			}
		}
		return true, nil
	}, ast)
}
