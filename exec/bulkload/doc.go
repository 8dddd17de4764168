// Package bulkload is `ddbsql --load t=PATH`: it writes every item of a
// file into a DynamoDB table with BatchWriteItem (exec/batchwrite),
// resumably, and checks afterwards that every item is there.
//
//	rep, err := bulkload.Load(ctx, client, bulkload.Source{Table: "orders", Path: "orders.csv", Keys: keys},
//		bulkload.Options{Concurrency: 8, RateLimit: 500, Target: endpoint, Progress: p})
//
// Phase: exec. It imports exec/batchwrite (the writer), exec/dynamo/offline
// (format detection and the DynamoDB-JSON decoders, through ReadItems),
// exec/read (the rate limiter and the explanation of SDK errors), planner/value,
// planner/ddblimits, planner/plural and parser/diag.
//
// # Sources
//
// A path ending in .csv or .tsv (optionally .gz) is CSV; anything else is
// read as offline reads --data: a file of DynamoDB-JSON items (lines, an
// array, pretty-printed) or a DynamoDB export folder, with the same checks
// and errors at file:line (JSON, key attributes and types, duplicate keys,
// items DynamoDB would reject, an export's item counts).
//
// CSV: the first record is the header; each later record is one item, an
// empty cell no attribute. A header cell "name:T" or "name (T)" (as the
// DynamoDB console writes them) declares the column's type: S, N, B
// (base64), BOOL (true/false), or JSON, SS, NS, BS, L, M, NULL for a cell
// holding one DynamoDB-JSON value ({"SS":["a","b"]}). A key column takes
// the table's key type. An undeclared column is inferred cell by cell: a
// plain decimal number (-12, 3.50, 1e6; no leading zeros, so 007 stays a
// string) is N, anything else S. Numbers are checked against DynamoDB's
// 38 digits and range and written exactly, in canonical form, never
// through a float: a longer number is an error at its file:line asking
// for the column to be declared :S. Duplicate keys are an error naming
// both lines.
//
// # Invariants
//
//   - The table must exist, or --key must give the key schema with types,
//     and the load creates it (on demand, then waits until it is ACTIVE).
//     A --key given for an existing table must match its key schema.
//   - Items are put in file order, at most Options.Concurrency requests in
//     flight and paced to RateLimit WCU/s; a failure stops the load with
//     the writer's error (every key not written, how many were) or the
//     source's (file:line).
//   - Checkpoint: a JSON file (by default in
//     $XDG_STATE_HOME/ddbsql/load/, one per table, target and source)
//     saying that the first Confirmed items of the source are written, with
//     the source's fingerprint (names, sizes and modification times of its
//     files). It is written atomically every CheckpointEvery and when the
//     load stops, and removed when every item is written. Confirmed is the
//     writer's run of leading puts all confirmed, so after a kill the file
//     may lag the table but never lead it: resuming skips exactly the
//     items the file counts (the source is read in the same order) and
//     puts the rest, of which the ones already written are written again,
//     unchanged (a put replaces the whole item). A checkpoint for other
//     files, another table or target is refused rather than used.
//   - The check: after the writes, every key of the source is read back
//     with BatchGetItem (consistent reads, 100 keys a request, the key
//     attributes projected); a key not found fails the load naming it.
//     It costs 1 RCU per 4 KB of each item (verify.go says why this and
//     not a COUNT Scan).
package bulkload
