package parser

// Window is the OVER clause of one window function call. The parser hands
// sqlparser the call f(args) OVER (PARTITION BY p… ORDER BY o…) as the
// synthetic call name(f(args), p…, o…), name being a key of
// Select.Windows: its first argument is the function, the next Partition
// arguments partition the rows and the rest order them, one per Order.
type Window struct {
	Partition int
	Order     []WindowOrder
	// Frame is the ROWS or RANGE clause; nil means the default frame.
	Frame *Frame
	Loc   Span // from OVER to the closing parenthesis
}

// WindowOrder is the direction of one ORDER BY key of a window.
type WindowOrder struct {
	Desc  bool
	Nulls NullsOrder
}

// NullsOrder is where an ORDER BY key puts NULLs.
type NullsOrder uint8

// Where NULLs go: by default first ascending and last descending, as in
// SQLite and the statement's own ORDER BY.
const (
	NullsDefault NullsOrder = iota
	NullsFirst
	NullsLast
)

// Frame is a window frame: ROWS or RANGE BETWEEN Start AND End.
type Frame struct {
	Rows       bool // ROWS; else RANGE
	Start, End FrameBound
	Loc        Span
}

// BoundKind is the kind of one frame bound, in the order bounds follow
// each other in a partition.
type BoundKind uint8

// Frame bounds.
const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// FrameBound is one end of a frame; Offset is the n of n PRECEDING and n
// FOLLOWING, as its digits.
type FrameBound struct {
	Kind   BoundKind
	Offset string
	Loc    Span
}

// String renders the bound as SQL.
func (b FrameBound) String() string {
	switch b.Kind {
	case UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case Preceding:
		return b.Offset + " PRECEDING"
	case CurrentRow:
		return "CURRENT ROW"
	case Following:
		return b.Offset + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

// String renders the frame as SQL.
func (f *Frame) String() string {
	mode := "RANGE"
	if f.Rows {
		mode = "ROWS"
	}
	return mode + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
}
