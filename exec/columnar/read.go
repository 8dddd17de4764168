package columnar

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Column reads DynamoDB values out of one Arrow column of a batch.
type Column struct {
	enc Encoding
	arr arrow.Array
	str *array.String
	i64 *array.Int64
	bin *array.Binary
	bl  *array.Boolean
}

// ColumnOf wraps column i of a batch.
func ColumnOf(rec arrow.RecordBatch, i int) Column {
	return NewColumn(rec.Schema().Field(i), rec.Column(i))
}

// NewColumn wraps an array with the field that describes its encoding.
func NewColumn(f arrow.Field, arr arrow.Array) Column {
	c := Column{enc: EncodingOf(f), arr: arr}
	switch a := arr.(type) {
	case *array.String:
		c.str = a
	case *array.Int64:
		c.i64 = a
	case *array.Binary:
		c.bin = a
	case *array.Boolean:
		c.bl = a
	}
	return c
}

// Encoding reports how the column stores values.
func (c Column) Encoding() Encoding { return c.enc }

// Array returns the underlying Arrow array.
func (c Column) Array() arrow.Array { return c.arr }

// IsMissing reports whether row i has no value.
func (c Column) IsMissing(i int) bool { return c.arr.IsNull(i) }

// Value returns row i as a DynamoDB value, read in place: the text of an S
// or an N stored as text shares the batch's buffers, so the value is valid
// only while the batch is retained. Use it for what is done with the row
// before the batch is released; OwnedValue gives a value to keep.
func (c Column) Value(i int) value.Value {
	if c.arr.IsNull(i) {
		return value.MissingValue()
	}
	switch c.enc {
	case EncString:
		return value.Str(c.str.Value(i))
	case EncNumberText:
		return value.NumTrusted(c.str.Value(i))
	case EncInt64:
		return value.NumTrusted(strconv.FormatInt(c.i64.Value(i), 10))
	case EncBool:
		return value.BoolOf(c.bl.Value(i))
	case EncBinary:
		return value.Bin(c.bin.Value(i)) // Bin copies the bytes
	case EncValue:
		v, err := value.DecodeBinary(c.bin.Value(i))
		if err != nil {
			// Only this package writes the encoding; a failure is a bug.
			panic(fmt.Sprintf("columnar: %v", err))
		}
		return v
	}
	return value.MissingValue()
}

// OwnedValue returns row i as a value that shares no memory with the
// batch: it stays valid after the batch is released. Only text read in
// place is copied (the other encodings build their values anew).
func (c Column) OwnedValue(i int) value.Value {
	v := c.Value(i)
	if c.enc == EncString || c.enc == EncNumberText {
		return v.Clone()
	}
	return v
}

// Row reads every column of row i in place (see Column.Value): the values
// are valid only while rec is retained.
func Row(rec arrow.RecordBatch, i int) []value.Value {
	row := make([]value.Value, rec.NumCols())
	for c := range row {
		row[c] = ColumnOf(rec, c).Value(i)
	}
	return row
}

// OwnedRow reads every column of row i as values that outlive rec.
func OwnedRow(rec arrow.RecordBatch, i int) []value.Value {
	row := make([]value.Value, rec.NumCols())
	for c := range row {
		row[c] = ColumnOf(rec, c).OwnedValue(i)
	}
	return row
}
