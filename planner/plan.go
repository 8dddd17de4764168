package planner

import (
	"github.com/ddbsql/ddbsql/exec/value"
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

// Node is one operator of the plan tree.
type Node interface{ Inputs() []Node }

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
