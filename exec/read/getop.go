package read

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// keyedOp sends an Access's GetItem or BatchGetItem requests one per Next,
// in the plan's order, and returns the items found in the order of the
// keys in the statement.
type keyedOp struct {
	env    *Env
	access *planner.Access
	n      int // requests
	get    func(ctx context.Context, i int) ([]value.Value, error)
	next   int
}

// NewGetItems sends a's GetItems.
func NewGetItems(env *Env, a *planner.Access) Operator {
	return &keyedOp{env: env, access: a, n: len(a.Gets), get: func(ctx context.Context, i int) ([]value.Value, error) {
		return getItem(ctx, env, a, i)
	}}
}

// NewBatchGets sends a's BatchGetItems, re-sending UnprocessedKeys.
func NewBatchGets(env *Env, a *planner.Access) Operator {
	return &keyedOp{env: env, access: a, n: len(a.Batches), get: func(ctx context.Context, i int) ([]value.Value, error) {
		in := a.Batches[i]
		found, err := batchGet(ctx, env, a, in)
		if err != nil {
			return nil, err
		}
		return inKeyOrder(found, in.RequestItems[a.Table].Keys, a.KeyAttrs), nil
	}}
}

func (op *keyedOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, DynamoError(string(op.access.Op), err)
		}
		if op.next >= op.n {
			return nil, io.EOF
		}
		items, err := op.get(ctx, op.next)
		op.next++
		if err != nil {
			return nil, err
		}
		if len(items) > 0 {
			return itemsBatch(op.env.Mem, items, op.access.KeyAttrs), nil
		}
	}
}

func (op *keyedOp) Close() error { return nil }

// getItem sends the i-th GetItem of a.
func getItem(ctx context.Context, env *Env, a *planner.Access, i int) ([]value.Value, error) {
	if err := env.beforeRequest(ctx, "GetItem"); err != nil {
		return nil, err
	}
	out, err := env.Client.GetItem(ctx, a.Gets[i])
	if err != nil {
		env.failedRequest(a, "GetItem")
		return nil, DynamoError("GetItem", err)
	}
	var n int64
	if out.Item != nil {
		n = 1
	}
	r := tally{Op: "GetItem", Read: n, Returned: n, Capacity: capacityOf(out.ConsumedCapacity)}
	if err := env.afterResponse(a, r); err != nil {
		return nil, err
	}
	if out.Item == nil {
		return nil, nil
	}
	item, err := value.FromItem(out.Item)
	if err != nil {
		return nil, execErrorf(diag.CodeDecode, "GetItem returned an item ddbsql cannot read: %v", err)
	}
	return []value.Value{item}, nil
}
