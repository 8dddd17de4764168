package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
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
	return fetchItems(ctx, op.env, op.node, items)
}

// fetchItems reads the base-table items whose keys the given items carry,
// in their order, de-duplicated; missing items are skipped.
func fetchItems(ctx context.Context, env *Env, node *planner.Fetch, items []value.Value) ([]value.Value, error) {
	var keys []map[string]types.AttributeValue
	seen := map[string]bool{}
	for _, it := range items {
		enc := itemKey(node.KeyAttrs, it.Attr)
		if seen[enc] {
			continue
		}
		seen[enc] = true
		key := map[string]types.AttributeValue{}
		for _, k := range node.KeyAttrs {
			key[k] = it.Attr(k).AttributeValue()
		}
		keys = append(keys, key)
	}
	var out []value.Value
	for start := 0; start < len(keys); start += ddblimits.BatchGetKeys {
		chunk := keys[start:min(start+ddblimits.BatchGetKeys, len(keys))]
		found, err := batchGet(ctx, env, node, node.Request(chunk))
		if err != nil {
			return nil, err
		}
		out = append(out, inKeyOrder(found, chunk, node.KeyAttrs)...)
	}
	return out, nil
}

func (op *fetchOp) Close() error { return op.input.Close() }
