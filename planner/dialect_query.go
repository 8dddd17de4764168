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
	if len(sel.Derived) > 0 {
		return "", nil, o.d.refuse("a derived table (a SELECT in FROM)")
	}
	q := sel.Query
	if q == nil {
		return o.selectText(ctx, cat, sel, opts)
	}
	if len(q.With) > 0 {
		return "", nil, o.d.refuse("WITH")
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
		return body, cols, nil
	}
	var sb strings.Builder
	sb.WriteString(body)
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
