// Package archtest checks the shape of the module's import graph: its tests
// run `go list -json ./...` over the whole module and fail on any import
// that breaks the layering the design fixes:
//
//   - layers: parser imports nothing of the module but its own
//     sub-packages; planner/... imports parser and planner/...; exec/...
//     imports planner, parser and exec/...; repl imports exec, planner and
//     parser; cmd/... imports anything;
//   - no package imports one of its ancestors (a folder's sub-packages are
//     its parts, the parent assembles them), the module root included:
//     the root is every package's parent, so nothing may import it;
//   - test-only packages (the dynalite launcher, fixtures, the replay
//     server, memtest, difftest) are imported only by _test.go files;
//   - the planner is pure: no non-test file of planner/... imports a
//     package that asks the host (os, runtime, net, randomness, the AWS
//     configuration loader) or calls time.Now, time.Since or a timer, so a
//     plan is a function of its statement, catalog and planner.Options
//     (purity_test.go).
//
// The first two rules apply to a package's own files, its in-package
// _test.go files included; external test packages (package x_test) are
// exempt, being built only by `go test` and never imported, which is how a
// test may drive a package through the layers above it.
//
// Violations being fixed elsewhere are in an allowlist (imports_test.go),
// each entry saying what remains to do; the test also fails on an entry
// that no longer occurs, so the list only shrinks.
//
// Phase: none: archtest is not a layer of the product. It has no code
// outside its tests and imports nothing of the module, so it cannot take
// part in what it checks. It lives in internal/ rather than in cmd/ddbsql
// (whose tests are about the command) or in the module root (which holds
// no code, see the root doc.go).
package archtest
