package read

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
)

// request is one Query or Scan of a plan, the template the planner built.
// The two operations differ only in their SDK types; paging, the Limit
// rule, the fast path, pacing and statistics are the pager's, written once.
type request interface {
	op() string
	// limit is the template's Limit: the most items the request reads
	// over all its pages (pagelimit.go), nil for no bound.
	limit() *int32
	// segment says whether the request is one segment of a parallel Scan.
	segment() bool
	// send sends one page of the request: the template with start as
	// ExclusiveStartKey and limit as Limit, decoded by the SDK, or, with
	// raw set, straight into a batch by the fast path.
	send(ctx context.Context, env *Env, raw bool, keys []string, start map[string]types.AttributeValue, limit *int32) (response, error)
}

// response is one page as either path decodes it.
type response struct {
	items    []map[string]types.AttributeValue // the SDK path's
	rec      arrow.RecordBatch                 // the fast path's (nil for Select=COUNT)
	lastKey  map[string]types.AttributeValue
	count    int32 // items returned (Select=COUNT: the count)
	scanned  int32 // items read
	capacity *types.ConsumedCapacity
}

func fromRaw(rp *rawpage.Page, err error) (response, error) {
	if err != nil {
		return response{}, err
	}
	return response{rec: rp.Batch, lastKey: rp.LastEvaluatedKey, count: rp.Count, scanned: rp.ScannedCount, capacity: rp.ConsumedCapacity}, nil
}

type queryRequest struct{ in *dynamodb.QueryInput }

func (queryRequest) op() string      { return "Query" }
func (r queryRequest) limit() *int32 { return r.in.Limit }
func (queryRequest) segment() bool   { return false }
func (r queryRequest) send(ctx context.Context, env *Env, raw bool, keys []string, start map[string]types.AttributeValue, limit *int32) (response, error) {
	in := *r.in
	in.ExclusiveStartKey, in.Limit = start, limit
	if raw {
		return fromRaw(env.Raw.Query(ctx, &in, env.Mem, keys))
	}
	out, err := env.Client.Query(ctx, &in)
	if err != nil {
		return response{}, err
	}
	return response{items: out.Items, lastKey: out.LastEvaluatedKey, count: out.Count, scanned: out.ScannedCount, capacity: out.ConsumedCapacity}, nil
}

type scanRequest struct{ in *dynamodb.ScanInput }

func (scanRequest) op() string      { return "Scan" }
func (r scanRequest) limit() *int32 { return r.in.Limit }
func (r scanRequest) segment() bool { return r.in.TotalSegments != nil }
func (r scanRequest) send(ctx context.Context, env *Env, raw bool, keys []string, start map[string]types.AttributeValue, limit *int32) (response, error) {
	in := *r.in
	in.ExclusiveStartKey, in.Limit = start, limit
	if raw {
		return fromRaw(env.Raw.Scan(ctx, &in, env.Mem, keys))
	}
	out, err := env.Client.Scan(ctx, &in)
	if err != nil {
		return response{}, err
	}
	return response{items: out.Items, lastKey: out.LastEvaluatedKey, count: out.Count, scanned: out.ScannedCount, capacity: out.ConsumedCapacity}, nil
}
