package planner

// Distinct removes duplicate rows (over all columns).
type Distinct struct {
	Input Node
}

// Inputs implements Node.
func (n *Distinct) Inputs() []Node { return []Node{n.Input} }

func (n *Distinct) describe() explainLine {
	return explainLine{kind: "Distinct", title: "Distinct (client)", client: true}
}

func (n *Distinct) jsonFields(*jsonWriter, *object) error { return nil }
