package format

import (
	"bufio"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/planner/value"
)

// jsonWriter streams rows as JSON objects: inside one array ("json") or one
// object per line ("ndjson"). Nothing is buffered beyond one batch's bytes,
// which are written once the batch is rendered (up to a failing row).
type jsonWriter struct {
	out   *bufio.Writer
	array bool
	h     Header
	keys  [][]byte // fixed columns: `"name":` per column, de-duplicated
	rows  int
	buf   []byte
}

func newJSONWriter(w io.Writer, _ Options) impl {
	return &jsonWriter{out: bufio.NewWriter(w), array: true}
}

func newNDJSONWriter(w io.Writer, _ Options) impl {
	return &jsonWriter{out: bufio.NewWriter(w)}
}

func (j *jsonWriter) begin(h Header) error {
	j.h = h
	if !h.Dynamic {
		j.keys = objectKeys(h.Columns)
	}
	if j.array {
		_ = j.out.WriteByte('[')
	}
	return nil
}

// objectKeys renders `"name":` for each output key, after de-duplication.
func objectKeys(names []string) [][]byte {
	uniq := uniqueNames(names)
	keys := make([][]byte, len(uniq))
	for i, n := range uniq {
		keys[i] = append(value.AppendJSON(nil, value.Str(n)), ':')
	}
	return keys
}

func (j *jsonWriter) batch(rec arrow.RecordBatch) error {
	cols, names, err := batchColumns(rec)
	if err != nil {
		return err
	}
	keys, order := j.keys, identity(len(cols))
	if j.h.Dynamic {
		order = dynamicOrder(names, j.h.KeyColumns)
		ordered := make([]string, len(order))
		for i, c := range order {
			ordered[i] = names[c]
		}
		keys = objectKeys(ordered)
	} else if len(cols) != len(j.keys) {
		return columnCountError(len(cols), len(j.keys))
	}
	tcols := textColumns(cols, names)
	b := j.buf[:0]
	for row := 0; row < int(rec.NumRows()); row++ {
		mark := len(b)
		if b, err = j.row(b, tcols, order, keys, row); err != nil {
			// The rows before the one that failed are written, never half
			// an object.
			j.buf = b[:0]
			if _, werr := j.out.Write(b[:mark]); werr != nil {
				return werr
			}
			return err
		}
	}
	j.buf = b[:0]
	if _, err := j.out.Write(b); err != nil {
		return err
	}
	return j.out.Flush()
}

// row appends one object to the batch's bytes, cells read straight from
// the columns (textColumn.appendJSON: no value.Value per cell).
func (j *jsonWriter) row(b []byte, cols []textColumn, order []int, keys [][]byte, row int) ([]byte, error) {
	if j.array {
		if j.rows == 0 {
			b = append(b, '\n')
		} else {
			b = append(b, ",\n"...)
		}
	}
	b = append(b, '{')
	first := true
	for k, c := range order {
		t := &cols[c]
		if j.h.Dynamic && t.absent(row) {
			continue // SELECT *: an object holds exactly the item's attributes
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, keys[k]...)
		var err error
		if b, err = t.appendJSON(b, row); err != nil {
			return b, err
		}
	}
	b = append(b, '}')
	if !j.array {
		b = append(b, '\n')
	}
	j.rows++
	return b, nil
}

func (j *jsonWriter) end() error {
	if j.array {
		if j.rows > 0 {
			_ = j.out.WriteByte('\n')
		}
		_, _ = j.out.WriteString("]\n")
	}
	return j.out.Flush()
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func columnCountError(got, want int) error {
	return fmt.Errorf("format: batch has %d columns, the header has %d", got, want)
}
