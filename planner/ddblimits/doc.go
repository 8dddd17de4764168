// Package ddblimits states DynamoDB's documented limits once: the sizes,
// counts and ranges that the planner plans around (keys per BatchGetItem,
// bytes per page, expression length), that exec enforces or bills by
// (item size, capacity units, table names), and that the in-process
// DynamoDB (exec/dynamo/memdb) checks requests against, so the product and
// its stand-in cannot drift apart.
//
// Each constant cites the DynamoDB documentation page it comes from. The
// constants are untyped, so they take the type of the expression that uses
// them (int, int32, float64) exactly as the literals they replace did.
//
// Limits of ddbsql's own (how many segments --segments allows, how many OR
// branches a WHERE may expand into, how long an input line may be) are not
// DynamoDB's and stay with the code that chose them. Tests keep their own
// literals: a test that checks a limit must not take its expectation from
// the constant it checks.
//
// Phase: planning and execution alike; a leaf in the planner layer, the
// lowest one that needs it. It imports nothing.
package ddblimits
