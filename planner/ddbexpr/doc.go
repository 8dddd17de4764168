// Package ddbexpr translates resolved SQL predicates and column lists into
// DynamoDB FilterExpression and ProjectionExpression builders (the SDK's
// feature/dynamodb/expression), so every name and value is a placeholder.
//
// Phase: plan. Invariant: Condition returns a DynamoDB condition only when it
// is true for exactly the items where the SQL predicate is TRUE under
// ddbsql's semantics (three-valued logic, missing attribute = NULL, values of
// different types never equal or ordered). Where DynamoDB would differ — NOT
// over a NULL, <> on a missing attribute, BETWEEN with bounds out of order,
// wildcards LIKE cannot express — it refuses, and the predicate runs on the
// client instead.
package ddbexpr
