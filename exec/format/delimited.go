package format

import (
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
// streams. A header written before End ends in the ExtraColumn, which holds
// the attributes first seen after it, so none is dropped.
type delimitedWriter struct {
	sink  recordSink
	label string // "CSV" or "TSV", for errors
	limit int
	h     Header

	pending *grid          // Dynamic, before the header is written
	header  []string       // Dynamic, once written
	column  map[string]int // Dynamic, once written: name → position
	extra   int            // Dynamic: the ExtraColumn's position, -1 if none
	fields  []string
	json    []byte // scratch for the extra column's text
}

func newDelimited(sink recordSink, label string, opt Options) *delimitedWriter {
	return &delimitedWriter{sink: sink, label: label, limit: opt.MaxBufferedRows, extra: -1}
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
		if err := d.release(true); err != nil {
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
// and switches to streaming. more says rows may follow: the header then
// ends in the extra column (empty in the buffered rows, which the header
// covers).
func (d *delimitedWriter) release(more bool) error {
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
	if err := d.writeHeader(d.header); err != nil {
		return err
	}
	for _, row := range g.rows {
		cells := l.dense(row)
		fields := d.scratch(len(d.header))
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
	pos, late, err := d.positions(cols, names, int(rec.NumRows()))
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
		if len(late) > 0 {
			if d.json, err = extraText(d.json, late, row); err != nil {
				return err
			}
			fields[d.extra] = string(d.json)
		}
		if err := d.sink.write(fields); err != nil {
			return err
		}
	}
	return nil
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
		if err := d.release(false); err != nil {
			return err
		}
	}
	return d.sink.flush()
}
