package format

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// recordSink writes one delimited record (csv or tsv); NULL arrives as "".
type recordSink interface {
	write(fields []string) error
	flush() error
}

// delimitedWriter streams csv and tsv. With fixed columns the header is
// known at Begin. In Dynamic mode it buffers rows (up to MaxBufferedRows, or
// until End) to learn the union of attributes, writes the header, and then
// streams; an attribute first seen after that fails the batch rather than
// being dropped.
type delimitedWriter struct {
	sink  recordSink
	label string // "CSV" or "TSV", for errors
	limit int
	h     Header

	pending *grid          // Dynamic, before the header is written
	header  []string       // Dynamic, once written
	column  map[string]int // Dynamic, once written: name → position
	fields  []string
}

func newDelimited(sink recordSink, label string, opt Options) *delimitedWriter {
	return &delimitedWriter{sink: sink, label: label, limit: opt.MaxBufferedRows}
}

func (d *delimitedWriter) begin(h Header) error {
	d.h = h
	if h.Dynamic {
		d.pending = newGrid(h)
		return nil
	}
	return d.writeHeader(h.Columns)
}

func (d *delimitedWriter) writeHeader(names []string) error {
	if len(names) == 0 {
		return nil
	}
	return d.sink.write(names)
}

func (d *delimitedWriter) batch(rec arrow.RecordBatch) error {
	if d.pending != nil {
		if err := d.pending.add(rec); err != nil {
			return err
		}
		if d.limit < 0 || len(d.pending.rows) < d.limit {
			return nil
		}
		if err := d.release(); err != nil {
			return err
		}
		return d.sink.flush()
	}
	if err := d.stream(rec); err != nil {
		return err
	}
	return d.sink.flush()
}

// release writes the header learned from the buffered rows, then the rows,
// and switches to streaming.
func (d *delimitedWriter) release() error {
	g := d.pending
	d.pending = nil
	l := g.layout()
	d.header = l.names
	d.column = make(map[string]int, len(l.names))
	for i, n := range l.names {
		d.column[n] = i
	}
	if err := d.writeHeader(d.header); err != nil {
		return err
	}
	for _, row := range g.rows {
		cells := l.dense(row)
		fields := d.scratch(len(cells))
		for i, c := range cells {
			fields[i] = c.text // Display text; "" for NULL and missing
		}
		if err := d.sink.write(fields); err != nil {
			return err
		}
	}
	return nil
}

func (d *delimitedWriter) scratch(n int) []string {
	if cap(d.fields) < n {
		d.fields = make([]string, n)
	}
	d.fields = d.fields[:n]
	clear(d.fields)
	return d.fields
}

// stream writes a batch directly, mapping its fields onto the header.
func (d *delimitedWriter) stream(rec arrow.RecordBatch) error {
	cols, names, err := batchColumns(rec)
	if err != nil {
		return err
	}
	pos, err := d.positions(cols, names, int(rec.NumRows()))
	if err != nil {
		return err
	}
	width := len(d.h.Columns)
	if d.h.Dynamic {
		width = len(d.header)
	}
	for row := 0; row < int(rec.NumRows()); row++ {
		fields := d.scratch(width)
		for c, p := range pos {
			if p < 0 {
				continue
			}
			v, err := cellAt(cols[c], names[c], row)
			if err != nil {
				return err
			}
			fields[p] = value.Display(v)
		}
		if err := d.sink.write(fields); err != nil {
			return err
		}
	}
	return nil
}

// positions maps each batch column to its header position (-1: a field with
// no value in this batch that the header lacks). A field the header lacks
// but some row has a value for is a LateAttributeError.
func (d *delimitedWriter) positions(cols []columnar.Column, names []string, rows int) ([]int, error) {
	if !d.h.Dynamic {
		if len(cols) != len(d.h.Columns) {
			return nil, columnCountError(len(cols), len(d.h.Columns))
		}
		return identity(len(cols)), nil
	}
	pos := make([]int, len(cols))
	for c, n := range dynamicNames(names, d.h.KeyColumns) {
		p, ok := d.column[n]
		if !ok {
			p = -1
			if hasValue(cols[c], rows) {
				return nil, &LateAttributeError{Attribute: n, Format: d.label}
			}
		}
		pos[c] = p
	}
	return pos, nil
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
		if err := d.release(); err != nil {
			return err
		}
	}
	return d.sink.flush()
}

// LateAttributeError reports a SELECT * attribute that first appears after
// the csv/tsv header was written (beyond Options.MaxBufferedRows rows).
type LateAttributeError struct {
	Attribute string
	Format    string // "CSV" or "TSV"
}

func (e *LateAttributeError) Error() string {
	return fmt.Sprintf("attribute %q first appears after the %s header was written; list the columns explicitly or use --format json/ndjson", e.Attribute, e.Format)
}
