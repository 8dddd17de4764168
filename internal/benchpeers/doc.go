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
//     (load the export into the in-process DynamoDB, then the statement);
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
// parses only what the statement reads; ddbsql loads every attribute of
// every item into its in-process DynamoDB first, then Scans. The ratios
// therefore compare "load an export and query it" with "query the files".
//
// # Measured
//
// On the 2-core development machine (8 data files, best of 3 runs, the
// machine shared), ddbsql took 1.9–2.7× the wall time of DuckDB on one
// thread at 200 k items (17 MiB gzipped) and 4.8× at 1 M items (84 MiB),
// with 7× and 20× its peak RSS (1.5 GiB and 7.2 GiB against 0.2 and
// 0.36 GiB). Almost all of ddbsql's time is the load (a Query of one
// partition after the same load takes as long as the GROUP BY), and its
// memory the items held as value trees, about 3.7 KB of heap per item of
// 255 bytes.
//
// Phase: a developer tool, never run by `go test ./...` (its tests only
// check the parsing and comparing of answers). It imports internal/exportgen
// only; ddbsql and DuckDB are separate processes.
package main
