package exec

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
	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// sortedRow is one materialised row with its sort keys.
type sortedRow struct {
	names []string // shared by all rows of one input batch
	vals  []value.Value
	keys  []value.Value
	seq   int64 // arrival order: ties keep it, so sorting is stable
}

// sortOp orders rows on the client. With topN > 0 it keeps only the best
// topN rows in a heap instead of holding everything.
type sortOp struct {
	env    *Env
	keys   []planner.SortKey
	topN   int64
	input  Operator
	rows   []*sortedRow
	sorted bool
	pos    int
	seq    int64
	row    batchRow
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
			in.Release()
			return err
		}
		in.Release()
	}
	if op.topN > 0 {
		op.rows = h.rows
	}
	sort.Slice(op.rows, func(i, j int) bool { return op.less(op.rows[i], op.rows[j]) })
	op.sorted = true
	return nil
}

func (op *sortOp) add(in arrow.RecordBatch, h *rowHeap) error {
	op.row.reset(in)
	names := append([]string(nil), op.row.names...)
	first, firstOK := op.firstKeyColumn()
	for i := 0; i < int(in.NumRows()); i++ {
		op.row.i = i
		seq := op.seq
		op.seq++
		// Top-N over many rows: most rows lose to the worst kept row on the
		// first key alone; decide that without building the row.
		if op.topN > 0 && int64(len(h.rows)) >= op.topN && firstOK && op.losesOnFirstKey(first, i, h.rows[0]) {
			continue
		}
		r := &sortedRow{names: names, vals: op.row.values(), keys: make([]value.Value, len(op.keys)), seq: seq}
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
			r.keys[k] = v
		}
		if op.topN <= 0 {
			op.rows = append(op.rows, r)
			continue
		}
		// Max-heap of the best topN: the root is the worst kept row.
		if int64(len(h.rows)) < op.topN {
			heap.Push(h, r)
		} else if op.less(r, h.rows[0]) {
			h.rows[0] = r
			heap.Fix(h, 0)
		}
	}
	return nil
}

func (op *sortOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !op.sorted {
		if err := op.consume(ctx); err != nil {
			return nil, err
		}
	}
	if op.pos >= len(op.rows) {
		return nil, io.EOF
	}
	// Emit consecutive rows that share a column layout as one batch.
	first := op.rows[op.pos]
	b := columnar.NewRowBuilder(op.env.Mem, first.names)
	limit := op.env.batchRows()
	for op.pos < len(op.rows) && b.Len() < limit && sameNames(op.rows[op.pos].names, first.names) {
		b.Append(op.rows[op.pos].vals)
		op.rows[op.pos] = nil
		op.pos++
	}
	return b.Build(), nil
}

func (op *sortOp) Close() error {
	op.rows = nil
	return op.input.Close()
}

func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
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
	switch k := op.keys[0].Expr.(type) {
	case expr.Ref:
		if k.Index >= 0 && k.Index < len(op.row.cols) {
			return op.row.cols[k.Index], true
		}
	case expr.Column:
		if len(k.Path) == 1 && !k.Path[0].IsIndex {
			c, ok := op.row.column(fastColumn{source: k.Source, name: k.Path[0].Name})
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
