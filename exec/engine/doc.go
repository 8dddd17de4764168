// Package engine runs plans: it turns a planner.Plan into a tree of operators
// that pull Arrow record batches from DynamoDB reads up through client-side
// filters, aggregation, projection, sorting and limits.
//
// Phase: exec. It imports exec/read, the DynamoDB reading layer, whose
// operators it builds for planner.Access leaves and whose reads it calls
// from Fetch and lookup joins; exec/eval, exec/columnar and the planner.
// Invariants:
//   - Operators here never talk to DynamoDB themselves: every request goes
//     through exec/read, which paginates, records statistics and paces.
//     Build picks one read operator per Access from its shape (count,
//     GetItem, BatchGetItem, parallel segments, IN list merged by sort key,
//     one request read ahead, pages in order: readOperator). Read operators
//     name columns by attribute; a join marks each field's FROM item. The
//     error helpers,
//     statistics and rate limiter are exec/read's, named here too
//     (fromread.go) so callers of Build need no second package.
//   - A union (an OR of key conditions) reads its branches one after
//     another, building each only when the one before it has ended, and
//     passes each item once, by primary key.
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
//   - UNNEST (unnest.go) repeats each input row once per element of its
//     list or set (Arrow Take on the input columns) and adds the element,
//     and its 1-based position WITH ORDINALITY, as columns of the UNNEST's
//     FROM item, built with columnar while the input batch is retained;
//     the input's columns get their FROM item's mark. A row whose value is
//     no list or set, or is empty, is dropped, or kept once with missing
//     columns for LEFT. Output batches hold at most Env.BatchRows rows (a
//     long list spreads over several); the input batch is kept until its
//     last row is expanded and released on Close.
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
//   - ORDER BY without LIMIT sorts normalized keys: each row's sort keys
//     are one []byte (value.AppendOrderKey, inverted for DESC, then the
//     row's arrival number, so equal keys keep input order) kept in its
//     input's key buffer, the pointer-free entries (input, row, key span)
//     are ordered by a radix sort over 8-byte chunks of the keys
//     (sortradix.go) and permuted in place, never copied, and the rows are
//     gathered column by column from the
//     retained batches (each one gathered into its own key order as it
//     arrives, so the final gather reads every input forward), int64 and utf8/binary columns straight into their
//     buffers with one copy per run of consecutive rows (sortfull.go,
//     gather.go, gatherfast.go; a batch of 16384 cells or more copies its
//     columns on up to GOMAXPROCS goroutines). While the caller uses one
//     sorted batch, the next is gathered on a goroutine of the sort's
//     (sortahead.go); Next and Close wait for it. It
//     reserves what it retains from Env.Memory (batches at their buffers'
//     capacity, entries with their share of the sort index); when the budget refuses,
//     the rows held are written to Env.Spill as a sorted run (batches with
//     a last binary column of keys) and released, and at the end the runs
//     and the rows still held are merged by key (sortspill.go). With no
//     spill directory, or a batch alone past the limit, it fails with
//     spill.Exceeded. It gives back each input batch's reservation once
//     the batch's last row is emitted, so the operators above can use it.
//     Close releases every batch, run and reservation.
//     ORDER BY … LIMIT keeps its heap of value keys.
//   - Window functions (window.go, windowfuncs.go) read their whole input,
//     retaining its batches, and sort one normalized key per row
//     (partition values, then per ORDER BY key a NULLS-placement byte and
//     the value's key, inverted for DESC, then the arrival number); a
//     partition is a run of equal partition prefixes, peers a run of equal
//     ORDER BY parts. Each function is computed per partition: ranking,
//     NTILE and LAG/LEAD by position, FIRST_VALUE/LAST_VALUE and the
//     aggregates over each row's frame with the accumulators of GROUP BY
//     (folded once forward when every frame starts at the partition's
//     start, once backward when every frame ends at its end, else anew
//     where a row's frame differs from the one before). A RANGE frame
//     with an offset (window_range.go) keeps each row's one ORDER BY value
//     and finds its bounds by binary search among the partition's numeric
//     keys with exact decimal arithmetic (key ± offset, flipped for DESC);
//     a key that is NULL or not a number frames its peers only, as in
//     SQLite. Rows leave in
//     partition order, the input columns followed by one per function.
//     It reserves what it retains from Env.Memory; when the budget
//     refuses (and Env.Spill is set) it goes external (window_spill.go):
//     what it holds and the rest of its input go through the full sort
//     (keys: partition, then per ORDER BY key an IS NULL key where NULLs
//     are not where the sort puts them, then the key), which spills
//     sorted runs, and the sorted rows are read one partition at a time,
//     each computed as in memory, emitted and released. A partition
//     counts its entries, values and its rows' share of the batches it
//     holds, beside what the sort still reserves; one partition past the
//     limit, or no Env.Spill, fails with spill.Exceeded naming the window
//     operator.
//   - Subqueries (subqueries.go) reads each subquery to its end at its
//     first Next, before it asks its input for a row, copying the values
//     into eval.SubqueryRows, which the expressions look up; what the rows
//     retain is reserved from Env.Memory (they cannot spill: past the limit
//     the statement fails with spill.Exceeded naming the subquery) and
//     released at Close (subquerymem.go). A keyed
//     fan-out (keyedfanout.go) pulls its subquery's batches round by round,
//     looks each distinct value up once through exec/read (the reads of a
//     lookup join), and returns the items found as a table's batch. A
//     keyed semi-join (semijoin.go) looks up each input batch's fresh probe
//     values the same way, adds the subquery's rows for them (folding a
//     correlated aggregate per correlation key with the accumulators of
//     GROUP BY), and only then passes the batch on unchanged.
//   - A statement either returns every matching row or fails with an error;
//     it never returns a shorter result silently.
//   - Every goroutine exec starts runs its work under Safely (exec/read):
//     a panic there is that worker's error (diag.CodeInternal, "internal error:
//     … (please report this statement)"), handed back like a DynamoDB
//     error, so the other workers are cancelled and their pages released;
//     it never ends the process.
//   - Aggregation folds exactly the aggregates of the function catalogue
//     (planner/funcs), one accumulator per catalogue name
//     (accumulators.go); scalar functions are exec/eval's.
//   - GROUP BY, DISTINCT, the sets of DISTINCT aggregates and the hash
//     join's build side reserve what they retain from Env.Memory (estimates
//     rounded up: key bytes, table entries, accumulators and the
//     MIN/MAX values they copy, retained build batches) and stay inside it by hash partitioning (spillparts.go):
//     once the budget refuses, what would need more memory goes to one of
//     16 spill runs in Env.Spill by a hash of its key, and each run is
//     processed afterwards by the same operator one level deeper, with a
//     fresh hash seed. GROUP BY stops taking new groups and spills the
//     input rows of any other group (aggregate_spill.go); DISTINCT spills
//     rows whose key its frozen set lacks; a DISTINCT aggregate spills
//     (group, aggregate, value) entries and feeds them to its accumulator
//     after the input ends (distinct_spill.go); the hash join turns into a
//     grace hash join over pairs of build and probe runs
//     (hashjoin_spill.go). Every GROUP BY or DISTINCT level holds at least
//     one group or key, and a join level's runs split its build rows, so
//     every level progresses; results are those of one
//     pass in memory, but spilled rows come after the others, not in input
//     order. With no Env.Spill, past 8 levels, or for a build side whose
//     rows all share one key, the operator fails with spill.Exceeded
//     naming itself (GROUP BY, DISTINCT, the aggregate, JOIN). Runs are
//     closed as soon as they are read, and on Close; what an operator
//     reserved it releases when it lets go of it.
//   - With Env.Analysis (EXPLAIN ANALYZE) every node is built with shares
//     of Env.Memory and Env.Spill of its own (spill.Budget.Share,
//     spill.Dir.Share), so its line says what it spilled: files, bytes and
//     the most it reserved at once (analyze.go). The statement's budget
//     and directory still bound and count everything.
//   - Statements of several queries (setop.go, cte.go): UNION ALL passes
//     its members one after the other, columns renamed by position to the
//     first member's names; UNION is that through DISTINCT (and spills as
//     it does); INTERSECT and EXCEPT [ALL] read the second member into a
//     table of row counts reserved from Env.Memory, failing with
//     spill.Exceeded past it, and stream the first through it (the plain
//     forms pass each row once: INTERSECT zeroes a row's count as it
//     passes it, EXCEPT adds the rows it passes). Rows compare by the GROUP BY key of all
//     their columns. A derived table renames its query's columns to the
//     FROM item's attributes. A With registers one store per materialized
//     WITH query in the Env; the first CTE scan that asks for rows runs the
//     query to its end into the store (batches within Env.Memory, the rest
//     in one spill run; with no spill directory, spill.Exceeded), and every
//     scan replays it, sharing the kept batches (each retained for its
//     caller) and reading the run anew. A query no scan asks for is never
//     built. The With releases the stores when it closes.
//   - Errors are *diag.Error (parser/diag) of phase execute with a stable Code (connect
//     for ConnectError); an evaluation failure is an execute error "eval"
//     whose cause is the evaluate-phase error.
package engine
