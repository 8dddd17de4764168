// Package batchwrite puts items into one DynamoDB table with
// BatchWriteItem: REPLACE INTO and bulk load (`ddbsql --load`) write
// through it.
//
//	w := batchwrite.New(client, "orders", batchwrite.Options{Keys: []string{"PK", "SK"}, Concurrency: 4, Pacer: limiter})
//	for … { if err := w.Put(ctx, item); err != nil { … } }
//	res, err := w.Flush(ctx) // res.Written, res.WCU, res.Unwritten
//
// Phase: exec. It imports exec/read (exec's explanation of SDK errors and
// the --rate-limit limiter, which satisfies Pacer), exec/eval (item sizes),
// planner/value, planner/ddblimits and parser/diag; nothing imports it but
// the packages that write.
//
// Invariants:
//   - A request carries at most 25 puts and at most 12 MB of items (item
//     sizes as DynamoDB counts them, leaving room under the 16 MB request
//     limit for the JSON framing). An item over 400 KB, or without its key
//     attributes, is refused by Put before anything is sent.
//   - Every put ends written or named: UnprocessedItems are re-sent with
//     exponential backoff and full jitter (50 ms × 2^round, capped at
//     MaxBackoff) for up to MaxRounds rounds; a request that still fails
//     (after the SDK's own retries), or a cancelled context, makes Flush
//     return an error whose Cause is an *UnwrittenError listing every key
//     not written and how many puts were. Written counts only what
//     DynamoDB confirmed. After the first failure nothing more is sent and
//     Put refuses new items, so the keys not written are exactly the failed
//     request's and those queued behind it.
//   - Re-sending is safe: a put replaces the whole item, so a put applied
//     twice (a retried attempt whose first answer was lost) leaves what
//     one leaves.
//   - Duplicate keys in one request are a ValidationException in DynamoDB:
//     a second put of a key already in the request being filled replaces
//     the first there (the same result as both in order; Superseded counts
//     them), and a request holding a key that a request in flight holds is
//     sent only after that one ends. So puts of one key from one goroutine
//     apply in the order they were made, whatever the concurrency.
//   - At most Concurrency requests are in flight; Put blocks beyond that.
//     The Pacer, when set, is waited on before every request (re-sends
//     included) and booked with the capacity each response reports.
//   - Capacity: every request asks for ReturnConsumedCapacity (INDEXES
//     unless TOTAL is asked for); Result.WCU is their sum, split by table
//     and index when INDEXES.
//   - Snapshot().Confirmed is the number of leading puts that are all
//     written: a checkpoint that records it and later resumes from there
//     neither skips an item nor writes one that changes the result (the
//     puts re-sent after it are idempotent).
package batchwrite
