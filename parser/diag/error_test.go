package diag

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorRendersByPosition(t *testing.T) {
	inText := Pos{Line: 2, Column: 10, Offset: 19, LineText: "SELECT * FORM app"}
	cases := []struct {
		name             string
		err              *Error
		text, atCol, all string
	}{
		{"statement text",
			&Error{Phase: Parse, Code: CodeSyntax, Msg: "unexpected 'FORM'", Hint: "did you mean FROM?", Pos: inText},
			"syntax error at line 2, column 10: unexpected 'FORM'\n  SELECT * FORM app\n           ^",
			"syntax error at column 10: unexpected 'FORM'\n  SELECT * FORM app\n           ^",
			"syntax error at line 2, column 10: unexpected 'FORM'\n  SELECT * FORM app\n           ^\nhint: did you mean FROM?"},
		{"statement text, not a syntax error",
			&Error{Phase: Parse, Code: CodeEmpty, Msg: "no statement to run", Pos: Pos{Line: 1, Column: 1}},
			"error at line 1, column 1: no statement to run",
			"error at column 1: no statement to run",
			"error at line 1, column 1: no statement to run"},
		{"a file and line",
			&Error{Phase: Load, Code: CodeBadJSON, Msg: "not JSON", Pos: Pos{Source: "a.jsonl", Line: 3, Column: 7}},
			"a.jsonl:3:7: not JSON", "a.jsonl:3:7: not JSON", "a.jsonl:3:7: not JSON"},
		{"a file",
			&Error{Phase: Load, Code: CodeIO, Msg: "no such file", Pos: Pos{Source: "a.jsonl"}},
			"a.jsonl: no such file", "a.jsonl: no such file", "a.jsonl: no such file"},
		{"nowhere, with a hint",
			&Error{Phase: Plan, Code: CodeUnknownTable, Msg: `table "x" does not exist`, Hint: "SHOW TABLES lists the tables"},
			`table "x" does not exist`, `table "x" does not exist`, "table \"x\" does not exist\nSHOW TABLES lists the tables"},
	}
	for _, c := range cases {
		if got := c.err.Text(); got != c.text {
			t.Errorf("%s: Text() =\n%s\nwant\n%s", c.name, got, c.text)
		}
		if got := c.err.TextAtColumn(); got != c.atCol {
			t.Errorf("%s: TextAtColumn() =\n%s\nwant\n%s", c.name, got, c.atCol)
		}
		if got := c.err.Error(); got != c.all {
			t.Errorf("%s: Error() =\n%s\nwant\n%s", c.name, got, c.all)
		}
	}
}

func TestExcerptWindowsLongLines(t *testing.T) {
	line := ""
	for i := 0; i < 50; i++ {
		line += "abcdefghij"
	}
	e := &Error{Code: CodeSyntax, Msg: "x", Pos: Pos{Line: 1, Column: 251, LineText: line}}
	want := "syntax error at line 1, column 251: x\n  …" + line[200:300] + "…\n" + "  " + fmt.Sprintf("%*s", 52, "^")
	if got := e.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFindAlongTheChain(t *testing.T) {
	inner := &Error{Phase: Evaluate, Code: CodeSetIndex, Msg: "tags is a string set"}
	outer := &Error{Phase: Execute, Code: CodeEval, Msg: inner.Msg, Cause: inner}
	wrapped := fmt.Errorf("statement 2: %w", outer)
	if CodeOf(wrapped) != CodeEval {
		t.Errorf("CodeOf = %q, want the outermost code", CodeOf(wrapped))
	}
	if !Has(wrapped, CodeSetIndex) || !Has(wrapped, CodeEval) || Has(wrapped, CodeOverflow) {
		t.Error("Has must see every code along the chain, and only those")
	}
	if e, ok := Find(wrapped, CodeSetIndex); !ok || e != inner {
		t.Errorf("Find = %v, %v", e, ok)
	}
	if !errors.Is(outer, inner) || CodeOf(errors.New("plain")) != "" {
		t.Error("Unwrap must reach the cause; a plain error has no code")
	}
}

func TestPhaseNames(t *testing.T) {
	seen := map[string]bool{}
	for p := PhaseUnknown; p <= Evaluate; p++ {
		n := p.String()
		if n == "" || seen[n] {
			t.Errorf("phase %d: name %q is empty or taken", p, n)
		}
		seen[n] = true
	}
	if Phase(200).String() != "unknown" {
		t.Error("an out-of-range phase is unknown")
	}
}
