package parser

import (
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestErrorRendering(t *testing.T) {
	e := parseError(t, "SELECT 1;\nSELECT * FORM app")
	want := "syntax error at line 2, column 10: unexpected 'FORM'\n" +
		"  SELECT * FORM app\n" +
		"           ^\n" +
		"hint: did you mean FROM?"
	if got := e.Error(); got != want {
		t.Fatalf("Error() =\n%s\nwant\n%s", got, want)
	}
	if e.Pos.Offset != 19 || e.Pos.LineText != "SELECT * FORM app" {
		t.Errorf("Offset %d LineText %q", e.Pos.Offset, e.Pos.LineText)
	}
}

func TestErrorRenderingNoHint(t *testing.T) {
	e := locate(errAt(diag.CodeUnsupported, 0, "ddbsql is read-only: INSERT is not supported", ""), "INSERT INTO t VALUES (1)")
	want := "error at line 1, column 1: ddbsql is read-only: INSERT is not supported\n" +
		"  INSERT INTO t VALUES (1)\n" +
		"  ^"
	if got := e.Error(); got != want {
		t.Fatalf("Error() =\n%s\nwant\n%s", got, want)
	}
}

func TestErrorCaretKeepsTabs(t *testing.T) {
	e := parseError(t, "SELECT *\n\tFORM t")
	if e.Pos.Line != 2 || e.Pos.Column != 2 {
		t.Fatalf("at %d:%d, want 2:2", e.Pos.Line, e.Pos.Column)
	}
	if !strings.Contains(e.Error(), "\n  \tFORM t\n  \t^") {
		t.Errorf("caret not under the token:\n%s", e.Error())
	}
}

func TestErrorColumnCountsCharacters(t *testing.T) {
	// 'é' and 'ü' are two bytes each: the column must count them once.
	e := parseError(t, "SELECT 'é', 'ü', FROM t")
	if e.Pos.Column != 18 || e.Pos.Offset != 19 {
		t.Fatalf("column %d offset %d, want column 18 offset 19", e.Pos.Column, e.Pos.Offset)
	}
	lines := strings.Split(e.Error(), "\n")
	if caret := lines[2]; caret != strings.Repeat(" ", 2+17)+"^" {
		t.Errorf("caret line %q", caret)
	}
}

func TestErrorLongLineIsWindowed(t *testing.T) {
	input := "SELECT " + strings.Repeat("a, ", 200) + "b FROM t WHERE x = = 1"
	e := parseError(t, input)
	if e.Pos.LineText != input {
		t.Errorf("LineText must be the whole line")
	}
	lines := strings.Split(e.Error(), "\n")
	if n := len([]rune(lines[1])); n > 100+10 { // diag shows at most 100 characters of a line
		t.Errorf("shown line has %d characters", n)
	}
	shown, caret := []rune(lines[1]), []rune(lines[2])
	at := len(caret) - 1
	if at >= len(shown) || string(shown[at:]) != "= 1" {
		t.Errorf("caret points at %q:\n%s\n%s", string(shown[at:]), lines[1], lines[2])
	}
}

func TestErrorCRLF(t *testing.T) {
	e := parseError(t, "SELECT 1;\r\nSELECT * FORM t\r\n")
	if e.Pos.Line != 2 || e.Pos.Column != 10 || e.Pos.LineText != "SELECT * FORM t" {
		t.Fatalf("at %d:%d %q", e.Pos.Line, e.Pos.Column, e.Pos.LineText)
	}
}

func TestLocateClampsOffset(t *testing.T) {
	e := locate(errAt(diag.CodeSyntax, 99, "x", ""), "ab\ncd")
	if e.Pos.Offset != 5 || e.Pos.Line != 2 || e.Pos.Column != 3 || e.Pos.LineText != "cd" {
		t.Fatalf("%+v", e)
	}
	e = locate(errAt(diag.CodeSyntax, -3, "x", ""), "")
	if e.Pos.Offset != 0 || e.Pos.Line != 1 || e.Pos.Column != 1 || e.Pos.LineText != "" {
		t.Fatalf("%+v", e)
	}
	if strings.Contains(e.Error(), "^") {
		t.Errorf("no caret for an empty line: %q", e.Error())
	}
}

func TestParseOne(t *testing.T) {
	for _, in := range []string{"", "  ", "-- nothing\n", ";;", "/* x */ ;"} {
		_, err := ParseOne(in)
		e, ok := err.(*diag.Error)
		if !ok || e.Code != diag.CodeEmpty {
			t.Errorf("ParseOne(%q) = %v, want code empty", in, err)
		}
	}
	_, err := ParseOne("SELECT 1; SELECT 2")
	if e, ok := err.(*diag.Error); !ok || e.Code != diag.CodeSyntax || e.Pos.Column != 11 {
		t.Errorf("two statements: %v", err)
	}
	if _, err := ParseOne("SELECT 1;"); err != nil {
		t.Errorf("trailing semicolon: %v", err)
	}
}
