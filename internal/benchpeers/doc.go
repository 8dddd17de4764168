// Command benchpeers (`make bench-peers`) runs one aggregation over a
// DynamoDB full export with ddbsql and with DuckDB, side by side, and
// prints their wall time and peak memory:
//
//	SELECT status, COUNT(*), SUM(total) FROM orders GROUP BY status
//
// For each size (-items, default 200000 and 1000000) it writes an export
// of the orders table with internal/exportgen into -dir (default
// $TMPDIR/ddbsql-peers; an export already there with its totals.json is
// reused), builds cmd/ddbsql, installs DuckDB's Node API from
// testdata/peers (npm ci from the committed lockfile, when node_modules
// is missing or older than the lockfile), and runs as child processes:
//
//   - ddbsql --data orders=DIR --key PK,SK --allow-scan --format csv -e …
//     (a scan-only -e statement: the export is streamed from its files,
//     never loaded);
//   - node testdata/peers/query.mjs THREADS … with THREADS 1 and all CPUs:
//     read_json over the same .json.gz files, Item.status.S and
//     Item.total.N cast to DECIMAL(38,2), the same GROUP BY.
//
// Wall time is measured around each child; peak memory is its maximum
// resident set size (getrusage of the child, Linux). With -runs N each is
// run N times and the fastest run is kept. The answers of ddbsql and of
// both DuckDB runs must equal the totals the generator computed (same
// statuses, counts and sums); any difference, or a child that fails, makes
// the command exit 1 after printing what differs.
//
// DuckDB is given the two attributes' types (columns = {Item: …}), so it
// parses only what the statement reads; ddbsql decodes and checks every
// attribute of every item (JSON, keys, duplicate keys, what DynamoDB would
// accept) as a load does, and serves the Scan pages from that stream.
//
// # Measured
//
// On the 2-core development machine, shared and heavily loaded (load
// average 7–12, best of 3 runs), ddbsql took 1.49× the wall time of DuckDB
// on one thread at 200 k items and 1.44× at 1 M items, with less than
// half its peak RSS (87 and 187 MiB against 206 and 365). When it loaded
// the export into its in-process DynamoDB first, it took 2.6× at 1 M items
// with 1.5 GiB; with value trees before that, 4.8× with 7.2 GiB.
//
// Phase: a developer tool, never run by `go test ./...` (its tests only
// check the parsing and comparing of answers). It imports internal/exportgen
// only; ddbsql and DuckDB are separate processes.
package main
