package parser

import (
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestUnquotedHash(t *testing.T) {
	tests := []errCase{
		{name: "where", input: "SELECT * FROM t WHERE GSI1#PK = 'x'", code: diag.CodeUnquotedHash, line: 1, col: 23,
			msg: []string{"GSI1#PK", "comment"}, hint: "write \"GSI1#PK\" or `GSI1#PK` if it is a name"},
		{name: "value", input: "SELECT * FROM t WHERE SK = DOC#123", code: diag.CodeUnquotedHash, line: 1, col: 28,
			hint: "'DOC#123' in single quotes if it is a value"},
		{name: "several hashes", input: "SELECT * FROM t WHERE PK = USER#1#ORDER", code: diag.CodeUnquotedHash, line: 1, col: 28,
			msg: []string{"USER#1#ORDER"}},
		{name: "select list", input: "SELECT a, GSI1#SK FROM t", code: diag.CodeUnquotedHash, line: 1, col: 11},
		{name: "path part", input: "SELECT info.GSI1#PK FROM t", code: diag.CodeUnquotedHash, line: 1, col: 13, msg: []string{"GSI1#PK"}},
		{name: "table", input: "SELECT * FROM app#v2", code: diag.CodeUnquotedHash, line: 1, col: 15},
		{name: "describe", input: "DESCRIBE app#v2", code: diag.CodeUnquotedHash, line: 1, col: 10},
		{name: "second line of second statement", input: "SELECT 1;\nSELECT *\n  FROM t WHERE GSI1#PK = 1", code: diag.CodeUnquotedHash,
			line: 3, col: 16},
		{name: "trailing hash", input: "SELECT a# comment\nFROM t", code: diag.CodeUnquotedHash, line: 1, col: 8},
		{name: "after a backticked name", input: "SELECT * FROM t WHERE `GSI1`#PK = 'x'", code: diag.CodeUnquotedHash, line: 1, col: 23,
			hint: "`GSI1#PK`"},
		{name: "after a double-quoted name", input: "SELECT * FROM t WHERE \"GSI1\"#PK = 'x'", code: diag.CodeUnquotedHash, line: 1, col: 23,
			hint: "\"GSI1#PK\""},
		{name: "after a string", input: "SELECT * FROM t WHERE SK = 'DOC'#1", code: diag.CodeUnquotedHash, line: 1, col: 28,
			hint: "'DOC#1'"},
		{name: "after an index", input: "SELECT tags[0]#x FROM t", code: diag.CodeUnquotedHash, line: 1, col: 15},
		// the same trap with "--", which sqlparser (unlike MySQL) reads as a
		// comment even without a blank after it
		{name: "glued double dash", input: "SELECT * FROM t WHERE SK = ORDER--2024-01", code: diag.CodeSyntax, line: 1, col: 28,
			msg: []string{"ORDER--2024-01", "comment"}, hint: "`ORDER--2024-01`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt) })
	}
}

func TestHashCommentsStillWork(t *testing.T) {
	tests := []struct {
		input     string
		wantWhere bool
	}{
		{"SELECT a FROM t # a comment", false},
		{"# a comment\nSELECT a FROM t", false},
		{"SELECT a FROM t\n#comment at line start\nWHERE b = 1", true},
		{"SELECT a FROM t WHERE b = 'x' #c", true},
		{"SELECT a FROM t WHERE b = 1 -- c", true},
		{"SELECT a-- c\nFROM t WHERE b = 1", true},
		{"SELECT a--\nFROM t WHERE b = 1", true},
		{"SELECT a---- c\nFROM t WHERE b = 1", true},
		{"SELECT `GSI1#PK` FROM t WHERE `GSI1#PK` = 'USER#1' AND begins_with(SK, 'DOC#')", true},
	}
	for _, tt := range tests {
		sel := parseSelect1(t, tt.input)
		if (sel.AST.Where != nil) != tt.wantWhere {
			t.Errorf("%q: WHERE = %v", tt.input, sel.AST.Where)
		}
	}
	sel := parseSelect1(t, "SELECT `GSI1#PK` FROM t WHERE `GSI1#PK` = 'USER#1'")
	if !hasColumn(sel, "GSI1#PK") {
		t.Errorf("columns %v", columns(sel))
	}
}
