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
// Phase: a developer tool, never run by `go test ./...` (its tests only
// check the parsing and comparing of answers). It imports internal/exportgen
// only; ddbsql and DuckDB are separate processes.
package main
