package read

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// mergeOp reads an IN list's Queries and merges their items in sort-key
// order (planner.Access.Merge); their first pages are fetched together.
type mergeOp struct {
	env    *Env
	access *planner.Access
	merge  *merger
	closed bool
}

// NewMerge merges a's Queries, each in sort-key order, into one stream in
// that order.
func NewMerge(env *Env, a *planner.Access) Operator { return &mergeOp{env: env, access: a} }

func (op *mergeOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if op.closed {
		return nil, io.EOF
	}
	if op.merge == nil {
		pagers := pagersOf(op.env, op.access, false)
		heads, err := prefetch(ctx, op.env, pagers)
		if err != nil {
			return nil, err
		}
		op.merge = newMerger(op.env, pagers, heads, op.access.Merge)
	}
	items, err := op.merge.next(ctx)
	if err != nil {
		return nil, err
	}
	return itemsBatch(op.env.Mem, items, op.access.KeyAttrs), nil
}

func (op *mergeOp) Close() error { op.closed = true; return nil }

// merger merges several Query streams, each already in sort-key order, into
// one stream in that order. It fetches a stream's next page only when that
// stream's buffered items run out.
type merger struct {
	env    *Env
	pagers []*pager
	queues [][]value.Value
	order  *planner.MergeOrder
}

func newMerger(env *Env, pagers []*pager, heads []page, order *planner.MergeOrder) *merger {
	m := &merger{env: env, pagers: pagers, order: order, queues: make([][]value.Value, len(pagers))}
	for i, h := range heads {
		m.queues[i] = h.items
	}
	return m
}

// fill makes sure queue i has an item unless its stream has ended.
func (m *merger) fill(ctx context.Context, i int) error {
	for len(m.queues[i]) == 0 {
		pg, err := m.pagers[i].next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		m.queues[i] = pg.items
	}
	return nil
}

// next returns up to a batch of merged items, or io.EOF.
func (m *merger) next(ctx context.Context) ([]value.Value, error) {
	var out []value.Value
	limit := m.env.batchRows()
	for len(out) < limit {
		best := -1
		for i := range m.queues {
			if err := m.fill(ctx, i); err != nil {
				return nil, err
			}
			if len(m.queues[i]) == 0 {
				continue
			}
			if best < 0 || m.before(m.queues[i][0], m.queues[best][0]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		out = append(out, m.queues[best][0])
		m.queues[best] = m.queues[best][1:]
	}
	if len(out) == 0 {
		return nil, io.EOF
	}
	return out, nil
}

func (m *merger) before(a, b value.Value) bool {
	va, vb := a.Attr(m.order.Attr), b.Attr(m.order.Attr)
	c := value.Order(va, vb)
	if m.order.Desc {
		return c > 0
	}
	return c < 0
}
