package parser

import (
	"errors"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// parseSelect1 parses input that must be exactly one SELECT.
func parseSelect1(t *testing.T, input string) *Select {
	t.Helper()
	st, err := ParseOne(input)
	if err != nil {
		t.Fatalf("Parse(%q): %v", input, err)
	}
	sel, ok := st.(*Select)
	if !ok {
		t.Fatalf("Parse(%q) = %T, want *Select", input, st)
	}
	return sel
}

// parseError parses input that must fail and returns the *diag.Error.
func parseError(t *testing.T, input string) *diag.Error {
	t.Helper()
	stmts, err := Parse(input)
	if err == nil {
		var shown []string
		for _, s := range stmts {
			if sel, ok := s.(*Select); ok {
				shown = append(shown, sqlparser.String(sel.AST))
			}
		}
		t.Fatalf("Parse(%q) succeeded (%q), want an error", input, shown)
	}
	var pe *diag.Error
	if !errors.As(err, &pe) {
		t.Fatalf("Parse(%q) error %T, want *diag.Error", input, err)
	}
	return pe
}

// errCase is one expected error: code, position and message fragments.
type errCase struct {
	name      string
	input     string
	code      diag.Code
	line, col int
	msg       []string // substrings of Msg
	hint      string   // substring of Hint, "" = not checked
}

func checkErr(t *testing.T, c errCase) {
	t.Helper()
	e := parseError(t, c.input)
	if e.Code != c.code {
		t.Errorf("code = %q, want %q\n%v", e.Code, c.code, e)
	}
	if c.line != 0 && e.Pos.Line != c.line || c.col != 0 && e.Pos.Column != c.col {
		t.Errorf("at %d:%d, want %d:%d\n%v", e.Pos.Line, e.Pos.Column, c.line, c.col, e)
	}
	for _, m := range c.msg {
		if !strings.Contains(e.Msg, m) {
			t.Errorf("message %q lacks %q", e.Msg, m)
		}
	}
	if c.hint != "" && !strings.Contains(e.Hint, c.hint) {
		t.Errorf("hint %q lacks %q", e.Hint, c.hint)
	}
}

// col is one column reference found in an AST.
type col struct{ qualifier, name string }

// columns lists every column reference in the AST, in walk order.
func columns(sel *Select) []col {
	var out []col
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if c, ok := n.(*sqlparser.ColName); ok {
			out = append(out, col{c.Qualifier.Name.String(), c.Name.String()})
		}
		return true, nil
	}, sel.AST)
	return out
}

func hasColumn(sel *Select, name string) bool {
	for _, c := range columns(sel) {
		if c.name == name && c.qualifier == "" {
			return true
		}
	}
	return false
}
