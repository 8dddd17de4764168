package planner

import "github.com/ddbsql/ddbsql/planner/expr"

// SortKey is one ORDER BY key.
type SortKey struct {
	Expr expr.Expr
	Desc bool
}

// Sort orders rows on the client. TopN > 0 means only the first TopN rows are
// needed (ORDER BY … LIMIT), so it keeps a bounded heap instead of sorting all.
type Sort struct {
	Input Node
	Keys  []SortKey
	TopN  int64
}

// Inputs implements Node.
func (n *Sort) Inputs() []Node { return []Node{n.Input} }
