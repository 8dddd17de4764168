package planner

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// batchKeysText is DynamoDB's limit of keys per BatchGetItem request as
// EXPLAIN states it, so the text follows the limit the requests obey.
var batchKeysText = strconv.Itoa(ddblimits.BatchGetKeys)

// readSpec is everything a request needs besides its key values.
type readSpec struct {
	table      string
	index      string
	filter     *expression.ConditionBuilder
	projection []value.Path // nil: all attributes
	consistent bool
	forward    *bool
	limit      int32
	count      bool
}

func (s readSpec) builder() expression.Builder {
	b := expression.NewBuilder()
	if s.filter != nil {
		b = b.WithFilter(*s.filter)
	}
	if s.projection != nil && !s.count {
		if pb, ok := ddbexpr.Projection(s.projection); ok {
			b = b.WithProjection(pb)
		}
	}
	return b
}

func (s readSpec) hasExpression() bool {
	return s.filter != nil || (s.projection != nil && !s.count)
}

func buildError(err error) *diag.Error {
	return errorf(diag.CodeInvalid, "cannot build the DynamoDB expression: %v", err)
}

func (s readSpec) query(pk KeyAttr, pkValue value.Value, sk *KeyAttr, skCond *keyCond) (*dynamodb.QueryInput, error) {
	kc := expression.Key(pk.Name).Equal(expression.Value(pkValue.AttributeValue()))
	if skCond != nil {
		kc = kc.And(sortKeyCondition(sk.Name, *skCond))
	}
	built, err := s.builder().WithKeyCondition(kc).Build()
	if err != nil {
		return nil, buildError(err)
	}
	values := built.Values()
	if skCond != nil && skCond.op == keyBeginsWith && skCond.values[0].Kind() == value.Binary {
		swapBinaryPrefix(values, skCond.values[0])
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    built.KeyCondition(),
		FilterExpression:          built.Filter(),
		ProjectionExpression:      built.Projection(),
		ExpressionAttributeNames:  built.Names(),
		ExpressionAttributeValues: values,
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityIndexes,
		ScanIndexForward:          s.forward,
	}
	s.common(&in.IndexName, &in.ConsistentRead, &in.Limit, &in.Select)
	return in, nil
}

func (s readSpec) scan(segment, total int32) (*dynamodb.ScanInput, error) {
	in := &dynamodb.ScanInput{
		TableName:              aws.String(s.table),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	}
	if s.hasExpression() {
		built, err := s.builder().Build()
		if err != nil {
			return nil, buildError(err)
		}
		in.FilterExpression = built.Filter()
		in.ProjectionExpression = built.Projection()
		in.ExpressionAttributeNames = built.Names()
		in.ExpressionAttributeValues = built.Values()
	}
	if total > 1 {
		in.Segment, in.TotalSegments = aws.Int32(segment), aws.Int32(total)
	}
	s.common(&in.IndexName, &in.ConsistentRead, &in.Limit, &in.Select)
	return in, nil
}

// common fills the fields Query and Scan share.
func (s readSpec) common(index **string, consistent **bool, limit **int32, sel *types.Select) {
	if s.index != "" {
		*index = aws.String(s.index)
	}
	if s.consistent {
		*consistent = aws.Bool(true)
	}
	if s.limit > 0 {
		*limit = aws.Int32(s.limit)
	}
	if s.count {
		*sel = types.SelectCount
	}
}

// projectionOnly builds ProjectionExpression and its names (GetItem/BatchGetItem).
func (s readSpec) projectionOnly() (*string, map[string]string, error) {
	if s.projection == nil {
		return nil, nil, nil
	}
	pb, ok := ddbexpr.Projection(s.projection)
	if !ok {
		return nil, nil, nil
	}
	built, err := expression.NewBuilder().WithProjection(pb).Build()
	if err != nil {
		return nil, nil, buildError(err)
	}
	return built.Projection(), built.Names(), nil
}

func (s readSpec) getItem(key map[string]value.Value) (*dynamodb.GetItemInput, error) {
	proj, names, err := s.projectionOnly()
	if err != nil {
		return nil, err
	}
	in := &dynamodb.GetItemInput{
		TableName:                aws.String(s.table),
		Key:                      attributeMap(key),
		ProjectionExpression:     proj,
		ExpressionAttributeNames: names,
		ReturnConsumedCapacity:   types.ReturnConsumedCapacityIndexes,
	}
	if s.consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	return in, nil
}

func (s readSpec) batchGets(keys []map[string]value.Value) ([]*dynamodb.BatchGetItemInput, error) {
	proj, names, err := s.projectionOnly()
	if err != nil {
		return nil, err
	}
	var out []*dynamodb.BatchGetItemInput
	for start := 0; start < len(keys); start += ddblimits.BatchGetKeys {
		end := min(start+ddblimits.BatchGetKeys, len(keys))
		ka := types.KeysAndAttributes{ProjectionExpression: proj, ExpressionAttributeNames: names}
		for _, k := range keys[start:end] {
			ka.Keys = append(ka.Keys, attributeMap(k))
		}
		if s.consistent {
			ka.ConsistentRead = aws.Bool(true)
		}
		out = append(out, &dynamodb.BatchGetItemInput{
			RequestItems:           map[string]types.KeysAndAttributes{s.table: ka},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		})
	}
	return out, nil
}

func attributeMap(m map[string]value.Value) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		out[k] = v.AttributeValue()
	}
	return out
}

func sortKeyCondition(name string, kc keyCond) expression.KeyConditionBuilder {
	key := expression.Key(name)
	v := func(i int) expression.ValueBuilder { return expression.Value(kc.values[i].AttributeValue()) }
	switch kc.op {
	case keyLt:
		return key.LessThan(v(0))
	case keyLe:
		return key.LessThanEqual(v(0))
	case keyGt:
		return key.GreaterThan(v(0))
	case keyGe:
		return key.GreaterThanEqual(v(0))
	case keyBetween:
		return key.Between(v(0), v(1))
	case keyBeginsWith:
		if kc.values[0].Kind() == value.Binary {
			return key.BeginsWith(binaryPrefixStandIn)
		}
		return key.BeginsWith(kc.values[0].Text())
	}
	return key.Equal(v(0))
}

// binaryPrefixStandIn takes the place of a binary begins_with prefix while
// the SDK's builder, whose BeginsWith takes only a string, builds the key
// condition; swapBinaryPrefix then puts the B value in its place, so the
// request compares bytes with bytes as DynamoDB requires for a B sort key.
// No SQL string literal can equal it (the parser never yields NUL bytes
// here, and a key prefix that did would be the same bytes either way).
const binaryPrefixStandIn = "\x00ddbsql-binary-prefix\x00"

func swapBinaryPrefix(values map[string]types.AttributeValue, prefix value.Value) {
	for name, v := range values {
		if s, ok := v.(*types.AttributeValueMemberS); ok && s.Value == binaryPrefixStandIn {
			values[name] = prefix.AttributeValue()
		}
	}
}
