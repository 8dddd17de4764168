package expr

import (
	"github.com/ddbsql/ddbsql/planner/value"
)

// Expr is a resolved SQL expression.
type Expr interface {
	String() string
	expr()
}

// Column reads a document path of the item produced by FROM item Source
// (0 for the first table in FROM).
type Column struct {
	Source int
	Path   value.Path
	// Qualifier is the FROM alias, set when several tables are in scope so
	// EXPLAIN and messages can say which one.
	Qualifier string
	// ID is the column the path starts from: the top-level attribute
	// Path[0] of FROM item Source. The planner numbers a statement's
	// columns densely from 1, one ID per FROM item and attribute, so every
	// reference to the same attribute carries the same ID and exec reads it
	// by slot, never by name.
	ID ColumnID
}

// ColumnID identifies one column of a statement: a top-level attribute of
// one FROM item. IDs are dense, from 1; NoColumn (0) is a reference the
// planner has not numbered.
type ColumnID int32

// NoColumn is the zero ColumnID: no column.
const NoColumn ColumnID = 0

// Literal is a constant.
type Literal struct{ Value value.Value }

// Ref reads column Index of the operator's input by position; it replaces
// aggregates and grouped expressions above an aggregation.
type Ref struct {
	Index int
	Name  string // for EXPLAIN
}

// Op is a unary or binary operator.
type Op uint8

// Operators.
const (
	OpEq Op = iota
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAnd
	OpOr
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpMod
	OpIntDiv
	OpNot
	OpNeg
)

var opText = [...]string{
	OpEq: "=", OpNe: "<>", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpAnd: "AND", OpOr: "OR", OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/",
	OpMod: "%", OpIntDiv: "DIV", OpNot: "NOT", OpNeg: "-",
}

func (o Op) String() string { return opText[o] }

// IsComparison reports whether o is = <> < <= > >=.
func (o Op) IsComparison() bool { return o <= OpGe }

// Flip returns the comparison with its operands swapped (a < b ⇔ b > a).
func (o Op) Flip() Op {
	switch o {
	case OpLt:
		return OpGt
	case OpLe:
		return OpGe
	case OpGt:
		return OpLt
	case OpGe:
		return OpLe
	}
	return o
}

// Binary applies a comparison, logical or arithmetic operator.
type Binary struct {
	Op   Op
	L, R Expr
}

// Unary applies NOT or unary minus.
type Unary struct {
	Op Op
	X  Expr
}

// In is X [NOT] IN (List...).
type In struct {
	X    Expr
	List []Expr
	Not  bool
}

// Between is X [NOT] BETWEEN Lo AND Hi.
type Between struct {
	X, Lo, Hi Expr
	Not       bool
}

// Like is X [NOT] LIKE Pattern, with % and _ wildcards and backslash escapes.
type Like struct {
	X, Pattern Expr
	Not        bool
}

// IsNull is X IS [NOT] NULL.
type IsNull struct {
	X   Expr
	Not bool
}

// Func calls a scalar function (lower-case name, arity checked by the planner).
type Func struct {
	Name string
	Args []Expr
}

// When is one WHEN … THEN … arm of a CASE.
type When struct{ Cond, Result Expr }

// Case is CASE [Operand] WHEN … THEN … [ELSE …] END.
type Case struct {
	Operand Expr // nil for a searched CASE
	Whens   []When
	Else    Expr // nil means NULL
}

// Cast converts to a number (value.Number) or a string (value.String).
type Cast struct {
	X  Expr
	To value.Kind
}

// Aggregate is COUNT/SUM/AVG/MIN/MAX; Arg is nil for COUNT(*).
type Aggregate struct {
	Func     string
	Arg      Expr
	Distinct bool
}

func (Column) expr()    {}
func (Literal) expr()   {}
func (Ref) expr()       {}
func (Binary) expr()    {}
func (Unary) expr()     {}
func (In) expr()        {}
func (Between) expr()   {}
func (Like) expr()      {}
func (IsNull) expr()    {}
func (Func) expr()      {}
func (Case) expr()      {}
func (Cast) expr()      {}
func (Aggregate) expr() {}

// Walk calls fn on e and its descendants, depth first, until fn returns false.
func Walk(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	for _, c := range Children(e) {
		Walk(c, fn)
	}
}

// Children lists e's direct sub-expressions.
func Children(e Expr) []Expr {
	switch t := e.(type) {
	case Binary:
		return []Expr{t.L, t.R}
	case Unary:
		return []Expr{t.X}
	case In:
		return append([]Expr{t.X}, t.List...)
	case Between:
		return []Expr{t.X, t.Lo, t.Hi}
	case Like:
		return []Expr{t.X, t.Pattern}
	case IsNull:
		return []Expr{t.X}
	case Func:
		return t.Args
	case Case:
		var out []Expr
		if t.Operand != nil {
			out = append(out, t.Operand)
		}
		for _, w := range t.Whens {
			out = append(out, w.Cond, w.Result)
		}
		if t.Else != nil {
			out = append(out, t.Else)
		}
		return out
	case Cast:
		return []Expr{t.X}
	case Aggregate:
		if t.Arg != nil {
			return []Expr{t.Arg}
		}
	case Window:
		return windowChildren(t)
	case Subquery:
		var out []Expr
		if t.X != nil {
			out = append(out, t.X)
		}
		return append(out, t.Outer...)
	}
	return nil
}

// Conjuncts splits a predicate on top-level ANDs.
func Conjuncts(e Expr) []Expr {
	if b, ok := e.(Binary); ok && b.Op == OpAnd {
		return append(Conjuncts(b.L), Conjuncts(b.R)...)
	}
	if e == nil {
		return nil
	}
	return []Expr{e}
}

// And joins predicates with AND; nil for none.
func And(preds []Expr) Expr {
	var out Expr
	for _, p := range preds {
		if out == nil {
			out = p
		} else {
			out = Binary{Op: OpAnd, L: out, R: p}
		}
	}
	return out
}

// HasAggregate reports whether e contains an aggregate.
func HasAggregate(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if _, ok := x.(Aggregate); ok {
			found = true
		}
		return !found
	})
	return found
}

// Columns lists the column references in e.
func Columns(e Expr) []Column {
	var out []Column
	Walk(e, func(x Expr) bool {
		if c, ok := x.(Column); ok {
			out = append(out, c)
		}
		return true
	})
	return out
}
