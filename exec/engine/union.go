package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner"
)

// unionOp reads the branches of a planner.Union one after another and
// passes each item once, the first time a branch returns it, recognised by
// its primary key.
//
// Branches are built and read lazily, in order: a branch's operator is
// built, and its first request sent, only when the branch before it has
// ended, and each ended branch is closed at once. So a LIMIT above that is
// met early (it closes the union) never reads the later branches (EXPLAIN
// ANALYZE says they never ran), and at most one branch holds pages at a
// time. Within a branch the read runs as it would alone (IN lists and
// segments concurrently, within --concurrency).
type unionOp struct {
	env    *Env
	node   *planner.Union
	build  func(planner.Node) (Operator, error)
	input  Operator // the current branch's, once built
	cur    int
	seen   map[string]struct{}
	buf    []byte
	closed bool
}

func newUnionOp(env *Env, n *planner.Union, build func(planner.Node) (Operator, error)) *unionOp {
	return &unionOp{env: env, node: n, build: build, seen: map[string]struct{}{}}
}

func (op *unionOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for !op.closed && op.cur < len(op.node.Inputs()) {
		if op.input == nil {
			in, err := op.build(op.node.Inputs()[op.cur])
			if err != nil {
				return nil, err
			}
			op.input = in
		}
		in, err := op.input.Next(ctx)
		if err == io.EOF {
			op.closeInput()
			op.cur++
			continue
		}
		if err != nil {
			return nil, err
		}
		out, err := op.dedup(ctx, in)
		if err != nil {
			return nil, err
		}
		if out != nil {
			return out, nil
		}
	}
	return nil, io.EOF
}

// dedup keeps the rows whose primary key no earlier row had; it releases
// in and returns nil when none is new.
func (op *unionOp) dedup(ctx context.Context, in arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(in.NumRows())
	keys := make([]columnar.Column, len(op.node.KeyAttrs))
	present := make([]bool, len(keys))
	for k, attr := range op.node.KeyAttrs {
		if c := columnOfItem(in.Schema(), op.node.Source, attr); c >= 0 {
			keys[k], present[k] = columnar.ColumnOf(in, c), true
		}
	}
	mask := array.NewBooleanBuilder(op.env.Mem)
	defer mask.Release()
	mask.Reserve(n)
	kept := 0
	for i := 0; i < n; i++ {
		op.buf = op.buf[:0]
		for k := range keys {
			op.buf = appendCellKey(op.buf, keys[k], present[k], i)
		}
		_, dup := op.seen[string(op.buf)]
		if !dup {
			op.seen[string(op.buf)] = struct{}{}
			kept++
		}
		mask.UnsafeAppend(!dup)
	}
	return keepRows(ctx, op.env, in, mask, kept, "union")
}

func (op *unionOp) closeInput() {
	if op.input != nil {
		_ = op.input.Close()
		op.input = nil
	}
}

// Close closes the branch being read; it is idempotent.
func (op *unionOp) Close() error {
	op.closed = true
	op.closeInput()
	op.seen = nil
	return nil
}
