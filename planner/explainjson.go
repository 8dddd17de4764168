package planner

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// ExplainJSONVersion is the version of EXPLAIN's JSON document. It changes
// only when a field is removed or changes meaning; new fields may be added
// within a version.
const ExplainJSONVersion = 1

// ActualFigures is what one plan node did, for EXPLAIN ANALYZE in JSON.
type ActualFigures struct {
	Ran           bool // false: the node never ran (a LIMIT was met first)
	Rows          int64
	Time          time.Duration
	Requests      map[string]int // by operation
	Pages         int
	ItemsRead     int64
	ItemsReturned int64
	RCU           float64
	// What the node spilled past --memory-limit: files and bytes written
	// to --temp-dir, and the most memory it reserved at once.
	SpillFiles int
	SpillBytes int64
	MemoryPeak int64
}

// JSONOptions completes EXPLAIN's JSON document.
type JSONOptions struct {
	// Notes go before the plan's own notes (the caller's remarks, such as
	// that the plan needs --allow-scan).
	Notes []string
	// Actual, for EXPLAIN ANALYZE, gives what each node did.
	Actual func(Node) (ActualFigures, bool)
	// ActualTotal, for EXPLAIN ANALYZE, is the statement's statistics.
	ActualTotal any
	// Compact writes the document on one line (ndjson); otherwise it is
	// indented.
	Compact bool
}

// ExplainJSON renders the plan as one JSON document: the same tree as the
// text EXPLAIN, every request exactly as exec sends it (the SDK inputs the
// plan holds, in the DynamoDB API's field names and DynamoDB JSON values),
// the estimate of each read and the total. The result ends in a newline.
func ExplainJSON(p *Plan, opts JSONOptions) ([]byte, error) {
	w := jsonWriter{actual: opts.Actual}
	root, err := w.tree(p.Root)
	if err != nil {
		return nil, errorf(diag.CodeInvalid, "cannot render the plan as JSON: %v", err)
	}
	notes := append(append([]string{}, opts.Notes...), p.Notes...)
	doc := object{{"version", ExplainJSONVersion}, {"notes", notes}, {"plan", root},
		{"estimated_total", estimateJSON(TotalEstimate(p), true)}}
	if opts.ActualTotal != nil {
		doc = append(doc, field{"actual_total", opts.ActualTotal})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if !opts.Compact {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// object is a JSON object that keeps its fields in order, so the document
// reads like the text EXPLAIN (kind and title first, children last).
type object []field

type field struct {
	k string
	v any
}

// MarshalJSON implements json.Marshaler.
func (o object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(f.k); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(':')
		if err := enc.Encode(f.v); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// add appends a field unless v is empty ("", nil, an empty list).
func (o *object) add(k string, v any) {
	switch t := v.(type) {
	case nil:
		return
	case string:
		if t == "" {
			return
		}
	case []string:
		if len(t) == 0 {
			return
		}
	case []any:
		if len(t) == 0 {
			return
		}
	}
	*o = append(*o, field{k, v})
}

type jsonWriter struct {
	actual func(Node) (ActualFigures, bool)
}

// tree renders n and the nodes below it, each with its inputs last as
// "children".
func (w *jsonWriter) tree(root Node) (object, error) {
	var top object
	var err error
	siblings := map[Node]*[]any{} // the children list each node goes into
	Walk(root, func(n Node, depth int) bool {
		if err != nil {
			return false
		}
		var o object
		if o, err = w.node(n); err != nil {
			return false
		}
		children := &[]any{}
		o = append(o, field{"children", children})
		for _, in := range n.Inputs() {
			siblings[in] = children
		}
		if depth == 0 {
			top = o
		} else {
			*siblings[n] = append(*siblings[n], o)
		}
		return true
	})
	return top, err
}

// node renders one node without its inputs.
func (w *jsonWriter) node(n Node) (object, error) {
	line := n.describe()
	o := object{{"kind", line.kind}, {"title", line.title}, {"client", line.client}}
	if err := n.jsonFields(w, &o); err != nil {
		return nil, err
	}
	if w.actual != nil {
		if a, ok := w.actual(n); ok {
			o.add("actual", actualJSON(a))
		}
	}
	return o, nil
}

func order(desc bool) string {
	if desc {
		return "DESC"
	}
	return "ASC"
}

// estimateJSON renders an estimate with the same figures and words as the
// text EXPLAIN ("text"). Unknown reads have "unknown" in place of their
// figures and say why.
func estimateJSON(e Estimate, total bool) object {
	text := e.String()
	if total {
		text = e.TotalString()
	}
	if !e.IsUnknown() {
		o := object{{"requests", e.Requests}, {"items", e.Items}, {"rcu", e.RCU}, {"at_least", e.AtLeast}}
		o.add("note", e.Note)
		if e.Stale != "" {
			o.add("item_size_unknown", "DescribeTable reports "+e.Stale+"; "+countsLag)
		}
		return append(o, field{"text", text})
	}
	o := object{{"requests", "unknown"}, {"items", "unknown"}, {"rcu", "unknown"}}
	reason := e.UnknownReason()
	if !total {
		var whys []string
		lag := false
		for _, u := range e.Unknown {
			whys = append(whys, u.Why)
			lag = lag || !u.Derived
		}
		reason = strings.Join(whys, ", ")
		if lag {
			reason += "; " + countsLag
		}
	}
	o.add("unknown_reason", reason)
	if e.Requests != 0 || e.Items != 0 || e.RCU != 0 {
		o.add("known_part", object{{"requests", e.Requests}, {"items", e.Items}, {"rcu", e.RCU}, {"at_least", true}})
	}
	if items, rcu, ok := e.unknownBound(); ok {
		o.add("limit_bound", object{{"items", items}, {"rcu", rcu}})
	}
	return append(o, field{"text", text})
}

// requestsActualJSON is the request figures of an actual, for a read that
// is part of a node (a lookup's fetch).
func requestsActualJSON(a ActualFigures) object {
	total := 0
	for _, n := range a.Requests {
		total += n
	}
	if a.Requests == nil {
		a.Requests = map[string]int{}
	}
	return object{{"requests", total}, {"by_operation", a.Requests}, {"pages", a.Pages},
		{"items_read", a.ItemsRead}, {"items_returned", a.ItemsReturned}, {"consumed_rcu", a.RCU}}
}

func actualJSON(a ActualFigures) object {
	if !a.Ran {
		return object{{"ran", false}}
	}
	total := 0
	for _, n := range a.Requests {
		total += n
	}
	o := object{{"ran", true}, {"rows", a.Rows}, {"time_ms", float64(a.Time.Microseconds()) / 1000}}
	if total > 0 {
		o = append(o, field{"requests", total}, field{"by_operation", a.Requests}, field{"pages", a.Pages},
			field{"items_read", a.ItemsRead}, field{"items_returned", a.ItemsReturned}, field{"consumed_rcu", a.RCU})
	}
	if a.SpillFiles > 0 {
		o = append(o, field{"spill_files", a.SpillFiles}, field{"spill_bytes", a.SpillBytes}, field{"memory_peak_bytes", a.MemoryPeak})
	}
	return o
}
