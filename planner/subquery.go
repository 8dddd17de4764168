package planner

import (
	"context"
	"errors"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// subqueries plans the nested SELECTs of one statement (scalar, IN and
// EXISTS subqueries in WHERE, HAVING and the select list). Each is planned
// as a statement of its own; a correlated one is first decorrelated
// (subquery_correlate.go), so every subquery reads its rows once, and the
// statement's expressions look its rows up (expr.Subquery).
type subqueries struct {
	ctx   context.Context
	cat   Catalog
	opts  Options
	paths map[string]parser.Path
	// windows are the statement's OVER clauses (parser.Select.Windows),
	// which a subquery's window calls name too.
	windows map[string]*parser.Window
	// scope are the aliases of the enclosing statements' FROM items, the
	// innermost first: a subquery may refer to those of the statement it
	// is nested in directly (correlation), to no others.
	scope   []string
	planned []*SubqueryRead
	// semis are keyed semi-joins waiting to be put above the read
	// (subquery_semijoin.go).
	semis []pendingSemiJoin
	notes []string
	// selects are the SELECTs of the uncorrelated subqueries, by their
	// results, which EXPLAIN ATHENA/DUCKDB rewrite (dialect_subquery.go).
	selects map[*expr.SubqueryResult]*sqlparser.Select
}

// plan plans the subquery written as sq for an expression of kind; b is
// the binder of the statement it is nested in, which binds the outer
// sides of its correlation.
func (s *subqueries) plan(b *binder, sq *sqlparser.Subquery, kind expr.SubqueryKind) (*SubqueryRead, []expr.Expr, error) {
	sel, ok := sq.Select.(*sqlparser.Select)
	if !ok {
		return nil, nil, errorf(diag.CodeUnsupported, "a subquery with UNION is not supported: write each SELECT as its own subquery")
	}
	if kind != expr.SubqueryExists {
		if err := oneColumn(sel, kind); err != nil {
			return nil, nil, err
		}
	}
	outerAliases := make([]string, len(b.sources))
	for i, src := range b.sources {
		outerAliases[i] = src.alias
	}
	dec, err := decorrelate(sel, outerAliases, s.scope, kind)
	if err != nil {
		return nil, nil, err
	}
	outer := make([]expr.Expr, len(dec.outer))
	for i, o := range dec.outer {
		if outer[i], err = b.bind(o); err != nil {
			return nil, nil, err
		}
	}
	inner := &subqueries{ctx: s.ctx, cat: s.cat, opts: s.opts, paths: s.paths, windows: s.windows,
		scope: append(append([]string(nil), outerAliases...), s.scope...)}
	p, err := planSelectWith(s.ctx, s.cat, SelectInput{AST: dec.sel, Paths: s.paths, Windows: s.windows}, s.opts, inner)
	if (err != nil && isScanRefusal(err)) || (err == nil && NeedsScan(p)) {
		fallback := fallbackRead{err: err}
		if err == nil {
			fallback.root, fallback.notes = p.Root, p.Notes
		}
		read, ok, kerr := s.keyedSemiJoin(dec, kind, outer, sqlparser.String(sq), fallback)
		if kerr != nil {
			return nil, nil, kerr
		}
		if ok {
			return read, outer, nil
		}
	}
	if err != nil {
		return nil, nil, err
	}
	s.notes = append(s.notes, p.Notes...)
	read := &SubqueryRead{Number: len(s.planned) + len(s.semis) + 1, Kind: kind, SQL: sqlparser.String(sq),
		Keys: len(dec.outer), Root: p.Root, Result: &expr.SubqueryResult{}, Empty: dec.empty}
	s.planned = append(s.planned, read)
	if len(dec.outer) == 0 {
		if s.selects == nil {
			s.selects = map[*expr.SubqueryResult]*sqlparser.Select{}
		}
		s.selects[read.Result] = dec.sel
	}
	return read, outer, nil
}

// isScanRefusal reports whether err is the refusal of a Scan.
func isScanRefusal(err error) bool {
	var de *diag.Error
	return errors.As(err, &de) && de.Code == diag.CodeScanNotAllowed
}

// oneColumn checks that a subquery used as a value or IN's list selects
// exactly one column.
func oneColumn(sel *sqlparser.Select, kind expr.SubqueryKind) error {
	use := "a scalar subquery"
	if kind == expr.SubqueryIn {
		use = "a subquery after IN"
	}
	if len(sel.SelectExprs) != 1 {
		return errorf(diag.CodeInvalid, "%s must select exactly one column; this one selects %d", use, len(sel.SelectExprs)).
			Hintf("select the one column to compare with, e.g. (SELECT id FROM …)")
	}
	if _, ok := sel.SelectExprs[0].(*sqlparser.AliasedExpr); !ok {
		return errorf(diag.CodeInvalid, "%s must select exactly one column, not %s", use, sqlparser.String(sel.SelectExprs[0])).
			Hintf("select the one column to compare with, e.g. (SELECT id FROM …)")
	}
	return nil
}

// wrapSubqueries puts the statement's subqueries, if any, above its plan.
func (s *subqueries) wrap(p *Plan) {
	if s == nil || len(s.planned) == 0 {
		return
	}
	sq := &Subqueries{Input: p.Root}
	for _, r := range s.planned {
		sq.Reads = append(sq.Reads, r.Root)
		sq.Subs = append(sq.Subs, r)
	}
	p.Root = sq
	p.Notes = append(p.Notes, s.notes...)
}

// emptyAggregate is the value an aggregate yields over no rows: 0 for
// COUNT, NULL for the others; false when e is not a single aggregate.
func emptyAggregate(e sqlparser.Expr) (value.Value, bool) {
	f, ok := e.(*sqlparser.FuncExpr)
	if !ok || !f.Qualifier.IsEmpty() {
		return value.Value{}, false
	}
	switch f.Name.Lowered() {
	case "count":
		return value.NumTrusted("0"), true
	case "sum", "min", "max", "avg":
		return value.NullValue(), true
	}
	return value.Value{}, false
}
