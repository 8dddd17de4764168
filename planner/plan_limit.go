package planner

import "fmt"

// Limit skips Offset rows and then passes at most Count rows (Count < 0: all).
type Limit struct {
	Input  Node
	Offset int64
	Count  int64
}

// Inputs implements Node.
func (n *Limit) Inputs() []Node { return []Node{n.Input} }

func (n *Limit) describe() explainLine {
	title := fmt.Sprintf("Limit (client): %d", n.Count)
	switch {
	case n.Count < 0:
		title = fmt.Sprintf("Limit (client): OFFSET %d", n.Offset)
	case n.Offset > 0:
		title = fmt.Sprintf("Limit (client): %d OFFSET %d", n.Count, n.Offset)
	}
	return explainLine{kind: "Limit", title: title, client: true}
}

func (n *Limit) jsonFields(_ *jsonWriter, o *object) error {
	if n.Count >= 0 {
		o.add("count", n.Count)
	}
	if n.Offset > 0 {
		o.add("offset", n.Offset)
	}
	return nil
}
