// Package write runs INSERT, REPLACE, UPDATE and DELETE: it reads the items
// a planner.WritePlan finds (through exec/engine, exactly like a SELECT),
// computes every new image on the client, and writes each item with one
// conditional request.
//
// Phase: exec. May import planner and its leaves, parser/diag, exec/engine
// (to run the read), exec/eval (SET and VALUES expressions, and the WHERE
// re-checked on a re-read item), exec/columnar, exec/dynamo and
// exec/batchwrite (REPLACE); exec/session calls it, nothing below does.
//
// Invariants:
//   - Nothing is written until the read has run to its end and every new
//     image is computed: an error while reading or evaluating writes
//     nothing, and --max-wcu refuses a statement whose computed cost (per
//     item the larger of the old and new image in 1 KB units) exceeds it
//     before the first write. A dry run stops there and reports the keys.
//     So does a table or index key of the wrong type in any new image
//     (key_type), which DynamoDB would reject after others were written.
//   - INSERT is PutItem with attribute_not_exists(<partition key>): an
//     existing key is an item_exists error naming it. UPDATE and DELETE are
//     UpdateItem and DeleteItem whose ConditionExpression requires the item
//     as read: every attribute it had equal to the value read (a map or
//     list member by member: type, size, each element, since dynalite never
//     finds two maps equal with =), and each attribute the statement names
//     that it lacked still absent (so the WHERE's pushed-down and
//     client-side parts both still hold). New values
//     are computed from the item read and sent as values (b = b + 1 sends
//     b's new number), so a request that is sent twice cannot apply twice:
//     the second finds the item changed and fails its condition.
//   - A failed condition re-reads the item (consistent GetItem). If an
//     attempt of this request may have been applied (the SDK retried an
//     attempt that failed without an answer — a reset connection, a server
//     error — which a wrapped Retryer notices; or this package's own round
//     of retries did) and the item now is the image the write makes, the
//     write is counted as done. Otherwise the WHERE is evaluated on the item
//     as it is now: still matching, the new image is computed again and the
//     write retried (at most MaxConflictRetries times); no longer matching
//     (or gone), the item is reported as skipped, never overwritten.
//   - REPLACE writes unconditionally with exec/batchwrite (BatchWriteItem,
//     25 a request, UnprocessedItems re-sent; every key not written is
//     named). A put applied twice leaves what one leaves.
//   - Statements of several items are not atomic: on a failure the error
//     (code partial_write) says how many items were written and which
//     were not, with the first keys of each (Result has them all).
//   - At most Engine.Concurrency items are written at once (--concurrency);
//     the first failure stops new writes, the ones in flight end, and every
//     item is then written, skipped or named not written.
//   - Every response's ConsumedCapacity (INDEXES) is added to Result, by
//     table and index; once the consumed WCU passes --max-wcu the statement
//     stops (a partial_write error). Writes are paced by the session's rate
//     limiter, as reads are.
//   - Journal (journal.go): with Env.Journal, every item written is
//     recorded with its old image (ReturnValues ALL_OLD, or the image read
//     and checked when a replay found the write applied) and its new one
//     (the old with the statement's changes), flushed and synced when the
//     statement ends. Undo (undo.go) puts old images back newest first,
//     each conditional on the item still holding the new image (an
//     UpdateItem of the changed attributes, a DeleteItem of an inserted
//     item, a PutItem with attribute_not_exists of a deleted one); an item
//     that does not is a conflict, reported, never overwritten.
package write
