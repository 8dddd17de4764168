package format

import (
	"encoding/base64"
	"fmt"
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
	// memos[i] remembers the JSON text of the documents of output column
	// i, for the columns whose values repeat (outColumn.dictionary): a
	// repeated document is rendered once.
	memos map[int]*jsonMemo
}

// jsonMemo maps an encoded document to its JSON text, up to memoEntries
// documents.
type jsonMemo struct{ text map[string][]byte }

const memoEntries = 4096

func (cv *converter) memo(col int) *jsonMemo {
	if cv.memos == nil {
		cv.memos = map[int]*jsonMemo{}
	}
	m, ok := cv.memos[col]
	if !ok {
		m = &jsonMemo{text: map[string][]byte{}}
		cv.memos[col] = m
	}
	return m
}

// column converts one batch column to out's type. A column already stored
// the way the file stores it (S as utf8, BOOL, B) is shared, not copied.
// Missing and NULL become Arrow nulls.
func (cv *converter) column(c columnar.Column, name string, col int, out outColumn, rows int) (arrow.Array, error) {
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
	case out.kind == outString, out.kind == outNumText, out.kind == outJSON:
		var memo *jsonMemo
		if out.dictionary && c.Encoding() == columnar.EncValue {
			memo = cv.memo(col)
		}
		return cv.texts(c, name, memo, rows)
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
		switch out.kind {
		case outBool:
			b.(*array.BooleanBuilder).Append(v.Bool())
		default: // outBinary
			b.(*array.BinaryBuilder).Append(v.Bytes())
		}
	}
	return b.NewArray(), nil
}

// texts builds a utf8 column of the cells' text (textCell), reading every
// cell straight from the batch's buffers: one append per cell, no value
// built unless an encoded scalar must be decoded.
func (cv *converter) texts(c columnar.Column, name string, memo *jsonMemo, rows int) (arrow.Array, error) {
	b := array.NewStringBuilder(cv.mem)
	defer b.Release()
	b.Reserve(rows)
	b.ReserveData(dataBytes(c.Array()))
	for i := 0; i < rows; i++ {
		text, null, err := cv.textCell(cv.scratch[:0], c, name, memo, i)
		if err != nil {
			return nil, err
		}
		cv.scratch = text
		if null {
			b.AppendNull()
			continue
		}
		b.BinaryBuilder.Append(text)
	}
	return b.NewArray(), nil
}

// dataBytes is the size of a variable-width array's value bytes (0 for
// the others): the text of a converted column is about as long.
func dataBytes(arr arrow.Array) int {
	switch a := arr.(type) {
	case *array.String:
		return len(a.ValueBytes())
	case *array.Binary:
		return len(a.ValueBytes())
	}
	return 0
}

// textCell appends the text a utf8 column of the binary formats holds for
// one cell: a string as it is, a number's exact text (value.NumberText),
// true/false, binary as base64, and L, M and sets as their JSON text
// (sets are arrays, as json writes them). null reports Missing or NULL.
func (cv *converter) textCell(dst []byte, c columnar.Column, name string, memo *jsonMemo, row int) (text []byte, null bool, err error) {
	if c.IsMissing(row) {
		return dst, true, nil
	}
	arr := c.Array()
	switch c.Encoding() {
	case columnar.EncString:
		return append(dst, arr.(*array.String).Value(row)...), false, nil
	case columnar.EncNumberText:
		return append(dst, value.NumberText(arr.(*array.String).Value(row))...), false, nil
	case columnar.EncInt64:
		return strconv.AppendInt(dst, arr.(*array.Int64).Value(row), 10), false, nil
	case columnar.EncBool:
		return strconv.AppendBool(dst, arr.(*array.Boolean).Value(row)), false, nil
	case columnar.EncBinary:
		return base64.StdEncoding.AppendEncode(dst, arr.(*array.Binary).Value(row)), false, nil
	}
	enc := arr.(*array.Binary).Value(row)
	kind, ok := value.EncodedKind(enc)
	switch {
	case !ok:
		return dst, false, fmt.Errorf("format: column %q row %d: cannot decode value: columnar: corrupt encoding", name, row)
	case kind == value.Missing || kind == value.Null:
		return dst, true, nil
	case kind == value.List || kind == value.Map || kind == value.StringSet || kind == value.NumberSet || kind == value.BinarySet:
		if memo != nil {
			if text, ok := memo.text[string(enc)]; ok {
				return append(dst, text...), false, nil
			}
		}
		out, err := value.AppendEncodedJSON(dst, enc)
		if err != nil {
			return dst, false, fmt.Errorf("format: column %q row %d: cannot decode value: columnar: %v", name, row, err)
		}
		if memo != nil && len(memo.text) < memoEntries {
			memo.text[string(enc)] = append([]byte(nil), out[len(dst):]...)
		}
		return out, false, nil
	}
	// An encoded scalar (a batch whose column mixes types): decode it.
	v, err := cellAt(c, name, row)
	if err != nil {
		return dst, false, err
	}
	switch v.Kind() {
	case value.Number:
		return append(dst, value.NumberText(v.Text())...), false, nil
	case value.Bool:
		return strconv.AppendBool(dst, v.Bool()), false, nil
	case value.Binary:
		return base64.StdEncoding.AppendEncode(dst, v.Bytes()), false, nil
	}
	// A string in a column of several types stays the string, so a
	// reader's comparison with 'active' still matches.
	return append(dst, v.Text()...), false, nil
}

// decimals converts a number column to decimal128(38, scale), exactly,
// reading integers and number text straight from the batch.
func (cv *converter) decimals(c columnar.Column, name string, scale int32, rows int) (arrow.Array, error) {
	b := array.NewDecimal128Builder(cv.mem, &arrow.Decimal128Type{Precision: decimalDigits, Scale: scale})
	defer b.Release()
	b.Reserve(rows)
	ints, _ := c.Array().(*array.Int64)
	texts, _ := c.Array().(*array.String)
	for i := 0; i < rows; i++ {
		if c.IsMissing(i) {
			b.AppendNull()
			continue
		}
		var text string
		switch {
		case c.Encoding() == columnar.EncInt64 && ints != nil:
			b.UnsafeAppend(scaleUp(decimal128.FromI64(ints.Value(i)), int(scale)))
			continue
		case c.Encoding() == columnar.EncNumberText && texts != nil:
			text = texts.Value(i)
		default:
			v, err := cellAt(c, name, i)
			if err != nil {
				return nil, err
			}
			if v.IsNull() {
				b.AppendNull()
				continue
			}
			text = v.Text()
		}
		n, err := decimalOf(text, scale)
		if err != nil {
			return nil, err
		}
		b.UnsafeAppend(n)
	}
	return b.NewArray(), nil
}
