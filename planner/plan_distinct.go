package planner

// Distinct removes duplicate rows (over all columns).
type Distinct struct {
	Input Node
}

// Inputs implements Node.
func (n *Distinct) Inputs() []Node { return []Node{n.Input} }
