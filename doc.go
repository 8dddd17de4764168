// Package ddbsql is the module root of ddbsql, a SQL workbench for Amazon
// DynamoDB (the command is cmd/ddbsql). It holds no code: the root package
// counts as every package's parent, so nothing may import it, and anything
// here would be imported by someone.
//
// Invariant: this package stays empty (internal/archtest checks that no
// package imports it).
package ddbsql
