package format

import (
	"encoding/base64"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// converter turns spooled batch columns into the columns of the final
// file, whose types the whole result decided.
type converter struct {
	mem     memory.Allocator
	scratch []byte
}

// column converts one batch column to out's type. A column already stored
// the way the file stores it (S as utf8, BOOL, B) is shared, not copied.
// Missing and NULL become Arrow nulls.
func (cv *converter) column(c columnar.Column, name string, out outColumn, rows int) (arrow.Array, error) {
	switch {
	case out.kind == outNull:
		return array.MakeArrayOfNull(cv.mem, arrow.Null, rows), nil
	case out.kind == outString && c.Encoding() == columnar.EncString,
		out.kind == outBool && c.Encoding() == columnar.EncBool,
		out.kind == outBinary && c.Encoding() == columnar.EncBinary:
		arr := c.Array()
		arr.Retain()
		return arr, nil
	case out.kind == outDecimal:
		return cv.decimals(c, name, out.scale, rows)
	}
	b := array.NewBuilder(cv.mem, out.arrowType())
	defer b.Release()
	b.Reserve(rows)
	for i := 0; i < rows; i++ {
		v, err := cellAt(c, name, i)
		if err != nil {
			return nil, err
		}
		if v.IsNull() {
			b.AppendNull()
			continue
		}
		cv.append(b, out.kind, v)
	}
	return b.NewArray(), nil
}

// append adds one non-NULL value; the column's facts guarantee its kind
// matches the column's type.
func (cv *converter) append(b array.Builder, kind outKind, v value.Value) {
	switch kind {
	case outString:
		b.(*array.StringBuilder).Append(v.Text())
	case outBool:
		b.(*array.BooleanBuilder).Append(v.Bool())
	case outBinary:
		b.(*array.BinaryBuilder).Append(v.Bytes())
	case outNumText:
		b.(*array.StringBuilder).Append(value.NumberText(v.Text()))
	default: // outJSON: documents and sets as JSON text, scalars as csv writes them
		sb := b.(*array.StringBuilder)
		switch v.Kind() {
		case value.String:
			// A string in a column of several types stays the string, so
			// a reader's comparison with 'active' still matches.
			sb.Append(v.Text())
		case value.Number:
			sb.Append(value.NumberText(v.Text()))
		case value.Bool:
			sb.Append(strconv.FormatBool(v.Bool()))
		case value.Binary:
			sb.Append(base64.StdEncoding.EncodeToString(v.Bytes()))
		default:
			cv.scratch = value.AppendJSON(cv.scratch[:0], v)
			sb.BinaryBuilder.Append(cv.scratch)
		}
	}
}

// decimals converts a number column to decimal128(38, scale), exactly.
func (cv *converter) decimals(c columnar.Column, name string, scale int32, rows int) (arrow.Array, error) {
	b := array.NewDecimal128Builder(cv.mem, &arrow.Decimal128Type{Precision: decimalDigits, Scale: scale})
	defer b.Release()
	b.Reserve(rows)
	ints, _ := c.Array().(*array.Int64)
	for i := 0; i < rows; i++ {
		if c.IsMissing(i) {
			b.AppendNull()
			continue
		}
		if c.Encoding() == columnar.EncInt64 && ints != nil {
			b.Append(scaleUp(decimal128.FromI64(ints.Value(i)), int(scale)))
			continue
		}
		v, err := cellAt(c, name, i)
		if err != nil {
			return nil, err
		}
		if v.IsNull() {
			b.AppendNull()
			continue
		}
		n, err := decimalOf(v.Text(), scale)
		if err != nil {
			return nil, err
		}
		b.Append(n)
	}
	return b.NewArray(), nil
}
