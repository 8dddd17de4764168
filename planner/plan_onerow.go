package planner

// OneRow yields a single row without columns: the input of SELECT without FROM.
type OneRow struct{}

// Inputs implements Node.
func (*OneRow) Inputs() []Node { return nil }
