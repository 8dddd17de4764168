package planner

// OneRow yields a single row without columns: the input of SELECT without FROM.
type OneRow struct{}

// Inputs implements Node.
func (*OneRow) Inputs() []Node { return nil }

func (*OneRow) describe() explainLine {
	return explainLine{kind: "OneRow", title: "One row (no FROM: nothing is read)", client: true}
}

func (*OneRow) jsonFields(*jsonWriter, *object) error { return nil }
