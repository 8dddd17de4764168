package planner

import (
	"fmt"
	"strings"
)

// SetOpKind is a set operation between two queries.
type SetOpKind uint8

const (
	SetUnion SetOpKind = iota
	SetIntersect
	SetExcept
)

func (k SetOpKind) String() string {
	switch k {
	case SetIntersect:
		return "INTERSECT"
	case SetExcept:
		return "EXCEPT"
	}
	return "UNION"
}

// SetOp combines the rows of two queries with the same number of columns,
// by position: UNION ALL passes Left's rows, then Right's; UNION passes
// each distinct row once; INTERSECT the distinct rows of Left that Right
// has, EXCEPT those it has not; INTERSECT ALL and EXCEPT ALL count
// duplicates (a row Left has m times and Right n times comes out min(m, n)
// or max(m−n, 0) times). Rows compare as GROUP BY does: NULLs are equal,
// and numbers by value. The output columns are Columns (the first
// member's names); the order of rows is not defined.
type SetOp struct {
	Left, Right Node
	Op          SetOpKind
	All         bool
	Columns     []string
}

// Inputs implements Node.
func (n *SetOp) Inputs() []Node { return []Node{n.Left, n.Right} }

// Name is the operation as SQL writes it: UNION ALL, INTERSECT, …
func (n *SetOp) Name() string {
	if n.All {
		return n.Op.String() + " ALL"
	}
	return n.Op.String()
}

func (n *SetOp) describe() explainLine {
	var what, how string
	switch {
	case n.Op == SetUnion && n.All:
		what, how = "the rows of both members", "reads the first member, then the second"
	case n.Op == SetUnion:
		what, how = "each distinct row of both members once", "reads the first member, then the second, keeping a set of the rows seen"
	case n.Op == SetIntersect && n.All:
		what, how = "the rows of the first member that the second has, as many times as both have them", "reads the second member into a count per row, then streams the first"
	case n.Op == SetIntersect:
		what, how = "each distinct row of the first member that the second has", "reads the second member into a set of rows, then streams the first"
	case n.All:
		what, how = "the rows of the first member beyond as many as the second has", "reads the second member into a count per row, then streams the first"
	default:
		what, how = "each distinct row of the first member that the second has not", "reads the second member into a set of rows, then streams the first"
	}
	d := []string{"strategy: " + how, "columns (by position, named by the first member): " + strings.Join(n.Columns, ", ")}
	if !(n.Op == SetUnion && n.All) {
		d = append(d, "rows compare as in GROUP BY: NULLs are equal, numbers by value")
	}
	return explainLine{kind: "SetOp", title: fmt.Sprintf("%s (client): %s", n.Name(), what), client: true, details: d}
}

func (n *SetOp) jsonFields(_ *jsonWriter, o *object) error {
	o.add("operation", n.Name())
	o.add("columns", n.Columns)
	return nil
}
