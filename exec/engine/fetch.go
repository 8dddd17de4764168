package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// fetchOp reads the full base-table items for the rows of an index read,
// 100 keys per BatchGetItem, keeping the input order. Items deleted between
// the index read and the fetch are skipped.
type fetchOp struct {
	env   *Env
	node  *planner.Fetch
	input Operator
}

func (op *fetchOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		in, err := op.input.Next(ctx)
		if err != nil {
			return nil, err
		}
		items, err := op.fetch(ctx, in)
		in.Release()
		if err != nil {
			return nil, err
		}
		if len(items) > 0 {
			return itemsBatch(op.env.Mem, items, op.node.KeyAttrs), nil
		}
	}
}

func (op *fetchOp) fetch(ctx context.Context, rec arrow.RecordBatch) ([]value.Value, error) {
	row := newBatchRow()
	row.reset(rec)
	items := make([]value.Value, rec.NumRows())
	for i := range items {
		row.i = i
		items[i], _ = row.Item(op.node.Source)
	}
	return read.Fetch(ctx, op.env.reader(), op.node, items)
}

func (op *fetchOp) Close() error { return op.input.Close() }
