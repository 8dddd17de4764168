package engine

import (
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// A batch read from one table has one column per attribute, named by the
// attribute; a joined batch has the columns of several FROM items, so each
// of its fields carries the FROM item it belongs to in its metadata, under
// fromItemKey. Names are never qualified: the operator that builds a
// joined batch tags its fields, and an operator that reads columns binds
// the planner's column IDs to a batch's columns once per batch.

// fromItemKey is the field metadata key naming a joined batch column's
// FROM item (its number, as expr.Column.Source).
const fromItemKey = "ddbsql.from"

// fromItemOf is the FROM item column f belongs to, or -1 when f is a
// column of a batch that holds a single FROM item's attributes.
func fromItemOf(f arrow.Field) int {
	i := f.Metadata.FindKey(fromItemKey)
	if i < 0 {
		return -1
	}
	n, err := strconv.Atoi(f.Metadata.Values()[i])
	if err != nil {
		return -1
	}
	return n
}

// withFromItem returns f marked as a column of FROM item src (src < 0:
// unmarked), keeping its other metadata.
func withFromItem(f arrow.Field, src int) arrow.Field {
	var keys, vals []string
	for i, k := range f.Metadata.Keys() {
		if k != fromItemKey {
			keys, vals = append(keys, k), append(vals, f.Metadata.Values()[i])
		}
	}
	if src >= 0 {
		keys, vals = append(keys, fromItemKey), append(vals, strconv.Itoa(src))
	}
	if len(keys) == 0 {
		f.Metadata = arrow.Metadata{}
	} else {
		f.Metadata = arrow.NewMetadata(keys, vals)
	}
	return f
}

// withFromItems marks column c of rec as FROM item from[c]'s; it takes
// over rec and returns a batch sharing its arrays.
func withFromItems(rec arrow.RecordBatch, from []int) arrow.RecordBatch {
	fields := rec.Schema().Fields()
	for c := range fields {
		fields[c] = withFromItem(fields[c], from[c])
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), rec.Columns(), rec.NumRows())
	rec.Release()
	return out
}

// columnUse is what a column ID an operator's expressions read stands for.
type columnUse struct {
	source int
	attr   string
	used   bool
}

// columnUses, indexed by expr.ColumnID, are the columns an operator's
// expressions read.
type columnUses []columnUse

// usesOf collects the columns exprs read.
func usesOf(exprs ...expr.Expr) columnUses {
	var uses columnUses
	for _, e := range exprs {
		expr.Walk(e, func(x expr.Expr) bool {
			c, ok := x.(expr.Column)
			if !ok || c.ID <= expr.NoColumn || len(c.Path) == 0 {
				return true
			}
			for int(c.ID) >= len(uses) {
				uses = append(uses, columnUse{})
			}
			uses[c.ID] = columnUse{source: c.Source, attr: c.Path[0].Name, used: true}
			return true
		})
	}
	return uses
}

// unnumbered finds a column reference the planner gave no ID.
func unnumbered(exprs ...expr.Expr) (expr.Column, bool) {
	var bad expr.Column
	found := false
	for _, e := range exprs {
		expr.Walk(e, func(x expr.Expr) bool {
			if c, ok := x.(expr.Column); ok && c.ID <= expr.NoColumn {
				bad, found = c, true
			}
			return !found
		})
	}
	return bad, found
}

// batchRow lets the evaluator read row i of a batch: a column ID by the
// batch column it is bound to, an expr.Ref by position. An operator binds
// its uses to each batch's layout once (reset), rebinding only when the
// schema changes; cells are then read by index.
type batchRow struct {
	uses   columnUses
	schema *arrow.Schema // the layout names, from and slots describe
	cols   []columnar.Column
	names  []string
	from   []int // FROM item of each column; -1 for a single table's batch
	slots  []int // by column ID: the batch column, -1 when absent
	i      int
}

// newBatchRow reads the columns exprs use.
func newBatchRow(exprs ...expr.Expr) batchRow { return batchRow{uses: usesOf(exprs...)} }

// reset binds the row to rec, at row 0.
func (r *batchRow) reset(rec arrow.RecordBatch) {
	n := int(rec.NumCols())
	r.cols = r.cols[:0]
	for c := 0; c < n; c++ {
		r.cols = append(r.cols, columnar.ColumnOf(rec, c))
	}
	r.i = 0
	if s := rec.Schema(); s != r.schema {
		r.bind(s)
	}
}

// bind works out the layout of schema s: each column's name and FROM
// item, and the column each used ID reads.
func (r *batchRow) bind(s *arrow.Schema) {
	r.schema = s
	r.names, r.from = r.names[:0], r.from[:0]
	for c := 0; c < s.NumFields(); c++ {
		f := s.Field(c) // Fields() would copy them all
		r.names, r.from = append(r.names, f.Name), append(r.from, fromItemOf(f))
	}
	if cap(r.slots) < len(r.uses) {
		r.slots = make([]int, len(r.uses))
	}
	r.slots = r.slots[:len(r.uses)]
	for id, u := range r.uses {
		r.slots[id] = -1
		if !u.used {
			continue
		}
		for c, name := range r.names {
			if name == u.attr && (r.from[c] < 0 || r.from[c] == u.source) {
				r.slots[id] = c
			}
		}
	}
}

// column is the batch column that column ID id is bound to; ok is false
// when the batch lacks it (every row is missing it).
func (r *batchRow) column(id expr.ColumnID) (columnar.Column, bool) {
	if int(id) >= len(r.slots) || id <= expr.NoColumn {
		return columnar.Column{}, false
	}
	c := r.slots[id]
	if c < 0 {
		return columnar.Column{}, false
	}
	return r.cols[c], true
}

// use is what column ID id stands for.
func (r *batchRow) use(id expr.ColumnID) columnUse {
	if int(id) >= len(r.uses) || id <= expr.NoColumn {
		return columnUse{}
	}
	return r.uses[id]
}

// Attr reads column ID id of the current row.
func (r *batchRow) Attr(id expr.ColumnID) value.Value {
	if int(id) < len(r.slots) && id > expr.NoColumn {
		if c := r.slots[id]; c >= 0 {
			return r.cols[c].Value(r.i)
		}
	}
	return value.MissingValue()
}

// Item rebuilds the whole item of FROM item source from the batch's columns.
func (r *batchRow) Item(source int) (value.Value, bool) {
	attrs := make(map[string]value.Value, len(r.cols))
	for c, col := range r.cols {
		if r.from[c] >= 0 && r.from[c] != source {
			continue
		}
		if v := col.Value(r.i); v.Kind() != value.Missing {
			attrs[r.names[c]] = v
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

// rowLayout is what a batch rebuilt from rows must carry of its input's
// columns: their names and FROM items. An operator shares one while its
// input's layout stays the same, so most comparisons are by pointer.
type rowLayout struct {
	names  []string
	from   []int
	tagged bool // some column has a FROM item
}

func newRowLayout(names []string, from []int) *rowLayout {
	l := &rowLayout{names: append([]string(nil), names...), from: append([]int(nil), from...)}
	for _, f := range from {
		l.tagged = l.tagged || f >= 0
	}
	return l
}

// matches reports whether l describes columns with these names and FROM
// items (a nil layout matches nothing).
func (l *rowLayout) matches(names []string, from []int) bool {
	return l != nil && slices.Equal(l.names, names) && slices.Equal(l.from, from)
}

// same reports whether l and o describe the same columns.
func (l *rowLayout) same(o *rowLayout) bool {
	return l == o || (o != nil && l.matches(o.names, o.from))
}

// tag marks rec's columns with the layout's FROM items; it takes over rec.
func (l *rowLayout) tag(rec arrow.RecordBatch) arrow.RecordBatch {
	if !l.tagged {
		return rec
	}
	return withFromItems(rec, l.from)
}

// columnOfItem is the index of attribute attr of FROM item source in a
// batch with schema s, or -1.
func columnOfItem(s *arrow.Schema, source int, attr string) int {
	for _, c := range s.FieldIndices(attr) {
		if f := fromItemOf(s.Field(c)); f < 0 || f == source {
			return c
		}
	}
	return -1
}
