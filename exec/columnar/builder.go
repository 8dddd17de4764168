package columnar

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/planner/value"
)

// RowBuilder accumulates rows of values for a fixed list of column names and
// builds one record batch whose column encodings fit the values seen.
type RowBuilder struct {
	mem   memory.Allocator
	names []string
	cols  [][]value.Value
	rows  int
}

// NewRowBuilder starts a batch with the given column names.
func NewRowBuilder(mem memory.Allocator, names []string) *RowBuilder {
	return &RowBuilder{mem: mem, names: names, cols: make([][]value.Value, len(names))}
}

// Append adds one row; len(row) must equal the number of columns. The
// values are kept as given until Build copies them into the batch, so
// values read in place from another batch need it retained until then.
func (b *RowBuilder) Append(row []value.Value) {
	for i := range b.cols {
		b.cols[i] = append(b.cols[i], row[i])
	}
	b.rows++
}

// Len is the number of rows appended since the last Build.
func (b *RowBuilder) Len() int { return b.rows }

// Build returns the batch and resets the builder. The caller owns the batch.
func (b *RowBuilder) Build() arrow.RecordBatch {
	fields := make([]arrow.Field, len(b.names))
	arrays := make([]arrow.Array, len(b.names))
	for i, name := range b.names {
		enc := chooseEncoding(b.cols[i])
		fields[i] = fieldFor(name, enc)
		arrays[i] = buildArray(b.mem, enc, b.cols[i], b.rows)
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrays, int64(b.rows))
	for _, a := range arrays {
		a.Release()
	}
	for i := range b.cols {
		b.cols[i] = b.cols[i][:0]
	}
	b.rows = 0
	return rec
}

// BuildColumn builds one Arrow array (and its field) from values.
func BuildColumn(mem memory.Allocator, name string, vals []value.Value) (arrow.Field, arrow.Array) {
	enc := chooseEncoding(vals)
	return fieldFor(name, enc), buildArray(mem, enc, vals, len(vals))
}

func buildArray(mem memory.Allocator, enc Encoding, vals []value.Value, n int) arrow.Array {
	switch enc {
	case EncInt64:
		bld := array.NewInt64Builder(mem)
		defer bld.Release()
		bld.Reserve(n)
		for _, v := range vals {
			if i, ok := v.Int64(); ok {
				bld.UnsafeAppend(i)
			} else {
				bld.UnsafeAppendBoolToBitmap(false)
			}
		}
		return bld.NewArray()
	case EncBool:
		bld := array.NewBooleanBuilder(mem)
		defer bld.Release()
		bld.Reserve(n)
		for _, v := range vals {
			if v.Kind() == value.Bool {
				bld.UnsafeAppend(v.Bool())
			} else {
				bld.UnsafeAppendBoolToBitmap(false)
			}
		}
		return bld.NewArray()
	case EncBinary, EncValue:
		bld := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
		defer bld.Release()
		bld.Reserve(n)
		var scratch []byte
		for _, v := range vals {
			switch {
			case v.Kind() == value.Missing:
				bld.AppendNull()
			case enc == EncBinary:
				bld.Append(v.Bytes())
			default:
				scratch = value.AppendBinary(scratch[:0], v)
				bld.Append(scratch)
			}
		}
		return bld.NewArray()
	}
	bld := array.NewStringBuilder(mem)
	defer bld.Release()
	bld.Reserve(n)
	for _, v := range vals {
		if v.Kind() == value.Missing {
			bld.AppendNull()
		} else {
			bld.Append(v.Text())
		}
	}
	return bld.NewArray()
}
