package planner

// Fetch reads, for each input row, the full item from the base table with
// BatchGetItem (at most 100 keys per request), because the index that was
// queried does not project every attribute the statement needs. Output
// order equals input order.
type Fetch struct {
	Input      Node
	Source     int
	Qualify    bool
	Table      string
	KeyAttrs   []string
	Projection *string // nil: all attributes
	Names      map[string]string
	Consistent bool
	// Estimate is the expected cost of the BatchGetItem requests, from the
	// rows the read below returns.
	Estimate Estimate
}

// Inputs implements Node.
func (n *Fetch) Inputs() []Node { return []Node{n.Input} }
