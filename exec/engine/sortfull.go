package engine

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"

	"github.com/ddbsql/ddbsql/planner/value"
)

// A full sort orders rows by normalized keys: each row's sort keys are
// encoded into one []byte (value.AppendOrderKey per key, inverted for
// DESC, then the row's arrival number, so no two keys are equal and the
// sort is stable without asking for it), and an index of (key, batch, row)
// is sorted with bytes.Compare. Each input batch is gathered into its own
// key order as it arrives (sortBatch), and the rows are then gathered
// column by column from the retained, sorted input batches (gather.go),
// never built as values.

// sortEntry is one row of a full sort: its input (an index in op.inputs),
// its row there, and where its key is in that input's key bytes. It holds
// no pointers, so a million of them cost the collector nothing to scan and
// growing the slice copies plain memory.
type sortEntry struct {
	in, row    int32
	start, end uint32
}

// sortEntryBytes is what an entry costs besides its key, for the budget:
// the entry, its sortRef and the radix sort's scratch ref while the
// entries are sorted, and the slack append leaves in the slice.
const sortEntryBytes = 64

// keyOf is entry e's normalized key.
func (op *sortOp) keyOf(e sortEntry) []byte { return op.inputs[e.in].keys[e.start:e.end] }

// input is entry e's input batch.
func (op *sortOp) inputOf(e sortEntry) *sortInput { return op.inputs[e.in] }

// appendKeysOf appends the normalized sort keys of row i (the current row
// of op.row). A key that is a column stored as int64 or utf8 is encoded
// from the cell itself; the others are evaluated (evalKeys) first.
func (op *sortOp) appendKeysOf(dst []byte, i int, direct []columnar.Column) ([]byte, error) {
	evaluated := false
	for k, key := range op.keys {
		start := len(dst)
		c := direct[k]
		switch {
		case c.Array() == nil:
			if !evaluated {
				if err := op.evalKeys(op.cand.keys); err != nil {
					return dst, err
				}
				evaluated = true
			}
			dst = value.AppendOrderKey(dst, op.cand.keys[k])
		case c.IsMissing(i):
			dst = value.AppendOrderKey(dst, value.MissingValue())
		case c.Encoding() == columnar.EncInt64:
			dst = value.AppendInt64Key(dst, c.Array().(*array.Int64).Value(i))
		default:
			dst = value.AppendStringKey(dst, c.Array().(*array.String).Value(i))
		}
		if key.Desc {
			value.InvertKey(dst[start:])
		}
	}
	return dst, nil
}

// directKeyColumns finds, for the batch op.row is on, the column each sort
// key reads directly when it is stored as int64 or utf8 strings (a zero
// Column where the key must be evaluated).
func (op *sortOp) directKeyColumns() []columnar.Column {
	if cap(op.direct) < len(op.keys) {
		op.direct = make([]columnar.Column, len(op.keys))
	}
	out := op.direct[:len(op.keys)]
	for k := range op.keys {
		out[k] = columnar.Column{}
		c, ok := op.keyColumn(k)
		if ok && (c.Encoding() == columnar.EncInt64 || c.Encoding() == columnar.EncString) {
			out[k] = c
		}
	}
	return out
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
	direct := op.directKeyColumns()
	// One buffer for the batch's keys: offsets first, slices once it has
	// stopped growing.
	buf := make([]byte, 0, n*(8+8*len(op.keys)))
	ends := op.keyEnds[:0]
	for i := 0; i < n; i++ {
		op.row.i = i
		var err error
		if buf, err = op.appendKeysOf(buf, i, direct); err != nil {
			in.Release()
			return err
		}
		buf = binary.BigEndian.AppendUint64(buf, uint64(op.seq))
		op.seq++
		ends = append(ends, len(buf))
	}
	op.keyEnds = ends
	in, pos, err := op.sortBatch(in, buf, ends)
	if err != nil {
		return err
	}
	need := recordBytes(in) + int64(cap(buf)) + int64(n)*sortEntryBytes
	if err := op.reserve(need); err != nil {
		in.Release()
		return err
	}
	src := &sortInput{rec: in, layout: op.layout, class: op.classes.of(in.Schema()), unsent: n, reserved: need, keys: buf}
	idx := int32(len(op.inputs))
	op.inputs = append(op.inputs, src)
	start := 0
	for i, end := range ends {
		row := int32(i)
		if pos != nil {
			row = pos[i]
		}
		op.entries = append(op.entries, sortEntry{in: idx, row: row, start: uint32(start), end: uint32(end)})
		start = end
	}
	return nil
}

// sortBatchColumns is the number of columns from which sortBatch sorts an
// input batch as it arrives. The final gather's cache misses grow with the
// columns of a row: for whole items (16 columns) sorting the batches first
// cut the statement's CPU time by a quarter, while for 4 columns it cost
// about a tenth more than it saved.
const sortBatchColumns = 8

// sortBatch gathers in's rows in the order of their keys (keys and ends as
// addFull built them) while the batch is fresh in the cache, and returns
// the sorted batch (in is released) and where each row went. Then every
// input is read forward when the sorted result is gathered: the rows the
// final order takes from one input come in that input's order, so each
// cache line of its offsets and bytes serves several consecutive picks,
// where gathering from unsorted inputs pays a cache miss or two per cell
// (for whole items, most of a sort's time). A batch already in key order
// is kept as it is (pos nil), and so is a narrow one (sortBatchColumns).
func (op *sortOp) sortBatch(in arrow.RecordBatch, keys []byte, ends []int) (arrow.RecordBatch, []int32, error) {
	n := len(ends)
	if n < 2 || int(in.NumCols()) < sortBatchColumns {
		return in, nil, nil
	}
	es := make([]sortEntry, n)
	refs := make([]sortRef, n)
	start := 0
	for i, end := range ends {
		es[i] = sortEntry{row: int32(i), start: uint32(start), end: uint32(end)}
		refs[i] = sortRef{prefix: keyPrefix(keys[start:end]), i: int32(i)}
		start = end
	}
	sortKeyRefs(refs, keyTable{es: es, inputs: []*sortInput{{keys: keys}}})
	inOrder := true
	for k, r := range refs {
		if int(r.i) != k {
			inOrder = false
			break
		}
	}
	if inOrder {
		return in, nil, nil
	}
	picks := make([]pick, n)
	pos := make([]int32, n)
	for k, r := range refs {
		picks[k] = pick{rec: in, row: int(r.i)}
		pos[r.i] = int32(k)
	}
	// On the reading goroutine alone: while the input is still being
	// read, the other cores decode it.
	out, err := gatherOn(op.env.Mem, in.Schema(), picks, false)
	in.Release()
	if err != nil {
		return nil, nil, err
	}
	return out, pos, nil
}

// sortRef is what the sort moves around: the first eight bytes of an
// entry's key as a number (most comparisons end there) and the entry's
// index. Sorting these 16 bytes and permuting the entries once is faster
// than sorting the entries themselves.
type sortRef struct {
	prefix uint64
	i      int32
}

// sortEntries orders the entries held.
func (op *sortOp) sortEntries() {
	refs := make([]sortRef, len(op.entries))
	for i, e := range op.entries {
		refs[i] = sortRef{prefix: keyPrefix(op.keyOf(e)), i: int32(i)}
	}
	es := op.entries
	sortKeyRefs(refs, keyTable{es: es, inputs: op.inputs})
	// Permute in place, cycle by cycle: a sorted copy would double the
	// index at the moment the budget is full (the sort spills then).
	for s := range refs {
		if refs[s].i < 0 {
			continue
		}
		first := es[s]
		j := s
		for {
			k := int(refs[j].i)
			refs[j].i = -1
			if k == s {
				es[j] = first
				break
			}
			es[j] = es[k]
			j = k
		}
	}
}

// keyPrefix is the first eight bytes of key, big-endian, zero-padded: it
// orders as the keys do wherever it differs.
func keyPrefix(key []byte) uint64 {
	if len(key) >= 8 {
		return binary.BigEndian.Uint64(key)
	}
	var b [8]byte
	copy(b[:], key)
	return binary.BigEndian.Uint64(b[:])
}

// nextInMemory emits the next batch of sorted entries: consecutive rows
// whose batches share a schema, at most batchRows of them.
func (op *sortOp) nextInMemory() (arrow.RecordBatch, error) {
	limit := op.env.batchRows()
	first := op.inputOf(op.entries[op.pos]).class
	end := op.pos
	for end < len(op.entries) && end-op.pos < limit && op.inputOf(op.entries[end]).class == first {
		end++
	}
	picks := op.picks[:0]
	for _, e := range op.entries[op.pos:end] {
		picks = append(picks, pick{rec: op.inputOf(e).rec, row: int(e.row)})
	}
	op.picks = picks
	out, err := gather(op.env.Mem, op.classes.schema(first), picks)
	clear(picks)
	if err != nil {
		return nil, err
	}
	for i := op.pos; i < end; i++ {
		in := op.inputOf(op.entries[i])
		if in.unsent--; in.unsent == 0 {
			in.release()
			op.env.Memory.Release(in.reserved)
			op.reserved -= in.reserved
			in.reserved = 0
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
