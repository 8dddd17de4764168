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
// Parts:
//   - request (request.go) is one Query or Scan template; pager
//     (pager.go) walks its pages, one loop for both operations and both
//     decoding paths (the SDK's items, or Env.Raw's batches).
//   - fanOut (workers.go) is the one concurrent runner: IN-list first
//     pages, parallel segments and read-ahead (segments.go), lookups and
//     BatchGetItem chunks of fetches (lookup.go, fetch.go).
//   - The operators, one per way of reading, chosen by exec/engine's
//     Build: NewPages (one request, or an IN list in its order), NewMerge
//     (an IN list merged by sort key), NewSegments (a parallel Scan),
//     NewReadAhead (one request read ahead), NewCount (Select=COUNT),
//     NewGetItems and NewBatchGets (keyed reads, UnprocessedKeys retried
//     with backoff, batchget.go). Fetch and Lookup serve the engine's
//     fetch and lookup-join operators, which keep the relational part.
//
// RateLimiter's Wait and Book (pacer.go) let exec/batchwrite pace writes
// by the same cost-based rule as reads (--rate-limit, in WCU per second
// for writes).
//
// Invariants:
//   - Only this package talks to DynamoDB. A read paginates to the end (an
//     empty page with a LastEvaluatedKey is not the end), checks ctx
//     between pages, and records requests, pages, items read/returned and
//     consumed capacity in Env.Stats (and in Env.NodeStats' for its node).
//   - Requests are sent as the planner built them (planner/doc.go), with
//     ExclusiveStartKey added, keys or values filled into the templates by
//     the planner's own methods, and one rule for Limit: a request's Limit
//     is its total over all pages; each page asks for what remains, and
//     the request ends once Limit items have been read (pagelimit.go).
//   - A page is requested before it is asked for only where the plan marks
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
//     their columns by attribute, key attributes first. Merges, lookups and
//     fetches keep only items decoded from responses.
//   - Every goroutine started here is a fanOut worker and runs its task
//     under Safely: a panic is that task's error (CodeInternal), the first
//     error cancels the other tasks, and pages nobody took are released.
//     At most Env.Concurrency requests run at once, except a parallel
//     Scan's segments, which all read at once (--segments is the
//     parallelism); never one goroutine per key or value.
//   - A read either returns every item it should or fails with an error:
//     UnprocessedKeys are re-sent with backoff until none remain (or the
//     statement fails), and --max-rcu stops a statement with an error.
//   - Errors are *Error with a stable Code. A *diag.Error of phase load
//     that a read meets (an offline --data table streamed from its files
//     finding a bad item) is passed through as it is, code and text.
package read
