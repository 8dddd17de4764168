package format

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
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
