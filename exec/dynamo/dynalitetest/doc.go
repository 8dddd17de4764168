// Package dynalitetest connects tests to the DynamoDB-compatible server
// (dynalite) that the test command starts.
//
// `make test` (scripts/test.sh) installs the pinned dynalite from
// testdata/dynalite, starts it in memory on a free loopback port and exports
// its URL as DDBSQL_TEST_DYNALITE before running `go test -race ./...`. One
// server is shared by every test package of the run, concurrently.
//
// Usage:
//
//	c := dynalitetest.Client(t)          // *dynamodb.Client for the server
//	p := dynalitetest.Prefix(t)          // unique table-name prefix for this test
//	err := fixtures.Load(ctx, c, p, fixtures.App())
//	name := fixtures.App().Named(p)      // the table to query
//
// Invariants:
//   - Endpoint (and so Client and Prefix) fails the test with t.Fatal when
//     DDBSQL_TEST_DYNALITE is not set, naming the command to run. It never
//     skips: a test that needs DynamoDB and quietly does not run is a test
//     that never fails.
//   - Every call to Prefix returns a prefix no other call returns, in this
//     process or any other test process sharing the server (test name,
//     process id, a random process tag and a counter), made only of
//     characters valid in DynamoDB table names. Tables named with it are
//     deleted when the test ends, unless DDBSQL_TEST_KEEP_TABLES=1.
//   - Client returns one shared client per endpoint and process: static
//     credentials, region us-east-1, standard retries without a client-side
//     retry quota, bounded dial and request timeouts. It is safe for
//     concurrent use; do not mutate its options.
//
// To debug against a server you can inspect, run `make dynalite` (port 8000)
// and then DDBSQL_TEST_DYNALITE=http://127.0.0.1:8000 DDBSQL_TEST_KEEP_TABLES=1
// go test ./...
package dynalitetest
