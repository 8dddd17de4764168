package ddbsql

import "embed"

// DemoFS holds testdata/demo: the built-in demo tables that `ddbsql --demo`
// loads (see exec/dynamo/offline.LoadDemo), written by `go run ./cmd/gendemo`.
//
//go:embed testdata/demo
var DemoFS embed.FS

// DemoDir is the directory of the demo files inside DemoFS.
const DemoDir = "testdata/demo"
