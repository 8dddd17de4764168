package engine

import (
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// joinedRow lets the evaluator see an input row extended with one matched
// item of FROM item source.
type joinedRow struct {
	left   *batchRow
	item   value.Value
	source int
}

func (r *joinedRow) Attr(id expr.ColumnID) value.Value {
	if u := r.left.use(id); u.used && u.source == r.source {
		return r.item.Attr(u.attr)
	}
	return r.left.Attr(id)
}

func (r *joinedRow) Item(source int) (value.Value, bool) {
	if source == r.source {
		return r.item, true
	}
	return r.left.Item(source)
}

func (r *joinedRow) Ref(i int) value.Value { return r.left.Ref(i) }

// joinEmitter combines input rows with their matches into output batches.
// Its output columns are the input's, then the joined items' attributes,
// each field marked with its FROM item (see layout.go).
type joinEmitter struct {
	env      *Env
	kind     planner.JoinKind
	source   int
	keys     []string // the joined table's keys, listed first
	residual expr.Expr
	// inputFrom is the FROM item of an input batch read from one table,
	// whose columns carry none; -1 when the input is itself joined.
	inputFrom int
	left      batchRow // the input batch, bound to the residual's columns
}

func newJoinEmitter(env *Env, kind planner.JoinKind, input planner.Node, source int, keys []string, residual expr.Expr) joinEmitter {
	inputFrom := -1
	if from := planner.FromItems(input); len(from) == 1 {
		inputFrom = from[0]
	}
	return joinEmitter{env: env, kind: kind, source: source, keys: keys, residual: residual,
		inputFrom: inputFrom, left: newBatchRow(residual)}
}

// emit joins one input batch: matches[i] are the candidate items for row i.
// Candidates failing the residual do not match; a LEFT join keeps rows
// without matches, with the joined item's columns NULL.
func (e *joinEmitter) emit(in arrow.RecordBatch, matches [][]value.Value) ([]arrow.RecordBatch, error) {
	left := &e.left
	left.reset(in)
	jr := &joinedRow{left: left, source: e.source}
	type pair struct {
		row  int
		item value.Value
		null bool
	}
	var pairs []pair
	attrSet := map[string]bool{}
	for i := 0; i < int(in.NumRows()); i++ {
		left.i = i
		matched := false
		for _, it := range matches[i] {
			if e.residual != nil {
				jr.item = it
				t, err := eval.Test(e.residual, jr)
				if err != nil {
					return nil, evalError(err)
				}
				if t != eval.True {
					continue
				}
			}
			matched = true
			pairs = append(pairs, pair{row: i, item: it})
			for a := range it.Attrs() {
				attrSet[a] = true
			}
		}
		if !matched && e.kind == planner.JoinLeft {
			pairs = append(pairs, pair{row: i, null: true})
		}
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	attrs := orderedAttrs(attrSet, e.keys)
	names := append(append([]string(nil), left.names...), attrs...)
	from := make([]int, 0, len(names))
	for _, f := range left.from {
		if f < 0 {
			f = e.inputFrom
		}
		from = append(from, f)
	}
	for range attrs {
		from = append(from, e.source)
	}
	var out []arrow.RecordBatch
	b := columnar.NewRowBuilder(e.env.Mem, names)
	row := make([]value.Value, len(names))
	for _, p := range pairs {
		left.i = p.row
		for c := range left.cols {
			row[c] = left.cols[c].Value(p.row)
		}
		for j, a := range attrs {
			if p.null {
				row[len(left.cols)+j] = value.MissingValue()
			} else {
				row[len(left.cols)+j] = p.item.Attr(a)
			}
		}
		b.Append(row)
		if b.Len() >= e.env.batchRows() {
			out = append(out, withFromItems(b.Build(), from))
		}
	}
	if b.Len() > 0 {
		out = append(out, withFromItems(b.Build(), from))
	}
	return out, nil
}

func orderedAttrs(set map[string]bool, keys []string) []string {
	var out, rest []string
	for _, k := range keys {
		if set[k] {
			out = append(out, k)
		}
	}
	for a := range set {
		if !containsString(keys, a) {
			rest = append(rest, a)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}
