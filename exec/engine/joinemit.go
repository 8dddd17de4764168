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

func (r *joinedRow) Attr(source int, name string) value.Value {
	if source == r.source {
		return r.item.Attr(name)
	}
	return r.left.Attr(source, name)
}

func (r *joinedRow) Item(source int) (value.Value, bool) {
	if source == r.source {
		return r.item, true
	}
	return r.left.Item(source)
}

func (r *joinedRow) Ref(i int) value.Value { return r.left.Ref(i) }

// joinEmitter combines input rows with their matches into output batches.
type joinEmitter struct {
	env      *Env
	kind     planner.JoinKind
	source   int
	keys     []string // the joined table's keys, listed first
	residual expr.Expr
}

// emit joins one input batch: matches[i] are the candidate items for row i.
// Candidates failing the residual do not match; a LEFT join keeps rows
// without matches, with the joined item's columns NULL.
func (e *joinEmitter) emit(in arrow.RecordBatch, matches [][]value.Value) ([]arrow.RecordBatch, error) {
	left := newBatchRow(in)
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
	names := append([]string(nil), left.names...)
	for _, a := range attrs {
		names = append(names, QualifiedName(e.source, a))
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
			out = append(out, b.Build())
		}
	}
	if b.Len() > 0 {
		out = append(out, b.Build())
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
