package planner

import "github.com/ddbsql/ddbsql/planner/expr"

// HashJoin reads Build completely into a hash table on BuildKeys and streams
// Probe through it (Probe is the preserved side of a LEFT join).
type HashJoin struct {
	Probe, Build         Node
	Kind                 JoinKind
	ProbeKeys, BuildKeys []expr.Expr
	Residual             expr.Expr
	Reason               string
	AsInner              expr.Expr // as in LookupJoin
}

// Inputs implements Node.
func (n *HashJoin) Inputs() []Node { return []Node{n.Probe, n.Build} }
