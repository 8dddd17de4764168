package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
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
		return nil, errorf(CodeInvalid, "cannot render the plan as JSON: %v", err)
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
	title, _ := describe(n)
	o := object{{"kind", nodeKind(n)}, {"title", title}, {"client", runsOnClient(n)}}
	if err := w.fields(&o, n); err != nil {
		return nil, err
	}
	if w.actual != nil {
		if a, ok := w.actual(n); ok {
			o.add("actual", actualJSON(a))
		}
	}
	return o, nil
}

// runsOnClient reports whether the node is a client-side operator (it
// sends no request of its own).
func runsOnClient(n Node) bool {
	switch n.(type) {
	case *Access, *Fetch, *LookupJoin:
		return false
	}
	return true
}

func nodeKind(n Node) string {
	switch t := n.(type) {
	case *Access:
		return string(t.Op)
	case *Filter:
		if t.Having {
			return "Having"
		}
		return "Filter"
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", n), "*planner.")
}

// fields adds what is particular to each kind of node.
func (w *jsonWriter) fields(o *object, n Node) error {
	switch t := n.(type) {
	case *Access:
		return accessJSON(o, t)
	case *Fetch:
		return fetchJSON(o, t)
	case *LookupJoin:
		return w.lookupJSON(o, t)
	case *Union:
		o.add("table", t.Table)
		o.add("key_attributes", t.KeyAttrs)
		o.add("drives", t.Drives)
		var branches []string
		for _, c := range t.Conditions {
			branches = append(branches, c.String())
		}
		o.add("branch_conditions", branches)
		o.add("estimate", estimateJSON(TotalEstimate(&Plan{Root: t}), false))
	case *HashJoin:
		o.add("join", t.Kind.String())
		var on []any
		for i := range t.ProbeKeys {
			on = append(on, object{{"probe", t.ProbeKeys[i].String()}, {"build", t.BuildKeys[i].String()}})
		}
		o.add("on", on)
		o.add("reason", t.Reason)
		if t.AsInner != nil {
			o.add("runs_as_inner", asInnerLine(t.AsInner))
		}
		if t.Residual != nil {
			o.add("residual", t.Residual.String())
		}
	case *Filter:
		o.add("condition", t.Pred.String())
	case *Aggregate:
		var aggs, groups []string
		for _, a := range t.Aggs {
			aggs = append(aggs, a.String())
		}
		for _, g := range t.Groups {
			groups = append(groups, g.String())
		}
		o.add("aggregates", aggs)
		o.add("group_by", groups)
	case *Project:
		projectJSON(o, t)
	case *Sort:
		var keys []any
		for _, k := range t.Keys {
			keys = append(keys, object{{"expr", k.Expr.String()}, {"order", order(k.Desc)}})
		}
		o.add("keys", keys)
		if t.TopN > 0 {
			o.add("top_n", t.TopN)
		}
	case *Limit:
		if t.Count >= 0 {
			o.add("count", t.Count)
		}
		if t.Offset > 0 {
			o.add("offset", t.Offset)
		}
	}
	return nil
}

func order(desc bool) string {
	if desc {
		return "DESC"
	}
	return "ASC"
}

func projectJSON(o *object, t *Project) {
	if t.Star {
		o.add("star", true)
		o.add("star_aliases", t.StarAliases)
		return
	}
	var cols []any
	for i, e := range t.Exprs {
		c := object{{"expr", e.String()}}
		if t.Names[i] == "" {
			c = append(c, field{"for_order_by", true})
		} else {
			c = append(c, field{"name", t.Names[i]})
		}
		cols = append(cols, c)
	}
	o.add("columns", cols)
}

func accessJSON(o *object, a *Access) error {
	o.add("table", a.Table)
	o.add("index", a.Index)
	o.add("drives", a.Drives)
	if len(a.KeyConditions) > 0 {
		o.add("key_condition", sqlList(a.KeyConditions))
	}
	if len(a.Filters) > 0 {
		o.add("filter", sqlList(a.Filters))
	}
	if a.Count {
		o.add("select_count", true)
	}
	switch a.Op {
	case OpQuery:
		if len(a.Queries) > 1 {
			if a.Merge != nil {
				o.add("merge", object{{"attribute", a.Merge.Attr}, {"order", order(a.Merge.Desc)}})
			} else {
				o.add("merge", "concatenated in IN-list order")
			}
		}
	case OpScan:
		o.add("segments", len(a.Scans))
	}
	o.add("estimate", estimateJSON(a.Estimate, false))
	var inputs []any
	for _, g := range a.Gets {
		inputs = append(inputs, g)
	}
	for _, b := range a.Batches {
		inputs = append(inputs, b)
	}
	for _, q := range a.Queries {
		inputs = append(inputs, q)
	}
	for _, sc := range a.Scans {
		inputs = append(inputs, sc)
	}
	var reqs []any
	for _, in := range inputs {
		body, err := requestJSON(in)
		if err != nil {
			return err
		}
		reqs = append(reqs, object{{"operation", string(a.Op)}, {"input", body}})
	}
	o.add("requests", reqs)
	return nil
}

func fetchJSON(o *object, f *Fetch) error {
	o.add("table", f.Table)
	o.add("operation", string(OpBatchGetItem))
	o.add("reason", "the index does not project every attribute the statement needs")
	o.add("key_attributes", f.KeyAttrs)
	o.add("estimate", estimateJSON(f.Estimate, false))
	req, err := fetchRequest(f)
	if err != nil {
		return err
	}
	o.add("requests", []any{req})
	return nil
}

// fetchRequest is a Fetch's BatchGetItem template: exec fills Keys.
func fetchRequest(f *Fetch) (object, error) {
	body, err := requestJSON(f.Request(nil))
	if err != nil {
		return nil, err
	}
	return object{{"operation", string(OpBatchGetItem)}, {"input", body},
		{"fill", object{{"field", "RequestItems." + f.Table + ".Keys"},
			{"with", strings.Join(f.KeyAttrs, ", ") + " of each distinct input row, at most 100 keys per request, in input order; UnprocessedKeys retried with backoff"}}}}, nil
}

func (w *jsonWriter) lookupJSON(o *object, t *LookupJoin) error {
	o.add("table", t.Table)
	o.add("index", t.Index)
	o.add("operation", string(t.Op))
	o.add("join", t.Kind.String())
	o.add("alias", t.Alias)
	o.add("via", t.Via)
	o.add("on", sqlList(t.Conditions))
	o.add("lookup_value", object{{"expr", t.Probe.String()}, {"attribute", t.Attr}, {"type", typeWord(t.KeyType)}})
	if t.AsInner != nil {
		o.add("runs_as_inner", asInnerLine(t.AsInner))
	}
	if len(t.Filters) > 0 {
		o.add("filter", sqlList(t.Filters))
	}
	if t.Residual != nil {
		o.add("residual", t.Residual.String())
	}
	o.add("estimate", estimateJSON(t.Estimate, false))
	var req object
	if t.Op == OpBatchGetItem {
		body, err := requestJSON(t.BatchRequest(nil))
		if err != nil {
			return err
		}
		with := t.Attr + " = each distinct lookup value"
		if len(t.FixedKey) > 0 {
			fixed, err := requestJSON(attributeMap(t.FixedKey))
			if err != nil {
				return err
			}
			with += ", with the fixed key part " + string(fixed)
		}
		req = object{{"operation", string(OpBatchGetItem)}, {"input", body},
			{"fill", object{{"field", "RequestItems." + t.Table + ".Keys"}, {"with", with + "; at most 100 keys per request, UnprocessedKeys retried with backoff"}}}}
	} else {
		body, err := requestJSON(t.queryTemplate())
		if err != nil {
			return err
		}
		req = object{{"operation", string(OpQuery)}, {"input", body},
			{"fill", object{{"field", "ExpressionAttributeValues." + t.ValuePlaceholder}, {"with", "each distinct lookup value, one Query per value, run concurrently"}}}}
	}
	o.add("requests", []any{req})
	if t.Fetch != nil {
		freq, err := fetchRequest(t.Fetch)
		if err != nil {
			return err
		}
		fetch := object{{"table", t.Fetch.Table}, {"operation", string(OpBatchGetItem)},
			{"reason", "the index does not project every attribute the statement needs"},
			{"estimate", estimateJSON(t.Fetch.Estimate, false)}, {"requests", []any{freq}}}
		if w.actual != nil {
			// The fetch is no node of the tree: its rows are the join's,
			// only its requests are its own.
			if a, ok := w.actual(t.Fetch); ok {
				fetch = append(fetch, field{"actual", requestsActualJSON(a)})
			}
		}
		o.add("fetch", fetch)
	}
	return nil
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
	return o
}
