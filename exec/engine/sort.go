package engine

import (
	"container/heap"
	"context"
	"io"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// sortedRow is one row to order, with its sort keys. While in is set it is
// row `row` of that input and its keys are read in place from it: in a
// full sort for good (the input is retained), in a top-N only until the
// batch is done, when the rows still in the heap take owned copies of
// their values and keys and in is cleared (see sortOp).
type sortedRow struct {
	in        *sortInput
	row       int
	vals      []value.Value // top-N, once owned: the row's values,
	valLayout *rowLayout    // laid out as this
	keys      []value.Value
	seq       int64 // arrival order: ties keep it, so sorting is stable
	evicted   bool  // top-N: pushed out of the heap
}

func (r *sortedRow) layout() *rowLayout {
	if r.in != nil {
		return r.in.layout
	}
	return r.valLayout
}

// sortInput is an input batch whose rows are read in place. A full sort
// retains it (rec): the values and keys of its rows point into its
// buffers, so it is released only once its last row has been emitted (or
// the sort is closed). A top-N reads the batch being offered (no rec).
type sortInput struct {
	rec    arrow.RecordBatch
	layout *rowLayout
	cols   []columnar.Column
	class  int    // full sort: the batch's schema among the sort's (schemaClasses)
	unsent int    // rows not emitted yet
	keys   []byte // full sort: the rows' normalized keys, one after another
	// reserved is what a full sort took from the budget for this batch;
	// it is given back when the batch's last row is emitted, so that the
	// operators above can use it.
	reserved int64
}

func (in *sortInput) release() {
	if in.rec != nil {
		in.rec.Release()
		in.rec, in.cols = nil, nil
	}
}

// sortOp orders rows on the client. A full sort keeps every input batch
// (every row is needed until the end anyway, and rows read in place cost
// no copies) and sorts normalized keys (sortfull.go), spilling sorted runs
// when env.Memory refuses more (sortspill.go); with topN > 0 it keeps only the best topN rows in a heap and
// copies, when a batch is done, the rows of it that are still there, so
// that each batch can go at once and a row that enters and leaves the heap
// within its batch is never copied.
type sortOp struct {
	env    *Env
	keys   []planner.SortKey
	topN   int64
	input  Operator
	rows   []*sortedRow
	inputs []*sortInput // retained by a full sort, in arrival order
	sorted bool
	pos    int
	seq    int64
	row    batchRow
	layout *rowLayout // the last input's layout, shared while unchanged
	cand   sortedRow
	fresh  []*sortedRow // top-N: rows that entered the heap from this batch
	spare  *sortedRow   // top-N: an evicted row to reuse

	// Full sort.
	entries  []sortEntry
	keyEnds  []int // addFull's scratch
	direct   []columnar.Column
	picks    []pick // nextInMemory's scratch
	classes  schemaClasses
	reserved int64 // taken from env.Memory for the rows held
	runs     []*spill.Run
	merge    *sortMerge    // set once a sort that spilled has read its input
	ahead    chan gathered // the next batch, being gathered (sortahead.go)
	operator string        // names the sort in memory errors; "" is ORDER BY
}

func newSortOp(env *Env, keys []planner.SortKey, topN int64, input Operator) *sortOp {
	exprs := make([]expr.Expr, len(keys))
	for i, k := range keys {
		exprs[i] = k.Expr
	}
	return &sortOp{env: env, keys: keys, topN: topN, input: input, row: newBatchRow(exprs...)}
}

func (op *sortOp) less(a, b *sortedRow) bool {
	for i, k := range op.keys {
		c := value.Order(a.keys[i], b.keys[i])
		if c == 0 {
			continue
		}
		if k.Desc {
			return c > 0
		}
		return c < 0
	}
	return a.seq < b.seq
}

func (op *sortOp) consume(ctx context.Context) error {
	h := &rowHeap{op: op}
	for {
		in, err := op.input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := op.add(in, h); err != nil {
			return err
		}
	}
	op.sorted = true
	if op.topN == 0 {
		if len(op.runs) > 0 {
			return op.startMerge()
		}
		op.sortEntries()
		return nil
	}
	op.rows = h.rows
	sort.Slice(op.rows, func(i, j int) bool { return op.less(op.rows[i], op.rows[j]) })
	return nil
}

// add takes in's rows and takes over in: a full sort retains it, a top-N
// releases it.
func (op *sortOp) add(in arrow.RecordBatch, h *rowHeap) error {
	op.row.reset(in)
	if !op.layout.matches(op.row.names, op.row.from) {
		op.layout = newRowLayout(op.row.names, op.row.from)
	}
	if op.topN > 0 {
		err := op.addTop(in, h)
		op.ownTop() // before the batch goes
		in.Release()
		return err
	}
	return op.addFull(in)
}

// addTop offers in's rows to the top-N heap, with keys and values read in
// place; ownTop copies the entries that remain.
func (op *sortOp) addTop(in arrow.RecordBatch, h *rowHeap) error {
	first, firstOK := op.firstKeyColumn()
	cur := &sortInput{layout: op.layout, cols: op.row.cols}
	cand := &op.cand
	if cand.keys == nil {
		cand.keys = make([]value.Value, len(op.keys))
	}
	for i := 0; i < int(in.NumRows()); i++ {
		op.row.i = i
		seq := op.seq
		op.seq++
		full := int64(len(h.rows)) >= op.topN
		// Top-N over many rows: most rows lose to the worst kept row on the
		// first key alone; decide that without building the row.
		if full && firstOK && op.losesOnFirstKey(first, i, h.rows[0]) {
			continue
		}
		cand.seq = seq
		if err := op.evalKeys(cand.keys); err != nil {
			return err
		}
		if full && !op.less(cand, h.rows[0]) {
			continue
		}
		// Max-heap of the best topN: the root is the worst kept row.
		r := op.spare
		if r == nil {
			r = &sortedRow{keys: make([]value.Value, len(op.keys))}
		}
		op.spare = nil
		r.in, r.row, r.seq, r.evicted = cur, i, seq, false
		copy(r.keys, cand.keys)
		op.fresh = append(op.fresh, r)
		if !full {
			heap.Push(h, r)
			continue
		}
		old := h.rows[0]
		old.evicted = true
		op.spare = old
		h.rows[0] = r
		heap.Fix(h, 0)
	}
	return nil
}

// ownTop gives the rows that entered the heap from the current batch, and
// are still in it, owned copies of their values and keys.
func (op *sortOp) ownTop() {
	for _, r := range op.fresh {
		if r.evicted || r.in == nil {
			continue // gone, or already owned (it entered twice)
		}
		cols := r.in.cols
		if cap(r.vals) >= len(cols) {
			r.vals = r.vals[:len(cols)]
		} else {
			r.vals = make([]value.Value, len(cols))
		}
		for c, col := range cols {
			r.vals[c] = col.OwnedValue(r.row)
		}
		for k, v := range r.keys {
			r.keys[k] = v.Clone()
		}
		r.valLayout, r.in = r.in.layout, nil
	}
	clear(op.fresh)
	op.fresh = op.fresh[:0]
}

// evalKeys evaluates the sort keys of the current row into keys.
func (op *sortOp) evalKeys(keys []value.Value) error {
	for k, key := range op.keys {
		v, err := eval.Eval(key.Expr, &op.row)
		if err != nil {
			return evalError(err)
		}
		if v.IsNull() {
			// All SQL NULLs are peers (as in GROUP BY and DISTINCT):
			// a DynamoDB NULL must not sort after a missing attribute,
			// or the next sort key would not decide between them.
			v = value.MissingValue()
		}
		keys[k] = v
	}
	return nil
}

// cloneValues returns owned copies of vals.
func cloneValues(vals []value.Value) []value.Value {
	out := make([]value.Value, len(vals))
	for i, v := range vals {
		out[i] = v.Clone()
	}
	return out
}

func (op *sortOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !op.sorted {
		if err := op.consume(ctx); err != nil {
			return nil, err
		}
	}
	if op.topN == 0 {
		return op.nextFull()
	}
	if op.pos >= len(op.rows) {
		return nil, io.EOF
	}
	// Emit consecutive rows that share a column layout as one batch.
	layout := op.rows[op.pos].layout()
	b := columnar.NewRowBuilder(op.env.Mem, layout.names)
	limit := op.env.batchRows()
	var vals []value.Value
	var spent []*sortInput // inputs whose last row is in this batch
	for op.pos < len(op.rows) && b.Len() < limit && op.rows[op.pos].layout().same(layout) {
		r := op.rows[op.pos]
		op.rows[op.pos] = nil
		op.pos++
		if r.in == nil {
			b.Append(r.vals)
			continue
		}
		if vals == nil {
			vals = make([]value.Value, len(layout.names))
		}
		for c, col := range r.in.cols {
			vals[c] = col.Value(r.row)
		}
		b.Append(vals)
		if r.in.unsent--; r.in.unsent == 0 {
			spent = append(spent, r.in)
		}
	}
	// The builder holds values read in place until Build copies them.
	out := layout.tag(b.Build())
	for _, in := range spent {
		in.release()
	}
	return out, nil
}

// releaseInputs releases every batch the sort still retains.
func (op *sortOp) releaseInputs() {
	for _, in := range op.inputs {
		in.release()
	}
	op.inputs = nil
}

// nextFull emits a full sort's next batch, from memory or the merge.
func (op *sortOp) nextFull() (arrow.RecordBatch, error) {
	if op.merge != nil {
		return op.merge.next()
	}
	return op.nextAhead()
}

func (op *sortOp) Close() error {
	op.stopAhead()
	op.rows = nil
	if op.merge != nil {
		op.merge.close()
		op.merge = nil
	}
	for _, r := range op.runs {
		_ = r.Close()
	}
	op.runs = nil
	clear(op.entries)
	op.entries = nil
	op.releaseInputs()
	op.env.Memory.Release(op.reserved)
	op.reserved = 0
	return op.input.Close()
}

// rowHeap is a max-heap by sort order (worst row on top).
type rowHeap struct {
	op   *sortOp
	rows []*sortedRow
}

func (h *rowHeap) Len() int           { return len(h.rows) }
func (h *rowHeap) Less(i, j int) bool { return h.op.less(h.rows[j], h.rows[i]) }
func (h *rowHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *rowHeap) Push(x any)         { h.rows = append(h.rows, x.(*sortedRow)) }
func (h *rowHeap) Pop() any {
	last := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return last
}

// firstKeyColumn finds the column the first sort key reads directly (a
// plain attribute or an input position), for the top-N shortcut.
func (op *sortOp) firstKeyColumn() (columnar.Column, bool) {
	if len(op.keys) == 0 {
		return columnar.Column{}, false
	}
	return op.keyColumn(0)
}

// keyColumn finds the column sort key k reads directly, if it does.
func (op *sortOp) keyColumn(k int) (columnar.Column, bool) {
	switch k := op.keys[k].Expr.(type) {
	case expr.Ref:
		if k.Index >= 0 && k.Index < len(op.row.cols) {
			return op.row.cols[k.Index], true
		}
	case expr.Column:
		if len(k.Path) == 1 && !k.Path[0].IsIndex {
			c, ok := op.row.column(k.ID)
			return c, ok
		}
	}
	return columnar.Column{}, false
}

// losesOnFirstKey reports whether row i orders strictly after the worst
// kept row on the first key (so it cannot enter the top N). It reads only
// strings and integers in place; anything else says false (decide fully).
func (op *sortOp) losesOnFirstKey(c columnar.Column, i int, worst *sortedRow) bool {
	if c.IsMissing(i) {
		return false
	}
	root := worst.keys[0]
	var cmp int
	switch c.Encoding() {
	case columnar.EncInt64:
		x := c.Array().(*array.Int64).Value(i)
		r, ok := root.Int64()
		if !ok {
			return false
		}
		switch {
		case x < r:
			cmp = -1
		case x > r:
			cmp = 1
		}
	case columnar.EncString:
		if root.Kind() != value.String {
			return false
		}
		cmp = strings.Compare(c.Array().(*array.String).Value(i), root.Text())
	default:
		return false
	}
	if op.keys[0].Desc {
		return cmp < 0
	}
	return cmp > 0
}
