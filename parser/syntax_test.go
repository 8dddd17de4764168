package parser

import (
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// Positions of sqlparser's errors must land on the offending token of the
// original input, whatever was rewritten before it.
func TestSyntaxErrorPositions(t *testing.T) {
	tests := []errCase{
		{name: "misspelt FROM", input: "SELECT * FORM app", code: diag.CodeSyntax, line: 1, col: 10,
			msg: []string{"unexpected 'FORM'"}, hint: "did you mean FROM?"},
		{name: "second statement", input: "SELECT 1;\n\nSELECT a,, b FROM t", code: diag.CodeSyntax, line: 3, col: 10,
			msg: []string{"unexpected ','"}},
		{name: "after a leading comment", input: "-- list things\n/* more */ SELECT a FROM t WHERE x = = 1", code: diag.CodeSyntax, line: 2, col: 38,
			msg: []string{"unexpected '='"}},
		{name: "after rewritten paths", input: "SELECT a.b.c.d, tags[0], status FROM t WHERE x = = 1", code: diag.CodeSyntax, line: 1, col: 50,
			msg: []string{"unexpected '='"}},
		{name: "at a rewritten path", input: "SELECT * FROM t WHERE x = 1 a.b.c.d", code: diag.CodeSyntax, line: 1, col: 29,
			msg: []string{"unexpected 'a'"}},
		{name: "dot after an implicit alias", input: "SELECT x a.b[1] FROM t", code: diag.CodeSyntax, line: 1, col: 11},
		{name: "after a blanked comment", input: "SELECT /* ; */ a FROM t WHERE = 1", code: diag.CodeSyntax, line: 1, col: 31,
			msg: []string{"unexpected '='"}},
		{name: "inside EXPLAIN", input: "EXPLAIN ANALYZE\n  SELECT * FORM t", code: diag.CodeSyntax, line: 2, col: 12,
			msg: []string{"unexpected 'FORM'"}},
		{name: "end of statement", input: "SELECT * FROM t WHERE", code: diag.CodeSyntax, line: 1, col: 22,
			msg: []string{"unexpected end of statement"}},
		{name: "end of statement before semicolon", input: "SELECT * FROM t WHERE ;\nSELECT 2", code: diag.CodeSyntax, line: 1, col: 22,
			msg: []string{"unexpected end of statement"}},
		{name: "end with trailing comment", input: "SELECT * FROM t WHERE x = -- nothing\n", code: diag.CodeSyntax, line: 1, col: 26,
			msg: []string{"unexpected end of statement"}},
		{name: "error at last token", input: "SELECT * FROM t a b", code: diag.CodeSyntax, line: 1, col: 19,
			msg: []string{"unexpected 'b'"}},
		{name: "reserved word as name", input: "SELECT * FROM t WHERE order = 1", code: diag.CodeSyntax, line: 1, col: 23,
			msg: []string{"unexpected 'order'"}, hint: "`order`"},
		{name: "hyphenated table", input: "SELECT * FROM my-table", code: diag.CodeSyntax, line: 1, col: 17,
			msg: []string{"unexpected '-'"}, hint: "`my-table`"},
		{name: "unterminated string", input: "SELECT * FROM t\nWHERE a = 'abc", code: diag.CodeSyntax, line: 2, col: 11,
			msg: []string{"unterminated string"}},
		{name: "unterminated name", input: "SELECT `abc FROM t", code: diag.CodeSyntax, line: 1, col: 8,
			msg: []string{"unterminated quoted name"}},
		{name: "unterminated comment", input: "SELECT a /* FROM t", code: diag.CodeSyntax, line: 1, col: 10,
			msg: []string{"unterminated comment"}},
		{name: "empty name", input: "SELECT `` FROM t", code: diag.CodeSyntax, line: 1, col: 8, msg: []string{"empty name"}},
		{name: "non-ASCII name", input: "SELECT naïve FROM t", code: diag.CodeSyntax, line: 1, col: 10,
			msg: []string{"'ï'"}, hint: "`naïve`"},
		{name: "control byte", input: "SELECT \x01 FROM t", code: diag.CodeSyntax, line: 1, col: 8, msg: []string{"U+0001"}},
		{name: "invalid UTF-8", input: "SELECT \xff FROM t", code: diag.CodeSyntax, line: 1, col: 8, msg: []string{"0xFF"}},
		{name: "digit-led name", input: "SELECT 1abc FROM t", code: diag.CodeSyntax, line: 1, col: 8, hint: "`1abc`"},
		{name: "bad list index", input: "SELECT tags[x] FROM t", code: diag.CodeSyntax, line: 1, col: 12,
			msg: []string{"list index"}},
		{name: "negative list index", input: "SELECT tags[-1] FROM t", code: diag.CodeSyntax, line: 1, col: 12},
		{name: "huge list index", input: "SELECT tags[99999999999999999999999] FROM t", code: diag.CodeSyntax, line: 1, col: 13,
			msg: []string{"too large"}},
		{name: "stray bracket", input: "SELECT [1] FROM t", code: diag.CodeSyntax, line: 1, col: 8, msg: []string{"'['"}},
		{name: "unknown statement", input: "SELEC * FROM t", code: diag.CodeSyntax, line: 1, col: 1,
			msg: []string{"unexpected 'SELEC'"}, hint: "did you mean SELECT?"},
		{name: "too deep", input: "SELECT * FROM t WHERE " + repeat("(", 300) + "1", code: diag.CodeSyntax, line: 1,
			msg: []string{"too many nested parentheses"}},
		{name: "mysql special comment is a comment", input: "SELECT /*! a, */ FROM t", code: diag.CodeSyntax, line: 1, col: 18},
		{name: "system variable", input: "SELECT @@x'y FORM t", code: diag.CodeSyntax, line: 1, col: 19},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt) })
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func TestNeverPanics(t *testing.T) {
	// sqlparser.Parse("/*!*/") panics; these must come back as values.
	for _, in := range []string{"/*!*/", "SELECT /*!*/ 1", "SELECT 1 /*!", "/*!", "SELECT * FROM t WHERE a = '\\"} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Parse(%q) panicked: %v", in, r)
				}
			}()
			_, _ = Parse(in)
		}()
	}
}

func TestEmptyInput(t *testing.T) {
	for _, in := range []string{"", " ", "\n\n", ";", "-- x", "# x\n", "/* x */", "/*!*/", "; -- a\n ; /* b */ ;"} {
		stmts, err := Parse(in)
		if err != nil || len(stmts) != 0 {
			t.Errorf("Parse(%q) = %v, %v; want nothing", in, stmts, err)
		}
	}
}

func TestScriptStopsAtFirstError(t *testing.T) {
	stmts, err := Parse("SELECT 1;\nSELECT 2;\nSELEC 3;\nSELECT * FORM t")
	if len(stmts) != 2 {
		t.Fatalf("got %d statements before the error, want 2", len(stmts))
	}
	if e := err.(*diag.Error); e.Pos.Line != 3 || e.Pos.Column != 1 {
		t.Fatalf("error at %d:%d, want 3:1", e.Pos.Line, e.Pos.Column)
	}
}
