package engine

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// batchRow lets the evaluator read row i of a batch. Columns are item
// attributes (by name) or positional inputs (by Ref index).
type batchRow struct {
	cols   []columnar.Column
	names  []string
	byName map[string]int
	// bySource is set for joined rows: FROM item → attribute → column.
	bySource map[int]map[string]int
	i        int
}

func newBatchRow(rec arrow.RecordBatch) *batchRow {
	r := &batchRow{}
	r.reset(rec)
	return r
}

func (r *batchRow) reset(rec arrow.RecordBatch) {
	n := int(rec.NumCols())
	r.cols = r.cols[:0]
	r.names = r.names[:0]
	if r.byName == nil {
		r.byName = make(map[string]int, n)
	} else {
		clear(r.byName)
	}
	r.bySource = nil
	for c := 0; c < n; c++ {
		r.cols = append(r.cols, columnar.ColumnOf(rec, c))
		name := rec.ColumnName(c)
		r.names = append(r.names, name)
		r.byName[name] = c
		if src, attr, ok := SplitQualified(name); ok {
			if r.bySource == nil {
				r.bySource = map[int]map[string]int{}
			}
			if r.bySource[src] == nil {
				r.bySource[src] = map[string]int{}
			}
			r.bySource[src][attr] = c
		}
	}
	r.i = 0
}

// Attr reads a top-level attribute of FROM item source.
func (r *batchRow) Attr(source int, name string) value.Value {
	if r.bySource != nil {
		if c, ok := r.bySource[source][name]; ok {
			return r.cols[c].Value(r.i)
		}
		return value.MissingValue()
	}
	if c, ok := r.byName[name]; ok {
		return r.cols[c].Value(r.i)
	}
	return value.MissingValue()
}

// Item rebuilds the whole item of FROM item source from the batch's columns.
func (r *batchRow) Item(source int) (value.Value, bool) {
	attrs := make(map[string]value.Value, len(r.cols))
	for c, col := range r.cols {
		name := r.names[c]
		if r.bySource != nil {
			src, attr, ok := SplitQualified(name)
			if !ok || src != source {
				continue
			}
			name = attr
		}
		if v := col.Value(r.i); v.Kind() != value.Missing {
			attrs[name] = v
		}
	}
	return value.MapOf(attrs), true
}

// Ref reads input column i.
func (r *batchRow) Ref(i int) value.Value {
	if i < 0 || i >= len(r.cols) {
		return value.MissingValue()
	}
	return r.cols[i].Value(r.i)
}

// ownedValues reads the whole row as values that outlive the batch.
func (r *batchRow) ownedValues() []value.Value {
	out := make([]value.Value, len(r.cols))
	for c, col := range r.cols {
		out[c] = col.OwnedValue(r.i)
	}
	return out
}
