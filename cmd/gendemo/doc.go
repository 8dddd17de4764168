// Command gendemo writes the built-in demo data of `ddbsql --demo` into
// exec/dynamo/offline/demodata (embedded by package offline): run `go run
// ./cmd/gendemo` at the module root after changing a generator, and commit
// the result; `go run ./cmd/gendemo -check` only reports whether the
// directory is up to date (the test does the same).
//
// Output: demo-model.json.gz, a NoSQL Workbench data model (DynamoDB-JSON
// items one per line, gzipped: about 1 MB of JSON, 85 KB on disk) that
// exec/dynamo/offline.LoadDemo reads through its Workbench loader, and
// README.md, a generated summary. The tables, their keys and the queries to
// try are documented in exec/dynamo/offline (doc.go).
//
// Invariants:
//   - Deterministic: no clock, no math/rand (rng.go is SplitMix64 with fixed
//     seeds), no map iteration order; two runs write identical bytes, and
//     the model's JSON is the same on every Go version (only the gzip bytes
//     may differ, so -check compares content).
//   - Valid: validate checks key types, unique keys and index key types
//     before anything is written, as DynamoDB would.
//   - One generator file per table family: app.go (workspaces/documents),
//     leaderboard.go, shop.go + shoptables.go (users, customers, orders,
//     products from one set of people, products and orders), metrics.go.
package main
