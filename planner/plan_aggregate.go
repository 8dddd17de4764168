package planner

import "github.com/ddbsql/ddbsql/planner/expr"

// Aggregate groups its input by Groups and computes Aggs; its output columns
// are the group values followed by the aggregate values (addressed by Ref).
type Aggregate struct {
	Input  Node
	Groups []expr.Expr
	Aggs   []expr.Aggregate
}

// Inputs implements Node.
func (n *Aggregate) Inputs() []Node { return []Node{n.Input} }
