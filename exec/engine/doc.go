// Package engine runs plans: it turns a planner.Plan into a tree of operators
// that pull Arrow record batches from DynamoDB reads up through client-side
// filters, aggregation, projection, sorting and limits.
//
// Phase: exec. Invariants:
//   - Only access operators (and Fetch and lookup joins) talk to DynamoDB;
//     they paginate to the end (an empty page with a LastEvaluatedKey is not
//     the end), check ctx between pages, and record requests, pages, items
//     read/returned and consumed capacity in Stats. They request a page
//     before it is asked for only where the plan marks the read ReadAhead
//     (every page will be read: no LIMIT can stop it) and for the first
//     pages of parallel segments and IN lists; a LIMIT stops reading.
//   - A union (an OR of key conditions) reads its branches one after
//     another, building each only when the one before it has ended, and
//     passes each item once, by primary key.
//   - Env.Raw (a rawpage.Reader, e.g. exec/dynamo/wire), when set, decodes
//     Query/Scan pages straight into batches; the batches equal what the
//     item path builds (both use rawpage.ItemsBatch's conversion), and its
//     errors (rawpage.ItemError, rawpage.PanicError, the SDK's) are
//     explained by DynamoError as on the item path.
//   - Columns are read by ID, never looked up by name per cell
//     (layout.go). A batch read from one table names its columns by
//     attribute; a joined batch does too, and marks each field with the
//     FROM item it belongs to in the field's metadata (set by the join
//     that builds the batch, kept by every operator that rebuilds rows:
//     sort, and the joins above). An operator collects the column IDs its
//     expressions use when it is built, binds them to a batch's columns
//     once per schema (batchRow.reset), and then reads each cell by index;
//     eval.Row.Attr takes the ID. A projection passes a plain attribute
//     through by the index its ID is bound to (sharing the array) and
//     evaluates only the other expressions; its output columns are
//     positions and carry no FROM item. A client filter decides an
//     attribute-literal comparison on the bound Arrow array where the
//     batch stores the attribute in the literal's plain type, with
//     exactly eval's results and errors (filtercells.go). SELECT *
//     passes a single table's batches through and clears the marks of
//     joined ones (alias.* keeps the columns of its FROM items), so no
//     mark leaves the engine. A column reference without an ID is an
//     internal error at Build.
//   - A batch returned by Next belongs to the caller, who must Release it.
//     Close is idempotent and safe before the first Next.
//   - A value read from a batch (columnar.Column.Value, batchRow, and eval
//     results over them) may point into the batch's buffers: it is valid
//     only while the batch is retained. Whatever outlives the batch is
//     either copied (value.Value.Clone, columnar.Column.OwnedValue) or the
//     batch is retained until those values are dropped, then released:
//     a full sort retains its inputs until each one's last row is emitted,
//     and a top-N copies only the rows that enter its heap; a hash join
//     retains the build batches its table points into until the probe side
//     ends or it closes; aggregation copies group keys when a group is made
//     and a MIN/MAX value when it becomes the best so far. Hash and DISTINCT
//     keys are encoded copies; lookup joins, fetches and IN-list merges keep
//     only items decoded from responses, and are done with a batch's values
//     before they release it. Tests allocate with exec/memtest, which
//     overwrites freed buffers, so a use after release fails.
//   - A statement either returns every matching row or fails with an error;
//     it never returns a shorter result silently.
//   - Every goroutine exec starts runs its work under Safely (safego.go):
//     a panic there is that worker's error (diag.CodeInternal, "internal error:
//     … (please report this statement)"), handed back like a DynamoDB
//     error, so the other workers are cancelled and their pages released;
//     it never ends the process. Fan-outs run on a bounded pool (forEach,
//     startSegments): at most Env.Concurrency requests at once, except a
//     parallel Scan's segments, which all read at once.
//   - Aggregation folds exactly the aggregates of the function catalogue
//     (planner/funcs), one accumulator per catalogue name
//     (accumulators.go); scalar functions are exec/eval's.
//   - Errors are *diag.Error of phase execute with a stable Code (connect
//     for ConnectError); an evaluation failure is an execute error "eval"
//     whose cause is the evaluate-phase error.
package engine
