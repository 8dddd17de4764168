package planner

import (
	"context"
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/plural"
	"github.com/ddbsql/ddbsql/planner/value"
)

// A FROM item that names a WITH query or a derived table reads it
// (derived_scope.go says which queries a name can mean and how often each
// is read): in place, or as a replay of its materialized rows.

// derivedFrom is what a FROM item that reads a named query holds.
type derivedFrom struct {
	node    Node     // its read: *Derived or *CTEScan
	columns []string // nil: SELECT * (the items' own attributes)
	keys    []string // with SELECT *: the key attributes its rows list first
}

// namedQuery finds the named query a FROM item reads, if it reads one.
func (sp *selectPlanner) namedQuery(ate *sqlparser.AliasedTableExpr) *cteDef {
	tn, ok := ate.Expr.(sqlparser.TableName)
	if !ok || !tn.Qualifier.IsEmpty() || sp.opts.queries == nil {
		return nil
	}
	scope := sp.opts.queries.of[sp.ast]
	if scope == nil {
		return nil
	}
	return scope.lookup(tn.Name.String())
}

// fromItemFor resolves one FROM item: a named query, else a table.
func (sp *selectPlanner) fromItemFor(ate *sqlparser.AliasedTableExpr) (fromItem, error) {
	d := sp.namedQuery(ate)
	if d == nil {
		return fromTable(sp.ctx, sp.cat, ate)
	}
	alias := ate.As.String()
	if alias == "" {
		alias = d.name
	}
	what := "the WITH query " + d.name
	if d.derived {
		what = "a derived table"
	}
	if ate.Hints != nil {
		return fromItem{}, errorf(diag.CodeInvalid, "%s is not a table: it has no indexes to hint", what).
			Hintf("drop the index hint after %s", alias)
	}
	if err := d.planOnce(sp.ctx, sp.cat, sp.opts); err != nil {
		return fromItem{}, err
	}
	var node Node
	if d.uses <= 1 {
		cte := d.name
		if d.derived {
			cte = ""
		}
		shown := alias
		if d.derived && ate.As.IsEmpty() {
			shown = "" // the synthetic name means nothing to the user
		}
		node = &Derived{Input: d.plan.Root, Alias: shown, CTE: cte, Columns: d.outCols, Source: len(sp.froms)}
	} else {
		if d.mat == nil {
			d.mat = &Materialize{Input: d.plan.Root, Name: d.name, Columns: d.outCols, Refs: d.uses}
		}
		node = &CTEScan{CTE: d.mat, Alias: alias, Source: len(sp.froms)}
	}
	return fromItem{table: &TableDef{Name: alias}, alias: alias, named: d.name, derived: &derivedFrom{node: node, columns: d.outCols, keys: d.plan.KeyColumns}}, nil
}

// planOnce plans the body of a named query, the first time it is read.
func (d *cteDef) planOnce(ctx context.Context, cat Catalog, opts Options) error {
	if d.planned {
		return nil
	}
	p, err := planQuery(ctx, cat, d.body, opts)
	if err != nil {
		return err
	}
	cols := p.Columns
	what, name := "WITH "+d.name, d.name
	if d.derived {
		what, name = "the derived table "+d.alias, d.alias
	}
	switch {
	case p.Star && len(d.columns) > 0:
		return errorf(diag.CodeInvalid, "%s names %s, but its query is a SELECT *, whose items have no fixed columns", what, plural.Of(len(d.columns), "column")).
			Hintf("list the attributes in the SELECT of %s", name)
	case p.Star:
		cols = nil
	case len(d.columns) > 0 && len(d.columns) != len(cols):
		return errorf(diag.CodeInvalid, "%s names %s, but its query returns %d", what, plural.Of(len(d.columns), "column"), len(cols)).
			Hintf("name as many columns as the SELECT of %s returns", name)
	case len(d.columns) > 0:
		cols = d.columns
	}
	for i, c := range cols {
		for _, prev := range cols[:i] {
			if prev == c {
				what := "the WITH query " + d.name
				if d.derived {
					what = "a derived table"
				}
				return errorf(diag.CodeInvalid, "%s has two columns named %s", what, c).
					Hintf("give its columns distinct names with AS")
			}
		}
	}
	d.plan, d.outCols, d.planned = p, cols, true
	opts.queries.notes = append(opts.queries.notes, p.Notes...)
	return nil
}

// planDerived is the read of a FROM item that is a named query: its rows,
// with every condition on it applied on the client.
func (r *reader) planDerived() *readPlan {
	return &readPlan{node: r.from.derived.node, client: r.conjuncts}
}

// derivedColumn finds the column of a derived source that name means:
// as written, or the one column equal to it ignoring case.
func derivedColumn(cols []string, name string) (string, bool) {
	for _, c := range cols {
		if c == name {
			return c, true
		}
	}
	found := ""
	for _, c := range cols {
		if strings.EqualFold(c, name) {
			if found != "" {
				return "", false
			}
			found = c
		}
	}
	return found, found != ""
}

// sourceOf is how the binder sees a FROM item.
func sourceOf(f fromItem) source {
	s := source{alias: f.alias, table: f.table}
	if f.derived != nil {
		s.derived, s.columns = true, f.derived.columns
	}
	return s
}

// hasColumn reports whether a named query with known columns has name.
func (s source) hasColumn(name string) bool {
	_, ok := derivedColumn(s.columns, name)
	return s.derived && ok
}

// derivedCol is col for source src, checking a named query's columns: its
// attributes are known, so a name it lacks is an error, not a missing value.
func (b *binder) derivedCol(src int, p value.Path) (expr.Expr, error) {
	s := b.sources[src]
	if !s.derived || s.columns == nil {
		return b.col(src, p), nil
	}
	name, ok := derivedColumn(s.columns, p[0].Name)
	if !ok {
		return nil, errorf(diag.CodeUnknownColumn, "unknown column %s: %s has the columns %s", value.QuoteName(p[0].Name), s.alias, strings.Join(s.columns, ", "))
	}
	q := append(value.Path{{Name: name}}, p[1:]...)
	return b.col(src, q), nil
}

// expandStar turns * (or alias.*) into the columns of the named queries
// and UNNESTs it selects when they all have known columns, so the result
// has them, in order; a star over a table keeps the items' own attributes.
func (sp *selectPlanner) expandStar(n *sqlparser.StarExpr) bool {
	b := sp.b
	srcs := make([]int, len(b.sources))
	for i := range srcs {
		srcs[i] = i
	}
	if q := n.TableName.Name.String(); q != "" {
		src := b.sourceByAlias(q)
		if src < 0 {
			return false
		}
		srcs = []int{src}
	}
	if len(srcs) == 0 {
		return false
	}
	for _, s := range srcs {
		if b.sources[s].knownColumns() == nil {
			return false
		}
	}
	for _, s := range srcs {
		for _, c := range b.sources[s].knownColumns() {
			sp.items = append(sp.items, selectItem{expr: b.col(s, value.Path{{Name: c}}), name: c})
		}
	}
	return true
}

// knownColumns are the columns of a named query or an UNNEST, nil for a
// table (whose items are schemaless).
func (s source) knownColumns() []string {
	if s.unnest != nil {
		return s.unnest
	}
	if s.derived {
		return s.columns
	}
	return nil
}
