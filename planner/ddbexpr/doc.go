// Package ddbexpr translates resolved SQL predicates and column lists into
// DynamoDB FilterExpression and ProjectionExpression builders (the SDK's
// feature/dynamodb/expression), so every name and value is a placeholder.
//
// Phase: plan. May import: planner/value, planner/expr and planner/funcs;
// never the planner itself or exec's evaluator.
//
// Which functions DynamoDB evaluates is the function catalogue's word
// (planner/funcs): a call is translated only when its entry's Pushdown is
// Condition (a predicate: begins_with, contains, attribute_exists,
// attribute_not_exists, attribute_type) or Operand (size, inside a
// comparison); tests prove the translations and the catalogue agree.
//
// Invariant: Condition returns a DynamoDB condition only when it
// is true for exactly the items where the SQL predicate is TRUE under
// ddbsql's semantics (three-valued logic, missing attribute = NULL, values of
// different types never equal or ordered). Where DynamoDB would differ it
// either adds guards — <> on a missing attribute or NULL, size() of a type it
// does not measure, comparisons between two item operands (two NULLs or two
// missing attributes are equal to DynamoDB; BOOL, NULL, sets and documents
// are not ordered in SQL) — or refuses: NOT over a NULL, BETWEEN with bounds
// out of order, wildcards LIKE cannot express, a path compared with itself
// (DynamoDB rejects it), a path with a list index (on a set DynamoDB finds
// no element and drops the item, where ddbsql reports an error); the
// predicate then runs on the client instead.
//
// Conditions stay flat: a run of AND or OR becomes one n-ary condition and
// guards join the AND they guard, so the parentheses nest only as deep as
// the SQL's own logic, never as long as an OR chain. DynamoDB accepts
// either form, but dynalite's expression parser takes time exponential in
// the nesting depth (seconds at 10, minutes beyond 12), during which it
// answers no other request.
package ddbexpr
