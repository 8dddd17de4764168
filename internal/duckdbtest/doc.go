// Package duckdbtest runs SQL in DuckDB for tests: the pinned
// @duckdb/node-api of testdata/peers, driven by testdata/peers/batch.mjs in
// a Node.js child process. Starting Node and DuckDB takes seconds, so a
// test hands over a whole batch of statements (QueryAll) and gets every
// answer from one process; Query is the batch of one.
//
// Rows come back as maps from column name to DuckDB's JSON form of the
// value, decoded with json.Number so no digit is lost:
//
//	DECIMAL, BIGINT, HUGEINT, UBIGINT   string ("12.50", exact)
//	INTEGER, SMALLINT, TINYINT, DOUBLE  json.Number
//	VARCHAR, DATE, TIMESTAMP            string
//	BOOLEAN                             bool
//	LIST                                []any
//	STRUCT, MAP                         map[string]any
//	NULL                                nil
//
// Invariants:
//
//   - Never skips: a missing node, or testdata/peers not installed (npm ci,
//     which scripts/test.sh runs), fails the test with what to install.
//   - A statement DuckDB rejects fails the test with the statement and
//     DuckDB's message; the other statements of the batch still ran.
//   - Every wait is bounded (Timeout per batch).
//
// Phase: none: a test-only package (internal/archtest lists it), imported
// only by _test.go files. It imports nothing of the module; DuckDB runs in
// its own process and reads only the files a statement names.
package duckdbtest
