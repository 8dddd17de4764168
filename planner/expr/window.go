package expr

import (
	"strconv"
	"strings"
)

// Window is a window function call: Func computed over the rows of the
// window partition the current row is in, ordered by Order, within Frame.
// It appears only in the select list and ORDER BY, and is replaced by a
// Ref above the window operator.
type Window struct {
	Func string // lower case: row_number, rank, …, sum, count
	// Args are the function's arguments: none for ROW_NUMBER, RANK,
	// DENSE_RANK, NTILE and COUNT(*); x for FIRST_VALUE, LAST_VALUE and the
	// aggregates; x and the default value (nil: NULL) for LAG and LEAD.
	Args []Expr
	// N is NTILE's number of buckets, or LAG's and LEAD's offset.
	N         int64
	Partition []Expr
	Order     []WindowKey
	// Frame is the frame the function is computed over: the one written,
	// or the default (with ORDER BY, RANGE UNBOUNDED PRECEDING to CURRENT
	// ROW; without, the whole partition). Ranking functions, NTILE, LAG and
	// LEAD ignore it.
	Frame Frame
}

// WindowKey is one ORDER BY key of a window.
type WindowKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool // where NULL and missing values go
}

// Frame is ROWS or RANGE BETWEEN Start AND End. A RANGE CURRENT ROW
// includes the row's peers; a RANGE offset bound is a distance between
// values of the window's single, numeric ORDER BY key.
type Frame struct {
	Rows       bool
	Start, End FrameBound
}

// BoundKind is the kind of a frame bound, in partition order.
type BoundKind uint8

// Frame bound kinds.
const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// FrameBound is one end of a frame. N is the n of ROWS n
// PRECEDING/FOLLOWING; Offset is the n of RANGE n PRECEDING/FOLLOWING, a
// canonical decimal number (value.Num), kept as text for exact arithmetic.
type FrameBound struct {
	Kind   BoundKind
	N      int64
	Offset string
}

// HasOffset reports whether f is a RANGE frame with an n PRECEDING or n
// FOLLOWING bound, which needs the ORDER BY key's values.
func (f Frame) HasOffset() bool {
	if f.Rows {
		return false
	}
	for _, b := range []FrameBound{f.Start, f.End} {
		if b.Kind == Preceding || b.Kind == Following {
			return true
		}
	}
	return false
}

// offsetText is the bound's n as SQL.
func (b FrameBound) offsetText() string {
	if b.Offset != "" {
		return b.Offset
	}
	return strconv.FormatInt(b.N, 10)
}

func (Window) expr() {}

// String renders the bound as SQL.
func (b FrameBound) String() string {
	switch b.Kind {
	case UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case Preceding:
		return b.offsetText() + " PRECEDING"
	case CurrentRow:
		return "CURRENT ROW"
	case Following:
		return b.offsetText() + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

// String renders the frame as SQL.
func (f Frame) String() string {
	mode := "RANGE"
	if f.Rows {
		mode = "ROWS"
	}
	return mode + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
}

// UsesFrame reports whether the function's result depends on its frame.
func (w Window) UsesFrame() bool {
	switch w.Func {
	case "first_value", "last_value", "sum", "avg", "count", "min", "max":
		return true
	}
	return false
}

// Call renders the function call without OVER.
func (w Window) Call() string {
	var sb strings.Builder
	sb.WriteString(strings.ToUpper(w.Func) + "(")
	switch {
	case w.Func == "count" && len(w.Args) == 0:
		sb.WriteString("*")
	case w.Func == "ntile":
		sb.WriteString(strconv.FormatInt(w.N, 10))
	default:
		for i, a := range w.Args {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(a.String())
			if i == 0 && (w.Func == "lag" || w.Func == "lead") && (len(w.Args) > 1 || w.N != 1) {
				sb.WriteString(", " + strconv.FormatInt(w.N, 10))
			}
		}
	}
	sb.WriteString(")")
	return sb.String()
}

// Spec renders the window specification (what is in OVER's parentheses).
// Windows with the same PARTITION BY and ORDER BY share one sort.
func (w Window) Spec() string {
	var parts []string
	if len(w.Partition) > 0 {
		ps := make([]string, len(w.Partition))
		for i, p := range w.Partition {
			ps[i] = p.String()
		}
		parts = append(parts, "PARTITION BY "+strings.Join(ps, ", "))
	}
	if len(w.Order) > 0 {
		parts = append(parts, "ORDER BY "+OrderText(w.Order))
	}
	return strings.Join(parts, " ")
}

// OrderText renders window ORDER BY keys, NULLS placement only where it is
// not the default (first ascending, last descending).
func OrderText(keys []WindowKey) string {
	os := make([]string, len(keys))
	for i, k := range keys {
		os[i] = k.Expr.String()
		if k.Desc {
			os[i] += " DESC"
		}
		if k.NullsFirst == k.Desc {
			if k.NullsFirst {
				os[i] += " NULLS FIRST"
			} else {
				os[i] += " NULLS LAST"
			}
		}
	}
	return strings.Join(os, ", ")
}

// DefaultFrame is the frame of a window without one: with ORDER BY, RANGE
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW (the row and its peers);
// without, the whole partition.
func DefaultFrame(ordered bool) Frame {
	end := UnboundedFollowing
	if ordered {
		end = CurrentRow
	}
	return Frame{Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: end}}
}

// String renders the call as SQL, with its frame where it matters and is
// not the default.
func (w Window) String() string {
	spec := w.Spec()
	if w.UsesFrame() && w.Frame != DefaultFrame(len(w.Order) > 0) {
		if spec != "" {
			spec += " "
		}
		spec += w.Frame.String()
	}
	return w.Call() + " OVER (" + spec + ")"
}

// HasWindow reports whether e contains a window function.
func HasWindow(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if _, ok := x.(Window); ok {
			found = true
		}
		return !found
	})
	return found
}

// windowChildren lists w's sub-expressions: arguments, PARTITION BY, ORDER BY.
func windowChildren(w Window) []Expr {
	out := append([]Expr(nil), w.Args...)
	out = append(out, w.Partition...)
	for _, k := range w.Order {
		out = append(out, k.Expr)
	}
	return out
}

// transformWindow rebuilds w's sub-expressions with sub.
func transformWindow(w Window, sub func(Expr) (Expr, error)) (Expr, error) {
	var err error
	args := make([]Expr, len(w.Args))
	for i, a := range w.Args {
		if args[i], err = sub(a); err != nil {
			return nil, err
		}
	}
	parts := make([]Expr, len(w.Partition))
	for i, p := range w.Partition {
		if parts[i], err = sub(p); err != nil {
			return nil, err
		}
	}
	order := make([]WindowKey, len(w.Order))
	for i, k := range w.Order {
		order[i] = k
		if order[i].Expr, err = sub(k.Expr); err != nil {
			return nil, err
		}
	}
	w.Args, w.Partition, w.Order = args, parts, order
	return w, nil
}
