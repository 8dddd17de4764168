package engine

import "github.com/ddbsql/ddbsql/planner/value"

// Keys that match values on the client (BatchGetItem answers to their
// requests, lookup-join caches, DISTINCT inside an aggregate) are
// value.AppendBinary's bytes: equal exactly when the values are the same
// DynamoDB value, since number text is canonical. Two encoders differ on
// purpose and stay apart: appendGroupKey folds every NULL into one group
// (GROUP BY, DISTINCT), and hashKey gives a NULL join key no match.

// valueKey identifies one value.
func valueKey(v value.Value) string { return string(value.AppendBinary(nil, v)) }
