package planner

import (
	"github.com/ddbsql/ddbsql/planner/value"
)

// Plan is a compiled SELECT.
type Plan struct {
	Root Node
	// Columns are the output column names in select-list order; empty with Star.
	Columns []string
	// Star is SELECT *: each output row is the whole item (its attributes vary).
	Star bool
	// KeyColumns are the table's key attributes, listed first for SELECT *.
	KeyColumns []string
	// Notes are remarks on how the statement was read that the user should
	// see even though it runs (a double-quoted name that may have been meant
	// as a string); EXPLAIN prints them above the plan, a run on stderr.
	Notes []string
}

// Node is one operator of the plan tree. Every kind is declared in this
// package, in plan_<kind>.go with its EXPLAIN description, so a kind
// cannot be added without one.
type Node interface {
	// Inputs are the node's children in the order EXPLAIN prints them: the
	// one way to them (Walk visits a whole tree).
	Inputs() []Node
	// describe is the node's title and text lines for EXPLAIN.
	describe() explainLine
	// jsonFields adds the fields of the node's kind to its object in
	// EXPLAIN's JSON document.
	jsonFields(w *jsonWriter, o *object) error
}

// CountColumn is the name of the single column an Access with Count yields.
const CountColumn = "count"

// keyValue is a literal compared with a key attribute.
type keyValue = value.Value

// NeedsScan reports whether any read of the plan is a Scan.
func NeedsScan(p *Plan) bool {
	return Find(p.Root, func(n Node) bool {
		a, ok := n.(*Access)
		return ok && a.Op == OpScan
	}) != nil
}
