package planner

import "github.com/ddbsql/ddbsql/planner/expr"

// Project computes output columns. With Star it passes the items through.
type Project struct {
	Input Node
	Exprs []expr.Expr
	Names []string
	Star  bool
	// StarSources restricts a join's SELECT alias.* to the attributes of
	// those FROM items (their indexes, aliases in StarAliases); nil keeps
	// every item's.
	StarSources []int
	StarAliases []string
}

// Inputs implements Node.
func (n *Project) Inputs() []Node { return []Node{n.Input} }
