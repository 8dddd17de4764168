package planner

import (
	"context"
	"slices"
	"strings"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// PlanStatement compiles a parsed SELECT of any shape: a single SELECT
// (PlanSelect), or one with WITH queries, set operations or derived tables,
// whose SELECTs are each planned by PlanSelect and combined here.
func PlanStatement(ctx context.Context, cat Catalog, sel *parser.Select, opts Options) (*Plan, error) {
	if sel.Query == nil && len(sel.Derived) == 0 {
		return PlanSelect(ctx, cat, selectInput(sel), opts)
	}
	qs := newQueryScopes()
	qs.prepare(sel, nil, map[*cteDef]int{})
	opts.queries = qs
	p, err := planQuery(ctx, cat, sel, opts)
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, n := range append(qs.notes, p.Notes...) {
		if !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	p.Notes = notes
	return p, nil
}

func selectInput(sel *parser.Select) SelectInput {
	return SelectInput{AST: sel.AST, Paths: sel.Paths, QuotedValues: sel.QuotedValues, ItemTexts: sel.ItemTexts, Windows: sel.Windows}
}

// planQuery plans one SELECT, or a query of several, in the scopes of
// opts.queries.
func planQuery(ctx context.Context, cat Catalog, sel *parser.Select, opts Options) (*Plan, error) {
	if sel.Query == nil {
		return PlanSelect(ctx, cat, selectInput(sel), opts)
	}
	q := sel.Query
	p, err := planQueryExpr(ctx, cat, q.Body, opts)
	if err != nil {
		return nil, err
	}
	if _, compound := q.Body.(*parser.SetOp); compound {
		if p, err = orderCompound(p, q); err != nil {
			return nil, err
		}
	}
	if info := opts.queries.queries[q]; info != nil {
		var mats []Node
		for _, d := range info.defs {
			if d.mat != nil {
				mats = append(mats, d.mat)
			}
		}
		if len(mats) > 0 {
			p.Root = &With{CTEs: mats, Input: p.Root}
		}
	}
	return p, nil
}

func planQueryExpr(ctx context.Context, cat Catalog, e parser.QueryExpr, opts Options) (*Plan, error) {
	op, ok := e.(*parser.SetOp)
	if !ok {
		return planQuery(ctx, cat, e.(*parser.Select), opts)
	}
	left, err := planQueryExpr(ctx, cat, op.Left, opts)
	if err != nil {
		return nil, err
	}
	right, err := planQueryExpr(ctx, cat, op.Right, opts)
	if err != nil {
		return nil, err
	}
	name := op.Op.String()
	if op.All {
		name += " ALL"
	}
	if left.Star || right.Star {
		return nil, errorf(diag.CodeUnsupported, "SELECT * cannot be a member of %s: items have no fixed columns to match by position", name).
			Hintf("list the attributes each member returns, in the same order")
	}
	if len(left.Columns) != len(right.Columns) {
		return nil, errorf(diag.CodeInvalid, "the members of %s return different numbers of columns: the first returns %d (%s), the second %d (%s)",
			name, len(left.Columns), strings.Join(left.Columns, ", "), len(right.Columns), strings.Join(right.Columns, ", ")).
			Hintf("each member of %s must return the same number of columns", name)
	}
	kind := map[parser.SetOpKind]SetOpKind{parser.Union: SetUnion, parser.Intersect: SetIntersect, parser.Except: SetExcept}[op.Op]
	node := &SetOp{Left: left.Root, Right: right.Root, Op: kind, All: op.All, Columns: left.Columns}
	return &Plan{Root: node, Columns: left.Columns, Notes: append(left.Notes, right.Notes...)}, nil
}

// orderCompound adds the ORDER BY, LIMIT and OFFSET of a compound, whose
// ORDER BY names output columns by name or position.
func orderCompound(p *Plan, q *parser.Query) (*Plan, error) {
	var keys []SortKey
	for _, it := range q.OrderBy {
		idx := it.Position - 1
		if it.Position == 0 {
			idx = slices.Index(p.Columns, it.Name)
			if idx < 0 {
				idx = slices.IndexFunc(p.Columns, func(c string) bool { return strings.EqualFold(c, it.Name) })
			}
			if idx < 0 {
				return nil, errorf(diag.CodeUnknownColumn, "ORDER BY %s: the result has no column of that name (its columns: %s)", it.Name, strings.Join(p.Columns, ", ")).
					Hintf("the ORDER BY of UNION, INTERSECT or EXCEPT names output columns (the first member's names) or their positions")
			}
		} else if idx >= len(p.Columns) {
			return nil, errorf(diag.CodeInvalid, "ORDER BY %d: the result has only %d columns", it.Position, len(p.Columns))
		}
		keys = append(keys, SortKey{Expr: expr.Ref{Index: idx, Name: p.Columns[idx]}, Desc: it.Desc})
	}
	node := p.Root
	if len(keys) > 0 {
		s := &Sort{Input: node, Keys: keys}
		if q.Count >= 0 {
			s.TopN = q.Offset + q.Count
		}
		node = s
	}
	if q.Count >= 0 || q.Offset > 0 {
		node = &Limit{Input: node, Offset: q.Offset, Count: q.Count}
	}
	p.Root = node
	return p, nil
}
