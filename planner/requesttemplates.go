package planner

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// A Fetch or a LookupJoin sends requests whose keys come from the rows that
// reach it, so the plan holds templates. The methods here complete them:
// exec calls them with the keys it has, and EXPLAIN with none, so the
// request EXPLAIN shows and the one exec sends come from the same code.

// Request is the BatchGetItem for one chunk of keys (at most 100) of the
// base-table items to fetch; with no keys it is the template EXPLAIN shows.
func (f *Fetch) Request(keys []map[string]types.AttributeValue) *dynamodb.BatchGetItemInput {
	ka := types.KeysAndAttributes{Keys: keys, ProjectionExpression: f.Projection, ExpressionAttributeNames: f.Names}
	if ka.Keys == nil {
		ka.Keys = []map[string]types.AttributeValue{}
	}
	if f.Consistent {
		ka.ConsistentRead = aws.Bool(true)
	}
	return &dynamodb.BatchGetItemInput{
		RequestItems:           map[string]types.KeysAndAttributes{f.Table: ka},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	}
}

// BatchRequest is the BatchGetItem that looks up one chunk of distinct
// lookup values (at most 100): each key is Attr = the value plus FixedKey.
// With no values it is the template EXPLAIN shows.
func (j *LookupJoin) BatchRequest(vals []value.Value) *dynamodb.BatchGetItemInput {
	ka := *j.Batch
	ka.Keys = make([]map[string]types.AttributeValue, 0, len(vals))
	for _, v := range vals {
		key := map[string]types.AttributeValue{j.Attr: v.AttributeValue()}
		for k, fv := range j.FixedKey {
			key[k] = fv.AttributeValue()
		}
		ka.Keys = append(ka.Keys, key)
	}
	return &dynamodb.BatchGetItemInput{
		RequestItems:           map[string]types.KeysAndAttributes{j.Table: ka},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	}
}

// QueryFor is the Query that looks up one lookup value: the template with
// ValuePlaceholder bound to v. The template itself is never modified.
func (j *LookupJoin) QueryFor(v value.Value) *dynamodb.QueryInput {
	in := *j.Query
	in.ExpressionAttributeValues = make(map[string]types.AttributeValue, len(j.Query.ExpressionAttributeValues))
	for k, av := range j.Query.ExpressionAttributeValues {
		in.ExpressionAttributeValues[k] = av
	}
	in.ExpressionAttributeValues[j.ValuePlaceholder] = v.AttributeValue()
	return &in
}

// queryTemplate is the lookup Query without a value for ValuePlaceholder,
// for EXPLAIN: the JSON form names the placeholder exec fills.
func (j *LookupJoin) queryTemplate() *dynamodb.QueryInput {
	in := *j.Query
	in.ExpressionAttributeValues = make(map[string]types.AttributeValue, len(j.Query.ExpressionAttributeValues))
	for k, av := range j.Query.ExpressionAttributeValues {
		if k != j.ValuePlaceholder {
			in.ExpressionAttributeValues[k] = av
		}
	}
	if len(in.ExpressionAttributeValues) == 0 {
		in.ExpressionAttributeValues = nil
	}
	return &in
}
