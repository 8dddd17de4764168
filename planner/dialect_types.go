package planner

import (
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

// leafType is the DynamoDB type a rewritten column reference reads. An
// export's items have no schema, so each reference reads one type-wrapper
// (item.total.N): the type the statement itself shows (a key attribute's
// declared type, a comparison with a literal, arithmetic, a function's
// parameter, a CAST), or, when it shows none, the value as text.
type leafType uint8

const (
	leafText leafType = iota // unknown: S, else N's digits, else BOOL as text
	leafS
	leafN
	leafB
	leafBool
)

// typing holds the type inferred for each column reference, by FROM item
// and path (value.Path.String, so tags[0] and tags[1] are apart).
type typing struct {
	of map[colKey]leafType
	// subquery types the value a subquery yields (nil: unknown).
	subquery func(expr.Subquery) leafType
}

type colKey struct {
	source int
	path   string
}

func keyOf(c expr.Column) colKey { return colKey{c.Source, c.Path.String()} }

func (t *typing) column(c expr.Column) leafType { return t.of[keyOf(c)] }

// inferTypes types every column reference of the statement: key attributes
// from the catalog, then what the expressions show, repeated until nothing
// changes so that a = b passes a type from one column to the other.
func (r *rewriter) inferTypes() {
	t := &typing{of: map[colKey]leafType{}, subquery: func(x expr.Subquery) leafType { return r.subquery(x).typ }}
	for i, f := range r.sp.froms {
		if f.derived != nil {
			for j, col := range f.derived.columns {
				// A column its query reads as text stays open to the
				// type this statement gives it (column casts it).
				if q := r.queries[f.named]; q != nil && j < len(q.types) && q.types[j] != leafText {
					t.of[colKey{i, keyPath(col).String()}] = q.types[j]
				}
			}
			continue
		}
		for _, k := range keyAttrs(f.table) {
			lt := leafS
			switch k.Type {
			case value.Number:
				lt = leafN
			case value.Binary:
				lt = leafB
			}
			t.of[colKey{i, value.Path{{Name: k.Name}}.String()}] = lt
		}
	}
	es := r.allExprs()
	for range 8 {
		changed := false
		for _, e := range es {
			expr.Walk(e, func(x expr.Expr) bool {
				if t.visit(x) {
					changed = true
				}
				return true
			})
		}
		if !changed {
			break
		}
	}
	r.types = t
}

// keyAttrs are the key attributes of a table and of its indexes.
func keyAttrs(t *TableDef) []KeyAttr {
	if t == nil {
		return nil
	}
	out := []KeyAttr{t.PK}
	if t.SK != nil {
		out = append(out, *t.SK)
	}
	for _, ix := range t.Indexes {
		out = append(out, ix.PK)
		if ix.SK != nil {
			out = append(out, *ix.SK)
		}
	}
	return out
}

// want gives column e the type lt unless it has one; it reports a change.
func (t *typing) want(e expr.Expr, lt leafType) bool {
	c, ok := e.(expr.Column)
	if !ok || lt == leafText {
		return false
	}
	k := keyOf(c)
	if t.of[k] != leafText {
		return false
	}
	t.of[k] = lt
	return true
}

// typeOf is the type an expression's value has, leafText when unknown.
func (t *typing) typeOf(e expr.Expr) leafType {
	switch x := e.(type) {
	case expr.Column:
		return t.of[keyOf(x)]
	case expr.Literal:
		switch x.Value.Kind() {
		case value.Number:
			return leafN
		case value.String:
			return leafS
		case value.Bool:
			return leafBool
		case value.Binary:
			return leafB
		}
	case expr.Binary:
		switch x.Op {
		case expr.OpAdd, expr.OpSub, expr.OpMul, expr.OpDiv, expr.OpMod, expr.OpIntDiv:
			return leafN
		}
		return leafBool
	case expr.Unary:
		if x.Op == expr.OpNeg {
			return leafN
		}
		return leafBool
	case expr.In, expr.Between, expr.Like, expr.IsNull:
		return leafBool
	case expr.Cast:
		if x.To == value.Number {
			return leafN
		}
		return leafS
	case expr.Aggregate:
		switch x.Func {
		case "count", "sum", "avg":
			return leafN
		}
		if x.Arg != nil {
			return t.typeOf(x.Arg)
		}
	case expr.Subquery:
		if x.Kind == expr.SubqueryScalar && t.subquery != nil {
			return t.subquery(x)
		}
		if x.Kind != expr.SubqueryScalar {
			return leafBool
		}
	case expr.Window:
		switch x.Func {
		case "row_number", "rank", "dense_rank", "ntile", "count", "sum", "avg":
			return leafN
		}
		if len(x.Args) > 0 {
			return t.typeOf(x.Args[0])
		}
	case expr.Case:
		for _, w := range x.Whens {
			if lt := t.typeOf(w.Result); lt != leafText {
				return lt
			}
		}
		if x.Else != nil {
			return t.typeOf(x.Else)
		}
	case expr.Func:
		switch x.Name {
		case "coalesce", "ifnull", "nullif", "greatest", "least":
			return t.firstKnown(x.Args)
		case "if":
			if len(x.Args) == 3 {
				return t.firstKnown(x.Args[1:])
			}
		}
		if f, ok := funcs.Lookup(x.Name); ok {
			switch f.Result {
			case funcs.String:
				return leafS
			case funcs.Number:
				return leafN
			case funcs.Bool:
				return leafBool
			}
		}
	}
	return leafText
}

func (t *typing) firstKnown(es []expr.Expr) leafType {
	for _, e := range es {
		if lt := t.typeOf(e); lt != leafText {
			return lt
		}
	}
	return leafText
}

// unify gives every column among es the first known type of es.
func (t *typing) unify(es []expr.Expr) bool {
	lt := t.firstKnown(es)
	changed := false
	for _, e := range es {
		if t.want(e, lt) {
			changed = true
		}
	}
	return changed
}

// visit applies what one expression node shows about its operands' types.
func (t *typing) visit(e expr.Expr) bool {
	switch x := e.(type) {
	case expr.Binary:
		switch {
		case x.Op.IsComparison():
			return t.unify([]expr.Expr{x.L, x.R})
		case x.Op == expr.OpAnd || x.Op == expr.OpOr:
			return t.want(x.L, leafBool) || t.want(x.R, leafBool)
		default:
			a, b := t.want(x.L, leafN), t.want(x.R, leafN)
			return a || b
		}
	case expr.Unary:
		if x.Op == expr.OpNeg {
			return t.want(x.X, leafN)
		}
		return t.want(x.X, leafBool)
	case expr.In:
		return t.unify(append([]expr.Expr{x.X}, x.List...))
	case expr.Between:
		return t.unify([]expr.Expr{x.X, x.Lo, x.Hi})
	case expr.Like:
		a, b := t.want(x.X, leafS), t.want(x.Pattern, leafS)
		return a || b
	case expr.Cast:
		if x.To == value.Number {
			return t.want(x.X, leafN)
		}
	case expr.Aggregate:
		if x.Func == "sum" || x.Func == "avg" {
			return t.want(x.Arg, leafN)
		}
	case expr.Subquery:
		if x.Kind == expr.SubqueryIn && t.subquery != nil {
			return t.want(x.X, t.subquery(x))
		}
	case expr.Window:
		if (x.Func == "sum" || x.Func == "avg") && len(x.Args) > 0 {
			return t.want(x.Args[0], leafN)
		}
		if x.Frame.HasOffset() && len(x.Order) == 1 {
			return t.want(x.Order[0].Expr, leafN)
		}
		if (x.Func == "lag" || x.Func == "lead") && len(x.Args) > 1 {
			return t.unify(x.Args)
		}
	case expr.Case:
		changed := false
		if x.Operand != nil {
			ops := []expr.Expr{x.Operand}
			for _, w := range x.Whens {
				ops = append(ops, w.Cond)
			}
			changed = t.unify(ops)
		} else {
			for _, w := range x.Whens {
				if t.want(w.Cond, leafBool) {
					changed = true
				}
			}
		}
		return changed
	case expr.Func:
		return t.visitFunc(x)
	}
	return false
}

func (t *typing) visitFunc(x expr.Func) bool {
	switch x.Name {
	case "coalesce", "ifnull", "nullif", "greatest", "least":
		return t.unify(x.Args)
	case "if":
		if len(x.Args) == 3 {
			a := t.want(x.Args[0], leafBool)
			return t.unify(x.Args[1:]) || a
		}
		return false
	case "begins_with":
		return t.unify(x.Args)
	case "contains", "size", "attribute_exists", "attribute_not_exists", "attribute_type":
		// Read by their own rules (dialect_funcs.go), over several wrappers.
		return false
	}
	f, ok := funcs.Lookup(x.Name)
	if !ok {
		return false
	}
	changed := false
	for i, a := range x.Args {
		lt := leafText
		switch f.Param(i) {
		case funcs.String, funcs.TypeName, funcs.TimeUnit:
			lt = leafS
		case funcs.Number:
			lt = leafN
		case funcs.Bool:
			lt = leafBool
		}
		if t.want(a, lt) {
			changed = true
		}
	}
	return changed
}
