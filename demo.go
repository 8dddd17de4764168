// Package ddbsql is the module root of ddbsql, a SQL workbench for Amazon
// DynamoDB (the command is cmd/ddbsql). It holds only the embedded demo
// data: Go embeds files from the package's own directory tree, and the
// demo lives in testdata/demo at the module root.
package ddbsql

import "embed"

// DemoFS holds testdata/demo: the built-in demo tables that `ddbsql --demo`
// loads (see exec/dynamo/offline.LoadDemo), written by `go run ./cmd/gendemo`.
//
//go:embed testdata/demo
var DemoFS embed.FS

// DemoDir is the directory of the demo files inside DemoFS.
const DemoDir = "testdata/demo"
