package planner

// Limit skips Offset rows and then passes at most Count rows (Count < 0: all).
type Limit struct {
	Input  Node
	Offset int64
	Count  int64
}

// Inputs implements Node.
func (n *Limit) Inputs() []Node { return []Node{n.Input} }
