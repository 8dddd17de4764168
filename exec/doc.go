// Package exec is the layer that runs statements; it holds no code of its
// own, only this map of its packages (each one's doc.go says more).
//
// Phase: exec. Packages under exec may import planner and parser (and each
// other, never an ancestor); nothing under exec imports repl or cmd.
//
//   - exec/session runs one statement end to end for the command line and
//     the REPL: parse, plan, confirm, execute, format, report statistics.
//     It sits above every other package of the layer.
//   - exec/engine turns a planner.Plan into a tree of operators that pull
//     Arrow record batches from DynamoDB reads up through filters, joins,
//     aggregation, sorting and limits.
//   - exec/read reads DynamoDB for the engine: Query and Scan paging,
//     parallel segments and IN lists, merges by sort key, GetItem and
//     BatchGetItem (UnprocessedKeys retried), the fast wire path, rate
//     limiting, statistics and exec's error type.
//   - exec/write runs INSERT, REPLACE, UPDATE and DELETE: the read through
//     the engine, new images computed on the client, one conditional
//     request per item, re-reads on conflicts.
//   - exec/batchwrite puts items into a table with BatchWriteItem
//     (UnprocessedItems retried, every key not written named).
//   - exec/bulkload is --load: a file's items written with the batch
//     writer, resumable from a checkpoint, then read back by key.
//   - exec/eval evaluates the planner's resolved expressions over a row.
//   - exec/columnar maps DynamoDB values onto Arrow columns and back.
//   - exec/format writes results (table, csv, tsv, json, ndjson, markdown;
//     parquet and arrow files).
//   - exec/dynamo is the boundary with DynamoDB: the client, the catalog,
//     connection settings, the in-process backend (memdb), the file loaders
//     (offline) and the fast wire decoder (wire).
//   - exec/memtest, exec/replay, exec/difftest and exec/dynamo/fixtures,
//     dynalitetest and faultproxy exist for tests and benchmarks only.
package exec
