package engine

import (
	"bytes"
	"encoding/binary"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/planner/value"
)

// A full sort orders rows by normalized keys: each row's sort keys are
// encoded into one []byte (value.AppendOrderKey per key, inverted for
// DESC, then the row's arrival number, so no two keys are equal and the
// sort is stable without asking for it), and an index of (key, batch, row)
// is sorted with bytes.Compare. The rows are then gathered column by
// column from the retained input batches (gather.go), never built as
// values.

// sortEntry is one row of a full sort.
type sortEntry struct {
	key []byte
	in  *sortInput
	row int
}

// sortEntryBytes is what an entry costs besides its key, for the budget.
const sortEntryBytes = 48

// appendRowKey appends the normalized key of the current row's keys.
func (op *sortOp) appendRowKey(dst []byte, keys []value.Value, seq int64) []byte {
	for i, v := range keys {
		start := len(dst)
		dst = value.AppendOrderKey(dst, v)
		if op.keys[i].Desc {
			value.InvertKey(dst[start:])
		}
	}
	return binary.BigEndian.AppendUint64(dst, uint64(seq))
}

// addFull takes over in: its rows' keys are encoded, its memory reserved
// (spilling what is held when the budget refuses) and it is retained.
func (op *sortOp) addFull(in arrow.RecordBatch) error {
	n := int(in.NumRows())
	if n == 0 {
		in.Release()
		return nil
	}
	if op.cand.keys == nil {
		op.cand.keys = make([]value.Value, len(op.keys))
	}
	// One buffer for the batch's keys: offsets first, slices once it has
	// stopped growing.
	buf := make([]byte, 0, n*(8+8*len(op.keys)))
	ends := op.keyEnds[:0]
	for i := 0; i < n; i++ {
		op.row.i = i
		if err := op.evalKeys(op.cand.keys); err != nil {
			in.Release()
			return err
		}
		buf = op.appendRowKey(buf, op.cand.keys, op.seq)
		op.seq++
		ends = append(ends, len(buf))
	}
	op.keyEnds = ends
	need := recordBytes(in) + int64(cap(buf)) + int64(n)*sortEntryBytes
	if err := op.reserve(need); err != nil {
		in.Release()
		return err
	}
	src := &sortInput{rec: in, layout: op.layout, class: op.classes.of(in.Schema()), unsent: n}
	op.inputs = append(op.inputs, src)
	start := 0
	for i, end := range ends {
		op.entries = append(op.entries, sortEntry{key: buf[start:end:end], in: src, row: i})
		start = end
	}
	return nil
}

// sortEntries orders the entries held.
func (op *sortOp) sortEntries() {
	slices.SortFunc(op.entries, func(a, b sortEntry) int { return bytes.Compare(a.key, b.key) })
}

// nextInMemory emits the next batch of sorted entries: consecutive rows
// whose batches share a schema, at most batchRows of them.
func (op *sortOp) nextInMemory() (arrow.RecordBatch, error) {
	limit := op.env.batchRows()
	first := op.entries[op.pos].in.class
	end := op.pos
	for end < len(op.entries) && end-op.pos < limit && op.entries[end].in.class == first {
		end++
	}
	picks := op.picks[:0]
	for _, e := range op.entries[op.pos:end] {
		picks = append(picks, pick{rec: e.in.rec, row: e.row})
	}
	op.picks = picks
	out, err := gather(op.env.Mem, op.classes.schema(first), picks)
	clear(picks)
	if err != nil {
		return nil, err
	}
	for i := op.pos; i < end; i++ {
		in := op.entries[i].in
		op.entries[i] = sortEntry{}
		if in.unsent--; in.unsent == 0 {
			in.release()
		}
	}
	op.pos = end
	return out, nil
}

// schemaClasses numbers the distinct schemas a sort has seen, so rows can
// be grouped by schema with an integer compare.
type schemaClasses struct {
	schemas []*arrow.Schema
	last    int
}

func (c *schemaClasses) of(s *arrow.Schema) int {
	if c.last < len(c.schemas) && (c.schemas[c.last] == s || c.schemas[c.last].Equal(s)) {
		return c.last
	}
	for i, k := range c.schemas {
		if k == s || k.Equal(s) {
			c.last = i
			return i
		}
	}
	c.schemas = append(c.schemas, s)
	c.last = len(c.schemas) - 1
	return c.last
}

func (c *schemaClasses) schema(class int) *arrow.Schema { return c.schemas[class] }

// recordBytes is the size of the buffers a batch holds (whole buffers, as
// retaining a slice retains them).
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		n += dataBytes(c.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	return n
}
