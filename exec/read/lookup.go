package read

import (
	"context"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Lookup reads the items of a lookup join's table that match the given
// distinct lookup values (BatchGetItem by key, or a Query per value), then
// their full items when the join fetches them, in no particular order.
func Lookup(ctx context.Context, env *Env, node *planner.LookupJoin, vals []value.Value) ([]value.Value, error) {
	var found []value.Value
	var err error
	if node.Op == planner.OpBatchGetItem {
		found, err = batchLookup(ctx, env, node, vals)
	} else {
		found, err = queryLookup(ctx, env, node, vals)
	}
	if err != nil || node.Fetch == nil {
		return found, err
	}
	return Fetch(ctx, env, node.Fetch, found)
}

func batchLookup(ctx context.Context, env *Env, node *planner.LookupJoin, vals []value.Value) ([]value.Value, error) {
	var reqs []*dynamodb.BatchGetItemInput
	for start := 0; start < len(vals); start += ddblimits.BatchGetKeys {
		reqs = append(reqs, node.BatchRequest(vals[start:min(start+ddblimits.BatchGetKeys, len(vals))]))
	}
	return parallel(ctx, env, "lookup", len(reqs), func(ctx context.Context, i int) ([]value.Value, error) {
		return batchGet(ctx, env, node, reqs[i])
	})
}

func queryLookup(ctx context.Context, env *Env, node *planner.LookupJoin, vals []value.Value) ([]value.Value, error) {
	return parallel(ctx, env, "lookup", len(vals), func(ctx context.Context, i int) ([]value.Value, error) {
		p := &pager{env: env, node: node, req: queryRequest{node.QueryFor(vals[i])}}
		var items []value.Value
		for {
			pg, err := p.next(ctx)
			if err == io.EOF {
				return items, nil
			}
			if err != nil {
				return nil, err
			}
			items = append(items, pg.items...)
		}
	})
}

// parallel runs n tasks on a fan-out bounded by the environment's
// concurrency and concatenates their results in task order; the first
// error cancels the rest; op names the tasks in the error of one never run.
func parallel(ctx context.Context, env *Env, op string, n int, task func(context.Context, int) ([]value.Value, error)) ([]value.Value, error) {
	results := make([][]value.Value, n)
	errs := forEach(ctx, n, env.concurrency(), op, func(ctx context.Context, i int) (err error) {
		results[i], err = task(ctx, i)
		return err
	})
	if err := firstRealError(errs); err != nil {
		return nil, err
	}
	var out []value.Value
	for i := range results {
		out = append(out, results[i]...)
	}
	return out, nil
}
