// Package faultproxy is an HTTP proxy for tests that sits between a real
// SDK client and dynalite and fails chosen attempts the way DynamoDB and
// networks fail: throttling and provisioned-throughput errors (HTTP 400
// with DynamoDB's __type), HTTP 500s, connections reset before or in the
// middle of a response, and stalls.
//
//	p, srv := faultproxy.New(t, dynalitetest.Endpoint(t), prefix, seed, 0.3, faultproxy.ServerError, faultproxy.Reset)
//	// point a dynamo.Connect client at srv.URL; p.Counts() says what was injected
//
// Which attempt fails, and how, is a hash of the seed, the operation, the
// request body (with the tables' name prefix left out) and the SDK's
// attempt number: deterministic whatever the order in which concurrent
// requests arrive, and the same for every test run.
//
// Phase: exec, test-only: only _test.go files import it (internal/archtest
// checks). It imports nothing of the module.
//
// Invariants: requests the proxy does not fail are forwarded unchanged and
// answered with dynalite's answer; the upstream request is never tied to
// the client's, so a client that gives up does not abort a request
// dynalite is still answering (which makes the shared dynalite exit).
// By default only item operations (…Item), Query and Scan are faulted;
// DescribeTable and the other control-plane calls pass through.
package faultproxy
