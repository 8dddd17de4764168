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

func (n *Filter) describe() explainLine {
	if n.Having {
		return explainLine{kind: "Having", title: "Having (client): " + n.Pred.String(), client: true}
	}
	return explainLine{kind: "Filter", title: "Filter (client): " + n.Pred.String(), client: true}
}

func (n *Filter) jsonFields(_ *jsonWriter, o *object) error {
	o.add("condition", n.Pred.String())
	return nil
}
