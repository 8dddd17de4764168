package planner

import "github.com/ddbsql/ddbsql/planner/expr"

// Filter keeps the rows for which Pred is true, evaluated on the client.
type Filter struct {
	Input Node
	Pred  expr.Expr
	// Having marks a filter over aggregated rows (for EXPLAIN).
	Having bool
}

// Inputs implements Node.
func (n *Filter) Inputs() []Node { return []Node{n.Input} }
