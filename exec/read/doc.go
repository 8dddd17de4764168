// Package read is ddbsql's DynamoDB reading layer: it sends the requests a
// plan's reads carry (planner.Access, the BatchGetItems of planner.Fetch
// and the lookups of planner.LookupJoin) and turns the responses into Arrow
// record batches or items.
//
// Phase: exec. It imports planner (the plan nodes and their request
// templates), planner/value and planner/ddblimits, exec/columnar,
// exec/dynamo (the client) and exec/dynamo/rawpage (the fast path's
// contract); never exec/engine, which builds its operators from it, nor
// exec/session. Because every DynamoDB response is recorded, paced and
// explained here first, the statement's statistics (Stats), its rate
// limiter and exec's error type (Error, DynamoError, Safely) live here;
// exec/engine gives them to its callers under its own names.
//
// Invariants:
//   - Only this package talks to DynamoDB. A read paginates to the end (an
//     empty page with a LastEvaluatedKey is not the end), checks ctx
//     between pages, and records requests, pages, items read/returned and
//     consumed capacity in Env.Stats (and Env.NodeStats' for its node).
//   - It requests a page before it is asked for only where the plan marks
//     the read ReadAhead (every page will be read: no LIMIT can stop it)
//     and for the first pages of parallel segments and IN lists; closing an
//     operator stops reading.
//   - Env.Raw (a rawpage.Reader, e.g. exec/dynamo/wire), when set, decodes
//     Query/Scan pages straight into batches; the batches equal what the
//     item path builds (both use rawpage.ItemsBatch's conversion), and its
//     errors (rawpage.ItemError, rawpage.PanicError, the SDK's) are
//     explained by DynamoError as on the item path.
//   - A batch returned by Next belongs to the caller, who must Release it.
//     Close is idempotent and safe before the first Next. Batches name
//     their columns by attribute, key attributes first.
//   - Every goroutine started here runs its work under Safely: a panic is
//     that worker's error (CodeInternal), the other workers are cancelled
//     and their pages released. Fan-outs run on a bounded pool: at most
//     Env.Concurrency requests at once, except a parallel Scan's segments,
//     which all read at once.
//   - A read either returns every item it should or fails with an error:
//     UnprocessedKeys are re-sent with backoff until none remain (or the
//     statement fails), and --max-rcu stops a statement with an error.
//   - Errors are *Error with a stable Code.
package read
