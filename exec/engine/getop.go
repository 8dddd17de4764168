package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// getOp runs GetItem or BatchGetItem requests, one request per Next, and
// returns items in the order of the keys in the statement.
type getOp struct {
	env    *Env
	access *planner.Access
	next   int
}

func (op *getOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		items, more, err := op.step(ctx)
		if err != nil {
			return nil, err
		}
		if !more {
			return nil, io.EOF
		}
		if len(items) > 0 {
			return itemsBatch(op.env.Mem, items, op.access.KeyAttrs), nil
		}
	}
}

func (op *getOp) step(ctx context.Context) ([]value.Value, bool, error) {
	a := op.access
	if err := ctx.Err(); err != nil {
		return nil, false, DynamoError(string(a.Op), err)
	}
	switch a.Op {
	case planner.OpGetItem:
		if op.next >= len(a.Gets) {
			return nil, false, nil
		}
		in := a.Gets[op.next]
		op.next++
		if err := op.env.beforeRequest(ctx, "GetItem"); err != nil {
			return nil, false, err
		}
		out, err := op.env.Client.GetItem(ctx, in)
		if err != nil {
			op.env.failedRequest(a, "GetItem")
			return nil, false, DynamoError("GetItem", err)
		}
		var n int64
		if out.Item != nil {
			n = 1
		}
		r := Response{Op: "GetItem", Read: n, Returned: n, Capacity: capacityOf(out.ConsumedCapacity)}
		if err := op.env.afterResponse(a, r); err != nil {
			return nil, false, err
		}
		if out.Item == nil {
			return nil, true, nil
		}
		item, err := value.FromItem(out.Item)
		if err != nil {
			return nil, false, execErrorf(diag.CodeDecode, "GetItem returned an item ddbsql cannot read: %v", err)
		}
		return []value.Value{item}, true, nil
	default:
		if op.next >= len(a.Batches) {
			return nil, false, nil
		}
		in := a.Batches[op.next]
		op.next++
		found, err := batchGet(ctx, op.env, a, in)
		if err != nil {
			return nil, false, err
		}
		return inKeyOrder(found, in.RequestItems[a.Table].Keys, a.KeyAttrs), true, nil
	}
}

func (op *getOp) Close() error { return nil }
