package planner

import "github.com/ddbsql/ddbsql/planner/expr"

// Unnest is a lateral flatten (UNNEST(x) AS u(value[, n])): each input row
// is repeated once per element of X — a list's elements in order, a set's
// members in the order DynamoDB returned them — with the element as
// column Value of FROM item Source (and its 1-based position as column
// Ordinality, when named). A row whose X is no list or set (missing, NULL,
// a scalar, a map) or is empty yields no row, or with Left one row whose
// element is missing (SQL NULL).
type Unnest struct {
	Input      Node
	Source     int
	Alias      string
	X          expr.Expr
	Value      string
	Ordinality string // "" without WITH ORDINALITY
	Left       bool
}

// Inputs implements Node.
func (n *Unnest) Inputs() []Node { return []Node{n.Input} }

func (n *Unnest) describe() explainLine {
	title := "Unnest"
	if n.Left {
		title += " (LEFT: a row without elements is kept once, with NULL)"
	}
	cols := n.Value
	if n.Ordinality != "" {
		cols += ", " + n.Ordinality + " WITH ORDINALITY"
	}
	title += ": " + n.Alias + "(" + cols + ") ← " + n.X.String()
	return explainLine{kind: "Unnest", title: title, client: true}
}

func (n *Unnest) jsonFields(_ *jsonWriter, o *object) error {
	o.add("alias", n.Alias)
	o.add("expression", n.X.String())
	o.add("value_column", n.Value)
	if n.Ordinality != "" {
		o.add("ordinality_column", n.Ordinality)
	}
	o.add("left", n.Left)
	return nil
}
