package parser

import (
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestUnsupported(t *testing.T) {
	tests := []errCase{
		{name: "CTE in a subquery", input: "SELECT * FROM t WHERE a IN (WITH x AS (SELECT 1) SELECT * FROM x)", code: diag.CodeUnsupported,
			line: 1, col: 29, msg: []string{"WITH"}},
		{name: "named window", input: "SELECT sum(a) OVER w FROM t", code: diag.CodeUnsupported, line: 1, col: 15, msg: []string{"named windows", "OVER w"}},
		{name: "window clause", input: "SELECT sum(a) OVER (w) FROM t\nWINDOW w AS (ORDER BY b)", code: diag.CodeUnsupported, line: 2, col: 1,
			msg: []string{"WINDOW clause"}},
		{name: "full outer join", input: "SELECT * FROM t FULL OUTER JOIN u ON t.a = u.a", code: diag.CodeUnsupported, line: 1, col: 17,
			msg: []string{"FULL OUTER JOIN is not supported"}},
		{name: "full join", input: "SELECT * FROM t\nfull join u ON t.a = u.a", code: diag.CodeUnsupported, line: 2, col: 1,
			msg: []string{"FULL OUTER JOIN"}},
		{name: "dollar parameter", input: "SELECT * FROM t WHERE pk = $1", code: diag.CodeUnsupported, line: 1, col: 28,
			msg: []string{"$1", "not supported"}},
		{name: "question parameter", input: "SELECT * FROM t WHERE pk = ?", code: diag.CodeUnsupported, line: 1, col: 28, msg: []string{"?"}},
		{name: "named parameter", input: "SELECT * FROM t WHERE pk = :pk", code: diag.CodeUnsupported, line: 1, col: 28, msg: []string{":pk"}},
		{name: "insert without attributes", input: "INSERT INTO t VALUES (1)", code: diag.CodeSyntax, line: 1, col: 15,
			msg: []string{"INSERT … VALUES needs the list of attributes"}},
		{name: "update with limit", input: "update t set a = 1 limit 2", code: diag.CodeUnsupported, line: 1, col: 1, msg: []string{"UPDATE … ORDER BY / LIMIT"}},
		{name: "update of two tables", input: "UPDATE t, u SET a = 1", code: diag.CodeUnsupported, msg: []string{"UPDATE of several tables"}},
		{name: "update of an index", input: "UPDATE t.i SET a = 1", code: diag.CodeUnsupported, msg: []string{"an index cannot be changed"}},
		{name: "create", input: "CREATE TABLE t (a int)", code: diag.CodeUnsupported, msg: []string{"CREATE statements are not supported"}},
		{name: "drop", input: "DROP TABLE t", code: diag.CodeUnsupported, msg: []string{"DROP statements are not supported"}},
		{name: "alter", input: "ALTER TABLE t ADD b int", code: diag.CodeUnsupported, msg: []string{"ALTER statements are not supported"}},
		{name: "replace without attributes", input: "REPLACE INTO t VALUES (1)", code: diag.CodeSyntax, msg: []string{"REPLACE … VALUES needs the list"}},
		{name: "truncate", input: "TRUNCATE t", code: diag.CodeUnsupported, msg: []string{"TRUNCATE statements are not supported"}},
		{name: "on duplicate key", input: "INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE a = 2", code: diag.CodeUnsupported, msg: []string{"ON DUPLICATE KEY UPDATE"}},
		{name: "set", input: "SET x = 1", code: diag.CodeUnsupported, msg: []string{"SET statements are not supported"}},
		{name: "use", input: "USE db", code: diag.CodeUnsupported, msg: []string{"USE"}},
		{name: "begin", input: "BEGIN", code: diag.CodeUnsupported, msg: []string{"BEGIN"}},
		{name: "second statement", input: "SELECT 1;\n  DROP TABLE t", code: diag.CodeUnsupported, line: 2, col: 3},
		{name: "kind wins over later problems", input: "CREATE TABLE t ($1, 'x", code: diag.CodeUnsupported, line: 1, col: 1},
		{name: "parameter in a write", input: "INSERT INTO t (a) VALUES ($1)", code: diag.CodeUnsupported, line: 1, col: 27},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt) })
	}
}

// Words that name unsupported features are fine as names elsewhere.
func TestFeatureWordsAsNames(t *testing.T) {
	for _, in := range []string{
		"SELECT over, full, intersect, `union`, `with` FROM t",
		"SELECT a FROM t WHERE over = 1 AND full = 2",
		"SELECT t.union, t.with FROM t",
		"SELECT '$1', '?', ':x', 'UNION', 'WITH x' FROM t",
		"SELECT `$1`, `:x` FROM t",
	} {
		if _, err := ParseOne(in); err != nil {
			t.Errorf("%s\n%v", in, err)
		}
	}
}
