// Package funcs is the catalogue of the SQL functions ddbsql knows: for
// each, its name, how many arguments it takes, the types it expects and
// returns, whether it is an aggregate, and whether DynamoDB can evaluate it
// itself (so a predicate using it may go into a FilterExpression or
// ConditionExpression instead of running on the client).
//
// Phase: plan. The planner reads the catalogue to bind calls (unknown names
// and wrong arities are planning errors) and to decide pushdown
// (planner/ddbexpr); exec implements every entry (exec/eval the scalar
// functions, the aggregation operator the aggregates) and the REPL offers
// the names for completion. The catalogue sits below all of them so that
// the planner never needs the executor to know what a function is.
//
// May import: the standard library only. It is a leaf.
//
// # Invariants
//
//   - Names are lower-case and unique; Names and Aggregates return them
//     sorted. Lookup is case-insensitive.
//   - Every scalar entry has exactly one implementation in exec/eval and
//     every aggregate one accumulator in exec, and nothing is implemented
//     that is not catalogued; tests on the exec side prove both directions.
//   - Params describe what a call's arguments must be for the function to
//     return its Result rather than a "type" error; an argument that is SQL
//     NULL makes most functions return NULL (see exec/eval's doc for each
//     function's meaning). They describe, they do not restrict binding: a
//     call is checked for its arity when planned, for its types when run.
//   - Pushdown is not ClientOnly only for DynamoDB's own condition-expression
//     functions, whose meaning exec/eval reproduces exactly (two-valued:
//     FALSE, never NULL, on a missing attribute), so pushing one down never
//     changes a result. Their names are DynamoDB's own, so they are also
//     the words of the built expressions.
//   - The date functions share their units (ParseTimeUnit) and
//     date_format's specifiers (CheckDateFormat) between the planner,
//     which refuses a bad literal before anything is read, and exec/eval,
//     which checks values computed per row the same way.
package funcs
