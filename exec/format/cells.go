package format

import (
	"encoding/base64"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// batchColumns wraps every column of rec for reading, and rejects Arrow
// types the columnar encoding never produces instead of letting a reader
// panic on them later.
func batchColumns(rec arrow.RecordBatch) ([]columnar.Column, []string, error) {
	n := int(rec.NumCols())
	cols := make([]columnar.Column, n)
	names := make([]string, n)
	for i := 0; i < n; i++ {
		f := rec.Schema().Field(i)
		c := columnar.ColumnOf(rec, i)
		if !arrayFits(c) {
			return nil, nil, fmt.Errorf("format: column %q has Arrow type %s, which does not hold DynamoDB values", f.Name, f.Type)
		}
		cols[i], names[i] = c, f.Name
	}
	return cols, names, nil
}

// arrayFits reports whether the array's Go type is the one its encoding reads.
func arrayFits(c columnar.Column) bool {
	switch c.Encoding() {
	case columnar.EncString, columnar.EncNumberText:
		_, ok := c.Array().(*array.String)
		return ok
	case columnar.EncInt64:
		_, ok := c.Array().(*array.Int64)
		return ok
	case columnar.EncBool:
		_, ok := c.Array().(*array.Boolean)
		return ok
	case columnar.EncBinary, columnar.EncValue:
		_, ok := c.Array().(*array.Binary)
		return ok
	}
	return false
}

// cellAt reads one cell, turning a decoding panic (a corrupt encoded value)
// into an error: no value may crash the output.
func cellAt(c columnar.Column, name string, row int) (v value.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("format: column %q row %d: cannot decode value: %v", name, row, r)
		}
	}()
	return c.Value(row), nil
}

// absentAt reports whether a SELECT * row lacks the attribute: an Arrow
// null, or an encoded value of kind Missing (what Column.Value reads as
// Missing).
func absentAt(c columnar.Column, row int) bool {
	if c.IsMissing(row) {
		return true
	}
	if c.Encoding() == columnar.EncValue {
		k, ok := value.EncodedKind(c.Array().(*array.Binary).Value(row))
		return ok && k == value.Missing
	}
	return false
}

// appendJSONCell appends a cell as value.AppendJSON writes it, reading
// integers and encoded documents straight from the column (no value.Value
// tree, no allocation per cell).
func appendJSONCell(dst []byte, c columnar.Column, name string, row int) ([]byte, error) {
	if c.IsMissing(row) {
		return append(dst, "null"...), nil
	}
	switch c.Encoding() {
	case columnar.EncInt64:
		return strconv.AppendInt(dst, c.Array().(*array.Int64).Value(row), 10), nil
	case columnar.EncValue:
		out, err := value.AppendEncodedJSON(dst, c.Array().(*array.Binary).Value(row))
		if err != nil {
			return dst, fmt.Errorf("format: column %q row %d: cannot decode value: columnar: %v", name, row, err)
		}
		return out, nil
	}
	v, err := cellAt(c, name, row)
	if err != nil {
		return dst, err
	}
	return value.AppendJSON(dst, v), nil
}

// appendDisplayCell appends a cell's value.Display text (nothing for NULL
// and missing) read straight from the column: strings and numbers as their
// stored text, integers, booleans and binary formatted into dst, encoded
// documents through value.AppendEncodedDisplay. No value.Value is built.
func appendDisplayCell(dst []byte, c columnar.Column, name string, row int) ([]byte, error) {
	if c.IsMissing(row) {
		return dst, nil
	}
	switch c.Encoding() {
	case columnar.EncString:
		return append(dst, c.Array().(*array.String).Value(row)...), nil
	case columnar.EncNumberText:
		return append(dst, value.NumberText(c.Array().(*array.String).Value(row))...), nil
	case columnar.EncInt64:
		return strconv.AppendInt(dst, c.Array().(*array.Int64).Value(row), 10), nil
	case columnar.EncBool:
		return strconv.AppendBool(dst, c.Array().(*array.Boolean).Value(row)), nil
	case columnar.EncBinary:
		return base64.StdEncoding.AppendEncode(dst, c.Array().(*array.Binary).Value(row)), nil
	case columnar.EncValue:
		out, err := value.AppendEncodedDisplay(dst, c.Array().(*array.Binary).Value(row))
		if err != nil {
			return dst, fmt.Errorf("format: column %q row %d: cannot decode value: columnar: %v", name, row, err)
		}
		return out, nil
	}
	return dst, fmt.Errorf("format: column %q has an encoding the text formats cannot read", name)
}

// cellKind is the DynamoDB kind of a cell (Missing for an absent one), read
// from the column's encoding without building the value.
func cellKind(c columnar.Column, name string, row int) (value.Kind, error) {
	if c.IsMissing(row) {
		return value.Missing, nil
	}
	switch c.Encoding() {
	case columnar.EncString:
		return value.String, nil
	case columnar.EncInt64, columnar.EncNumberText:
		return value.Number, nil
	case columnar.EncBool:
		return value.Bool, nil
	case columnar.EncBinary:
		return value.Binary, nil
	case columnar.EncValue:
		if k, ok := value.EncodedKind(c.Array().(*array.Binary).Value(row)); ok {
			return k, nil
		}
	}
	return value.Missing, fmt.Errorf("format: column %q row %d: cannot decode value: columnar: corrupt encoding", name, row)
}
