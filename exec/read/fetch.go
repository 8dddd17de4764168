package read

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Fetch reads the base-table items whose keys the given items carry, in
// their order, de-duplicated; missing items are skipped. Its BatchGetItems
// (100 keys each) run on a fan-out bounded by the concurrency.
func Fetch(ctx context.Context, env *Env, node *planner.Fetch, items []value.Value) ([]value.Value, error) {
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
	var chunks [][]map[string]types.AttributeValue
	for start := 0; start < len(keys); start += ddblimits.BatchGetKeys {
		chunks = append(chunks, keys[start:min(start+ddblimits.BatchGetKeys, len(keys))])
	}
	return parallel(ctx, env, "BatchGetItem", len(chunks), func(ctx context.Context, i int) ([]value.Value, error) {
		found, err := batchGet(ctx, env, node, node.Request(chunks[i]))
		if err != nil {
			return nil, err
		}
		return inKeyOrder(found, chunks[i], node.KeyAttrs), nil
	})
}
