package format

import (
	"fmt"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// textColumn is a batch column prepared once per batch for the streamed
// text formats: its concrete Arrow array, so that reading a cell is a
// direct (inlined) call instead of an interface call and a type assertion
// per cell. It writes exactly what appendDisplayCell and appendJSONCell
// write.
type textColumn struct {
	enc  columnar.Encoding
	name string
	str  *array.String // EncString, EncNumberText
	i64  *array.Int64
	bl   *array.Boolean
	bin  *array.Binary // EncBinary, EncValue
}

// textColumns prepares a batch's columns (already checked by batchColumns).
func textColumns(cols []columnar.Column, names []string) []textColumn {
	out := make([]textColumn, len(cols))
	for i, c := range cols {
		t := textColumn{enc: c.Encoding(), name: names[i]}
		switch a := c.Array().(type) {
		case *array.String:
			t.str = a
		case *array.Int64:
			t.i64 = a
		case *array.Boolean:
			t.bl = a
		case *array.Binary:
			t.bin = a
		}
		out[i] = t
	}
	return out
}

// missing is columnar.Column.IsMissing: an Arrow null.
func (t *textColumn) missing(row int) bool {
	switch {
	case t.str != nil:
		return t.str.IsNull(row)
	case t.bin != nil:
		return t.bin.IsNull(row)
	case t.i64 != nil:
		return t.i64.IsNull(row)
	}
	return t.bl.IsNull(row)
}

// stringBytes views a string's bytes without copying; they are only read.
func stringBytes(s string) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// absent is absentAt: an Arrow null, or an encoded value of kind Missing.
func (t *textColumn) absent(row int) bool {
	if t.missing(row) {
		return true
	}
	if t.enc == columnar.EncValue {
		k, ok := value.EncodedKind(t.bin.Value(row))
		return ok && k == value.Missing
	}
	return false
}

// appendJSON appends the cell as appendJSONCell does (value.AppendJSON's
// text), every encoding read straight from its array.
func (t *textColumn) appendJSON(dst []byte, row int) ([]byte, error) {
	if t.missing(row) {
		return append(dst, "null"...), nil
	}
	switch t.enc {
	case columnar.EncString:
		return value.AppendJSONString(dst, t.str.Value(row)), nil
	case columnar.EncNumberText:
		return append(dst, value.NumberText(t.str.Value(row))...), nil
	case columnar.EncInt64:
		return strconv.AppendInt(dst, t.i64.Value(row), 10), nil
	case columnar.EncBool:
		return strconv.AppendBool(dst, t.bl.Value(row)), nil
	case columnar.EncBinary:
		return value.AppendJSONBinary(dst, t.bin.Value(row)), nil
	case columnar.EncValue:
		out, err := value.AppendEncodedJSON(dst, t.bin.Value(row))
		if err != nil {
			return dst, fmt.Errorf("format: column %q row %d: cannot decode value: columnar: %v", t.name, row, err)
		}
		return out, nil
	}
	return dst, fmt.Errorf("format: column %q has an encoding the json formats cannot read", t.name)
}
