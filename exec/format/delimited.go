package format

import (
	"encoding/base64"
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// fieldCodec is what csv and tsv differ in: the separator and how a field
// is escaped. Records are built as bytes: a field is appended as it is
// and escaped (rewritten) only when it needs it.
type fieldCodec interface {
	separator() byte
	needsEscape(field []byte) bool
	appendEscaped(dst, field []byte) []byte
	// loneEmpty is how a record of one empty field is written.
	loneEmpty() string
}

// delimitedWriter streams csv and tsv. With fixed columns the header is
// known at Begin. In Dynamic mode it buffers rows (up to MaxBufferedRows, or
// until End) to learn the union of attributes, writes the header, and then
// streams. A header written before End ends in the ExtraColumn, which holds
// the attributes first seen after it, so none is dropped.
//
// Streamed cells go straight from the columns into the batch's bytes
// (appendCell: appendDisplayCell's text, escaped where it lies), which are written out once the batch is complete,
// so a failed batch writes nothing.
type delimitedWriter struct {
	out   io.Writer
	codec fieldCodec
	label string // "CSV" or "TSV", for errors
	limit int
	h     Header

	pending *grid          // Dynamic, before the header is written
	header  []string       // Dynamic, once written
	column  map[string]int // Dynamic, once written: name → position
	extra   int            // Dynamic: the ExtraColumn's position, -1 if none
	buf     []byte         // records not yet written to out
	field   []byte         // scratch: a field being escaped
}

func newDelimited(w io.Writer, codec fieldCodec, label string, opt Options) *delimitedWriter {
	return &delimitedWriter{out: w, codec: codec, label: label, limit: opt.MaxBufferedRows, extra: -1}
}

func (d *delimitedWriter) begin(h Header) error {
	d.h = h
	if h.Dynamic {
		d.pending = newGrid(h)
		return nil
	}
	d.writeHeader(h.Columns)
	return nil
}

func (d *delimitedWriter) writeHeader(names []string) {
	if len(names) == 0 {
		return
	}
	d.appendRecord(names)
}

// appendRecord appends one record of text fields.
func (d *delimitedWriter) appendRecord(fields []string) {
	for i, f := range fields {
		if i > 0 {
			d.buf = append(d.buf, d.codec.separator())
		}
		start := len(d.buf)
		d.buf = append(d.buf, f...)
		d.endField(start, len(fields))
	}
	d.buf = append(d.buf, '\n')
}

// endField escapes the field appended at start if it needs it; width is
// the record's number of fields.
func (d *delimitedWriter) endField(start, width int) {
	f := d.buf[start:]
	switch {
	case len(f) == 0 && width == 1:
		d.buf = append(d.buf, d.codec.loneEmpty()...)
	case d.codec.needsEscape(f):
		d.field = append(d.field[:0], f...)
		d.buf = d.codec.appendEscaped(d.buf[:start], d.field)
	}
}

// flush writes the complete records.
func (d *delimitedWriter) flush() error {
	if len(d.buf) == 0 {
		return nil
	}
	_, err := d.out.Write(d.buf)
	d.buf = d.buf[:0]
	return err
}

func (d *delimitedWriter) batch(rec arrow.RecordBatch) error {
	if d.pending != nil {
		if err := d.pending.add(rec); err != nil {
			return err
		}
		if d.limit < 0 || len(d.pending.rows) < d.limit {
			return nil
		}
		d.release(true)
		return d.flush()
	}
	if err := d.stream(rec); err != nil {
		return err
	}
	return d.flush()
}

// release writes the header learned from the buffered rows, then the rows,
// and switches to streaming. more says rows may follow: the header then
// ends in the extra column (empty in the buffered rows, which the header
// covers).
func (d *delimitedWriter) release(more bool) {
	g := d.pending
	d.pending = nil
	l := g.layout()
	d.header = l.names
	d.column = make(map[string]int, len(l.names))
	for i, n := range l.names {
		d.column[n] = i
	}
	if more {
		d.extra = len(d.header)
		d.header = append(d.header[:len(d.header):len(d.header)], extraName(d.header))
	}
	d.writeHeader(d.header)
	fields := make([]string, len(d.header))
	for _, row := range g.rows {
		cells := l.dense(row)
		clear(fields)
		for i, c := range cells {
			fields[i] = c.text // Display text; "" for NULL and missing
		}
		d.appendRecord(fields)
	}
}

// stream appends a batch's records, mapping its fields onto the header.
// On error the batch's records are dropped again.
func (d *delimitedWriter) stream(rec arrow.RecordBatch) error {
	cols, names, err := batchColumns(rec)
	if err != nil {
		return err
	}
	pos, late, err := d.positions(cols, names, int(rec.NumRows()))
	if err != nil {
		return err
	}
	width := len(d.h.Columns)
	if d.h.Dynamic {
		width = len(d.header)
	}
	from := make([]int, width) // header position → batch column, -1: none
	for p := range from {
		from[p] = -1
	}
	for c, p := range pos {
		if p >= 0 {
			from[p] = c
		}
	}
	tcols := textColumns(cols, names)
	mark := len(d.buf)
	sep := d.codec.separator()
	for row := 0; row < int(rec.NumRows()); row++ {
		for p, c := range from {
			if p > 0 {
				d.buf = append(d.buf, sep)
			}
			switch {
			case c >= 0:
				err = d.appendCell(&tcols[c], row, width)
			case p == d.extra && len(late) > 0:
				start := len(d.buf)
				d.buf, err = appendExtra(d.buf, late, row)
				d.endField(start, width)
			default:
				d.endField(len(d.buf), width)
			}
			if err != nil {
				d.buf = d.buf[:mark]
				return err
			}
		}
		d.buf = append(d.buf, '\n')
	}
	return nil
}

// appendCell appends one cell's field: appendDisplayCell's text, escaped
// as endField escapes it. Text that may need escaping (strings, numbers
// kept as text, base64, rendered documents) is checked where it lies and
// escaped straight into the record, instead of being appended, copied
// out and rewritten; integers and booleans never need it.
func (d *delimitedWriter) appendCell(t *textColumn, row, width int) error {
	if t.missing(row) {
		d.endField(len(d.buf), width)
		return nil
	}
	switch t.enc {
	case columnar.EncString:
		d.appendField(stringBytes(t.str.Value(row)), width)
	case columnar.EncNumberText:
		d.appendField(stringBytes(value.NumberText(t.str.Value(row))), width)
	case columnar.EncInt64:
		d.buf = strconv.AppendInt(d.buf, t.i64.Value(row), 10)
	case columnar.EncBool:
		d.buf = strconv.AppendBool(d.buf, t.bl.Value(row))
	case columnar.EncBinary:
		d.field = base64.StdEncoding.AppendEncode(d.field[:0], t.bin.Value(row))
		d.appendField(d.field, width)
	case columnar.EncValue:
		out, err := value.AppendEncodedDisplay(d.field[:0], t.bin.Value(row))
		if err != nil {
			return fmt.Errorf("format: column %q row %d: cannot decode value: columnar: %v", t.name, row, err)
		}
		d.field = out
		d.appendField(out, width)
	default:
		return fmt.Errorf("format: column %q has an encoding the text formats cannot read", t.name)
	}
	return nil
}

// appendField appends a field's text (which must not alias d.buf),
// escaped as endField would escape it.
func (d *delimitedWriter) appendField(f []byte, width int) {
	switch {
	case len(f) == 0 && width == 1:
		d.buf = append(d.buf, d.codec.loneEmpty()...)
	case d.codec.needsEscape(f):
		d.buf = d.codec.appendEscaped(d.buf, f)
	default:
		d.buf = append(d.buf, f...)
	}
}

// positions maps each batch column to its header position (-1: not in
// the header). With Dynamic, the columns the header lacks that hold a
// value in this batch are returned as late: they go into the extra column.
func (d *delimitedWriter) positions(cols []columnar.Column, names []string, rows int) ([]int, []lateColumn, error) {
	if !d.h.Dynamic {
		if len(cols) != len(d.h.Columns) {
			return nil, nil, columnCountError(len(cols), len(d.h.Columns))
		}
		return identity(len(cols)), nil, nil
	}
	pos := make([]int, len(cols))
	var late []lateColumn
	for c, n := range dynamicNames(names, d.h.KeyColumns) {
		p, ok := d.column[n]
		if !ok {
			p = -1
			if hasValue(cols[c], rows) {
				late = append(late, lateColumn{col: cols[c], name: n})
			}
		}
		pos[c] = p
	}
	sortLate(late)
	return pos, late, nil
}

func hasValue(c columnar.Column, rows int) bool {
	for row := 0; row < rows; row++ {
		if !c.IsMissing(row) {
			return true
		}
	}
	return false
}

func (d *delimitedWriter) end() error {
	if d.pending != nil {
		d.release(false)
	}
	return d.flush()
}
