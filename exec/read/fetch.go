package read

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Fetch reads the base-table items whose keys the given items carry, in
// their order, de-duplicated; missing items are skipped.
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
