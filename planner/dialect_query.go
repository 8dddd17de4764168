package planner

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// statement renders a SELECT or a query of several: set operations with
// the compound's ORDER BY (by output position) and LIMIT. It returns the
// output column names (the first member's).
func (o *dialectOut) statement(ctx context.Context, cat Catalog, sel *parser.Select, opts Options) (string, []string, error) {
	q := sel.Query
	if q == nil {
		if err := o.deriveds(ctx, cat, sel, opts); err != nil {
			return "", nil, err
		}
		return o.selectText(ctx, cat, selectInput(sel), opts)
	}
	with := ""
	if len(q.With) > 0 {
		var err error
		if with, err = o.withText(ctx, cat, q.With, opts); err != nil {
			return "", nil, err
		}
	}
	outer := o.untypedOut
	o.untypedOut = nil
	body, cols, err := o.queryExpr(ctx, cat, q.Body, opts)
	if err != nil {
		return "", nil, err
	}
	untyped := o.untypedOut // of every member
	o.untypedOut = outer
	for i := range untyped {
		if o.untypedOut != nil {
			o.untypedOut[i] = true
		}
	}
	if _, compound := q.Body.(*parser.SetOp); !compound {
		return with + body, cols, nil
	}
	var sb strings.Builder
	sb.WriteString(with + body)
	if len(q.OrderBy) > 0 {
		keys := make([]string, len(q.OrderBy))
		for i, it := range q.OrderBy {
			pos := it.Position
			if pos == 0 {
				idx := slices.Index(cols, it.Name)
				if idx < 0 {
					idx = slices.IndexFunc(cols, func(c string) bool { return strings.EqualFold(c, it.Name) })
				}
				if idx < 0 {
					return "", nil, errorf(diag.CodeUnknownColumn, "ORDER BY %s: the result has no column of that name (its columns: %s)", it.Name, strings.Join(cols, ", "))
				}
				pos = idx + 1
			}
			if pos > len(cols) {
				return "", nil, errorf(diag.CodeInvalid, "ORDER BY %d: the result has only %d columns", pos, len(cols))
			}
			if untyped[pos-1] {
				return "", nil, o.d.refuse("ORDER BY %s of a compound: the column is read as text (nothing types it), which would not sort as ddbsql sorts it", cols[pos-1]).
					Hintf("type it in every member, e.g. CAST(%s AS DECIMAL) or CAST(%s AS CHAR)", cols[pos-1], cols[pos-1])
			}
			keys[i] = strconv.Itoa(pos)
			if it.Desc {
				keys[i] += " DESC NULLS LAST"
			} else {
				keys[i] += " ASC NULLS FIRST"
			}
		}
		sb.WriteString("\nORDER BY " + strings.Join(keys, ", "))
	}
	off, lim := "", ""
	if q.Offset > 0 {
		off = "\nOFFSET " + strconv.FormatInt(q.Offset, 10)
	}
	if q.Count >= 0 {
		lim = "\nLIMIT " + strconv.FormatInt(q.Count, 10)
	}
	if o.athena() {
		sb.WriteString(off + lim)
	} else {
		sb.WriteString(lim + off)
	}
	return sb.String(), cols, nil
}

// queryExpr renders a member of a compound; each SELECT in parentheses.
func (o *dialectOut) queryExpr(ctx context.Context, cat Catalog, e parser.QueryExpr, opts Options) (string, []string, error) {
	op, ok := e.(*parser.SetOp)
	if !ok {
		return o.statement(ctx, cat, e.(*parser.Select), opts)
	}
	left, cols, err := o.queryExpr(ctx, cat, op.Left, opts)
	if err != nil {
		return "", nil, err
	}
	right, rcols, err := o.queryExpr(ctx, cat, op.Right, opts)
	if err != nil {
		return "", nil, err
	}
	name := op.Op.String()
	if op.All {
		name += " ALL"
	}
	if len(cols) != len(rcols) {
		return "", nil, errorf(diag.CodeInvalid, "the members of %s return different numbers of columns: the first returns %d (%s), the second %d (%s)",
			name, len(cols), strings.Join(cols, ", "), len(rcols), strings.Join(rcols, ", "))
	}
	return "(" + indent(left) + ")\n" + name + "\n(" + indent(right) + ")", cols, nil
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n ") }

// namedQuery is a WITH query or derived table of the statement.
type namedQuery struct {
	cte   parser.CTE
	types []leafType // of its columns, once rendered
	text  string     // its rendered body (derived tables: rendered where used)
}

// withText renders a WITH list.
func (o *dialectOut) withText(ctx context.Context, cat Catalog, with []parser.CTE, opts Options) (string, error) {
	parts := make([]string, len(with))
	for i, cte := range with {
		nq := &namedQuery{cte: cte}
		o.queries[cte.Name] = nq
		text, _, err := o.statement(ctx, cat, cte.Body, opts)
		if err != nil {
			return "", err
		}
		nq.types = o.lastTypes
		head := o.quoteIdent(cte.Name)
		if len(cte.Columns) > 0 {
			head += "(" + o.identList(cte.Columns) + ")"
		}
		parts[i] = head + " AS (\n  " + strings.ReplaceAll(text, "\n", "\n  ") + "\n)"
	}
	return "WITH " + strings.Join(parts, ",\n") + "\n", nil
}

func (o *dialectOut) identList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = o.quoteIdent(n)
	}
	return strings.Join(out, ", ")
}

// namedRef is a FROM item that reads a WITH query (by name) or a derived
// table (its query in parentheses), under its alias.
func (r *rewriter) namedRef(f fromItem) string {
	nq := r.queries[f.named]
	if nq == nil || !nq.cte.Derived {
		if f.alias == f.named {
			return r.quoteIdent(f.named)
		}
		return r.quoteIdent(f.named) + " AS " + r.quoteIdent(f.alias)
	}
	ref := "(\n  " + strings.ReplaceAll(nq.text, "\n", "\n  ") + "\n) AS " + r.quoteIdent(f.alias)
	if len(nq.cte.Columns) > 0 {
		ref += "(" + r.identList(nq.cte.Columns) + ")"
	}
	return ref
}

// deriveds renders the derived tables of a SELECT before it is bound, so
// their columns' types are known when the SELECT's references are typed.
func (o *dialectOut) deriveds(ctx context.Context, cat Catalog, sel *parser.Select, opts Options) error {
	for _, cte := range sel.Derived {
		nq := &namedQuery{cte: cte}
		text, _, err := o.statement(ctx, cat, cte.Body, opts)
		if err != nil {
			return err
		}
		nq.text, nq.types = text, o.lastTypes
		o.queries[cte.Name] = nq
	}
	return nil
}
