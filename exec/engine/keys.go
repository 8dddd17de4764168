package engine

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Keys that match values on the client (BatchGetItem answers to their
// requests, lookup-join caches, DISTINCT inside an aggregate) are
// value.AppendBinary's bytes: equal exactly when the values are the same
// DynamoDB value, since number text is canonical. Two encoders differ on
// purpose and stay apart: appendGroupKey folds every NULL into one group
// (GROUP BY, DISTINCT), and hashKey gives a NULL join key no match.

// valueKey identifies one value.
func valueKey(v value.Value) string { return string(value.AppendBinary(nil, v)) }

// itemKey identifies an item by the named attributes, as attr reads them.
func itemKey(names []string, attr func(name string) value.Value) string {
	var b []byte
	for _, n := range names {
		b = value.AppendBinary(b, attr(n))
	}
	return string(b)
}

// requestAttr reads the attributes of a request key, for itemKey (an
// absent attribute reads as Missing, as value.Value.Attr reads it).
func requestAttr(key map[string]types.AttributeValue) func(name string) value.Value {
	return func(name string) value.Value {
		v, _ := value.FromAttributeValue(key[name])
		return v
	}
}
