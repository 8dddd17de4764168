package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// pick is one row to copy into a gathered batch: row `row` of rec.
type pick struct {
	rec arrow.RecordBatch
	row int
}

// gather builds a batch of schema out from picked rows, column by column:
// the first out.NumFields() columns of every picked batch have out's
// fields (more columns may follow; they are not copied). The columns
// ddbsql batches hold are copied without building a value.Value: int64,
// utf8 and binary straight into their buffers (gatherfast.go), bool
// through its builder; any other type goes through its builder's text
// form.
func gather(mem memory.Allocator, out *arrow.Schema, picks []pick) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, 0, out.NumFields())
	defer func() {
		for _, a := range cols {
			a.Release()
		}
	}()
	recs, src := pickSources(picks)
	for c := 0; c < out.NumFields(); c++ {
		dt := out.Field(c).Type
		switch dt.ID() {
		case arrow.INT64:
			cols = append(cols, gatherInt64s(mem, dt, c, recs, src, picks))
			continue
		case arrow.STRING, arrow.BINARY:
			cols = append(cols, gatherVarWidth(mem, dt, c, recs, src, picks))
			continue
		}
		a, err := gatherColumn(mem, dt, c, picks)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	return array.NewRecordBatch(out, cols, int64(len(picks))), nil
}

func gatherColumn(mem memory.Allocator, dt arrow.DataType, c int, picks []pick) (arrow.Array, error) {
	switch dt.ID() {
	case arrow.BOOL:
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		b.Reserve(len(picks))
		for _, p := range picks {
			a := p.rec.Column(c).(*array.Boolean)
			if a.IsNull(p.row) {
				b.UnsafeAppendBoolToBitmap(false)
				continue
			}
			b.UnsafeAppend(a.Value(p.row))
		}
		return b.NewArray(), nil
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for _, p := range picks {
		a := p.rec.Column(c)
		if a.IsNull(p.row) {
			b.AppendNull()
			continue
		}
		if err := b.AppendValueFromString(a.ValueStr(p.row)); err != nil {
			return nil, execErrorf(diag.CodeInternal, "cannot copy a %s cell of a sorted row: %v", dt, err)
		}
	}
	return b.NewArray(), nil
}
