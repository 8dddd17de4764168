package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// maxUnprocessedRounds bounds how often unprocessed keys are re-sent before
// the statement fails (rather than silently returning fewer rows).
const maxUnprocessedRounds = 12

// batchGet sends one BatchGetItem for a single table and re-sends its
// UnprocessedKeys with exponential backoff and full jitter until every key
// is processed. It returns the items found (in no particular order).
func batchGet(ctx context.Context, env *Env, node planner.Node, in *dynamodb.BatchGetItemInput) ([]value.Value, error) {
	var found []value.Value
	req := in
	for round := 0; ; round++ {
		if err := env.beforeRequest(ctx, "BatchGetItem"); err != nil {
			return nil, err
		}
		out, err := env.Client.BatchGetItem(ctx, req)
		if err != nil {
			env.failedRequest(node, "BatchGetItem")
			return nil, DynamoError("BatchGetItem", err)
		}
		n := 0
		for _, items := range out.Responses {
			conv, err := convertItems(items)
			if err != nil {
				return nil, err
			}
			found = append(found, conv...)
			n += len(items)
		}
		if err := env.afterResponse(node, Response{Op: "BatchGetItem", Read: int64(n), Returned: int64(n), Capacity: out.ConsumedCapacity}); err != nil {
			return nil, err
		}
		pending := 0
		for _, ka := range out.UnprocessedKeys {
			pending += len(ka.Keys)
		}
		if pending == 0 {
			return found, nil
		}
		if round+1 >= maxUnprocessedRounds {
			keys := fmt.Sprintf("%d keys were", pending)
			if pending == 1 {
				keys = "1 key was"
			}
			return nil, execErrorf(diag.CodeThrottled, "BatchGetItem: %s still unprocessed after %d attempts; the result would be incomplete, so the statement stops", keys, round+1)
		}
		if err := sleepBackoff(ctx, round); err != nil {
			return nil, DynamoError("BatchGetItem", err)
		}
		req = &dynamodb.BatchGetItemInput{RequestItems: out.UnprocessedKeys, ReturnConsumedCapacity: in.ReturnConsumedCapacity}
	}
}

// sleepBackoff waits a random time up to 50 ms × 2^round (capped at 5 s).
func sleepBackoff(ctx context.Context, round int) error {
	ceiling := 50 * time.Millisecond << min(round, 7)
	ceiling = min(ceiling, 5*time.Second)
	d := time.Duration(rand.Int64N(int64(ceiling)) + 1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// inKeyOrder returns found items in the order of the requested keys.
func inKeyOrder(found []value.Value, requested []map[string]types.AttributeValue, keys []string) []value.Value {
	byKey := make(map[string]value.Value, len(found))
	for _, it := range found {
		byKey[itemKey(keys, it.Attr)] = it
	}
	out := make([]value.Value, 0, len(found))
	for _, k := range requested {
		if it, ok := byKey[itemKey(keys, requestAttr(k))]; ok {
			out = append(out, it)
		}
	}
	return out
}
