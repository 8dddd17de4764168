package engine

import (
	"bytes"
	"container/heap"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// External sort. A full sort reserves from env.Memory what it retains (the
// input batches' buffers, the key bytes, the index); when the budget
// refuses a batch, the rows held so far are sorted and written to the
// statement's spill directory as a sorted run (batches of at most
// batchRows rows, each with the rows' keys as one more binary column),
// their memory is released and the sort goes on. At the end the runs and
// the rows still held are merged by key (a heap over one cursor each).

// sortKeyField is the extra column of a spilled run: each row's key.
var sortKeyField = arrow.Field{Name: "ddbsql.sort_key", Type: arrow.BinaryTypes.Binary}

// reserve takes need bytes from the budget, spilling what the sort holds
// when they do not fit.
func (op *sortOp) reserve(need int64) error {
	mem := op.env.Memory
	if mem.TryReserve(need) {
		op.reserved += need
		return nil
	}
	if op.env.Spill == nil || len(op.entries) == 0 {
		return spill.Exceeded(op.operatorName(), mem, need)
	}
	if err := op.spillRun(); err != nil {
		return err
	}
	if mem.TryReserve(need) {
		op.reserved += need
		return nil
	}
	return spill.Exceeded(op.operatorName(), mem, need)
}

// operatorName is what the sort's memory errors call it: ORDER BY, or the
// operator that sorts through it.
func (op *sortOp) operatorName() string {
	if op.operator != "" {
		return op.operator
	}
	return "ORDER BY"
}

// spillRun sorts the rows held, writes them as one run and lets them go.
func (op *sortOp) spillRun() error {
	op.sortEntries()
	run, err := op.env.Spill.NewRun("sort", op.env.Mem)
	if err != nil {
		return err
	}
	op.runs = append(op.runs, run)
	for op.pos < len(op.entries) {
		rec, err := op.nextKeyed()
		if err != nil {
			return err
		}
		err = run.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	if err := run.Finish(); err != nil {
		return err
	}
	op.dropHeld()
	return nil
}

// dropHeld forgets the rows held (all emitted) and returns their memory.
func (op *sortOp) dropHeld() {
	clear(op.entries)
	op.entries, op.pos = op.entries[:0], 0
	op.releaseInputs()
	op.env.Memory.Release(op.reserved)
	op.reserved = 0
}

// nextKeyed is nextInMemory with the rows' keys as a last column.
func (op *sortOp) nextKeyed() (arrow.RecordBatch, error) {
	start := op.pos
	end := op.pos + op.env.batchRows()
	first := op.inputOf(op.entries[start]).class
	for i := start; i < end && i < len(op.entries); i++ {
		if op.inputOf(op.entries[i]).class != first {
			end = i
		}
	}
	if end > len(op.entries) {
		end = len(op.entries)
	}
	b := array.NewBinaryBuilder(op.env.Mem, arrow.BinaryTypes.Binary)
	defer b.Release()
	for _, e := range op.entries[start:end] {
		b.Append(op.keyOf(e))
	}
	keys := b.NewArray()
	defer keys.Release()
	rec, err := op.nextInMemory()
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	if rec.NumRows() != int64(keys.Len()) {
		return nil, execErrorf(diag.CodeInternal, "a spilled batch and its keys disagree")
	}
	cols := append(append([]arrow.Array(nil), rec.Columns()...), keys)
	fields := append(append([]arrow.Field(nil), rec.Schema().Fields()...), sortKeyField)
	meta := rec.Schema().Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &meta), cols, rec.NumRows()), nil
}

// startMerge ends the input of a sort that spilled: the rows still held
// become the last source, and a merge over every run's reader begins.
func (op *sortOp) startMerge() error {
	m := &sortMerge{mem: op.env.Mem, limit: op.env.batchRows()}
	op.merge = m
	for _, r := range op.runs {
		if err := m.add(r.Reader()); err != nil {
			return err
		}
	}
	if len(op.entries) > 0 {
		op.sortEntries()
		if err := m.add(&heldSource{op: op}); err != nil {
			return err
		}
	}
	heap.Init(m)
	return nil
}

// batchSource is a sorted stream of keyed batches: a run's reader, or the
// rows the sort still holds.
type batchSource interface {
	Next() (arrow.RecordBatch, error)
	Close()
}

// heldSource streams the rows held in memory at the end, keyed.
type heldSource struct{ op *sortOp }

func (h *heldSource) Next() (arrow.RecordBatch, error) {
	if h.op.pos >= len(h.op.entries) {
		return nil, io.EOF
	}
	return h.op.nextKeyed()
}

func (h *heldSource) Close() {}

// mergeCursor is a source's current batch and row.
type mergeCursor struct {
	src   batchSource
	rec   arrow.RecordBatch
	keys  *array.Binary
	row   int
	class int
}

// sortMerge k-way merges sorted sources by key.
type sortMerge struct {
	mem     memory.Allocator
	limit   int
	cursors []*mergeCursor
	classes schemaClasses // of the output schemas (the key column dropped)
	done    []arrow.RecordBatch
}

func (m *sortMerge) Len() int { return len(m.cursors) }
func (m *sortMerge) Less(i, j int) bool {
	a, b := m.cursors[i], m.cursors[j]
	return bytes.Compare(a.keys.Value(a.row), b.keys.Value(b.row)) < 0
}
func (m *sortMerge) Swap(i, j int) { m.cursors[i], m.cursors[j] = m.cursors[j], m.cursors[i] }
func (m *sortMerge) Push(x any)    { m.cursors = append(m.cursors, x.(*mergeCursor)) }
func (m *sortMerge) Pop() any {
	c := m.cursors[len(m.cursors)-1]
	m.cursors = m.cursors[:len(m.cursors)-1]
	return c
}

// add appends a source's cursor (not yet a heap: heap.Init follows).
func (m *sortMerge) add(src batchSource) error {
	c := &mergeCursor{src: src}
	ok, err := m.load(c)
	if err != nil || !ok {
		src.Close()
		return err
	}
	m.cursors = append(m.cursors, c)
	return nil
}

// load reads the cursor's next non-empty batch; false at the end.
func (m *sortMerge) load(c *mergeCursor) (bool, error) {
	for {
		rec, err := c.src.Next()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		s := rec.Schema()
		last := int(rec.NumCols()) - 1
		if last < 0 || s.Field(last).Name != sortKeyField.Name {
			rec.Release()
			return false, execErrorf(diag.CodeInternal, "a spilled sort run lost its key column")
		}
		meta := s.Metadata()
		c.rec, c.keys, c.row = rec, rec.Column(last).(*array.Binary), 0
		c.class = m.classes.of(arrow.NewSchema(s.Fields()[:last], &meta))
		return true, nil
	}
}

// next emits the next merged batch: rows of one schema, at most limit.
func (m *sortMerge) next() (arrow.RecordBatch, error) {
	if len(m.cursors) == 0 {
		return nil, io.EOF
	}
	class := m.cursors[0].class
	var picks []pick
	for len(m.cursors) > 0 && len(picks) < m.limit && m.cursors[0].class == class {
		c := m.cursors[0]
		picks = append(picks, pick{rec: c.rec, row: c.row})
		if c.row++; c.row < int(c.rec.NumRows()) {
			heap.Fix(m, 0)
			continue
		}
		m.done = append(m.done, c.rec) // picked rows point into it
		c.rec, c.keys = nil, nil
		ok, err := m.load(c)
		if err != nil {
			m.releaseDone()
			return nil, err
		}
		if ok {
			heap.Fix(m, 0)
		} else {
			c.src.Close()
			heap.Pop(m)
		}
	}
	out, err := gather(m.mem, m.classes.schema(class), picks)
	m.releaseDone()
	return out, err
}

func (m *sortMerge) releaseDone() {
	for _, r := range m.done {
		r.Release()
	}
	clear(m.done)
	m.done = m.done[:0]
}

// close releases every cursor's batch and source.
func (m *sortMerge) close() {
	m.releaseDone()
	for _, c := range m.cursors {
		if c.rec != nil {
			c.rec.Release()
		}
		c.src.Close()
	}
	m.cursors = nil
}
