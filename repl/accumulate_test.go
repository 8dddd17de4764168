package repl

import (
	"reflect"
	"testing"
)

func TestAccumulator(t *testing.T) {
	type step struct {
		line    string
		stmts   []string
		source  string
		pending string
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"one line", []step{{"SELECT 1 FROM t;", []string{"SELECT 1 FROM t"}, "SELECT 1 FROM t;", ""}}},
		{"spans lines", []step{
			{"SELECT a", nil, "", "SELECT a"},
			{"FROM t", nil, "", "SELECT a\nFROM t"},
			{"WHERE k = 1;", []string{"SELECT a\nFROM t\nWHERE k = 1"}, "SELECT a\nFROM t\nWHERE k = 1;", ""},
		}},
		{"two in one line", []step{{"SELECT 1; SELECT 2;", []string{"SELECT 1", "SELECT 2"}, "SELECT 1; SELECT 2;", ""}}},
		{"complete then a tail", []step{
			{"SELECT 1; SELECT", []string{"SELECT 1"}, "SELECT 1;", "SELECT"},
			{"2;", []string{"SELECT\n2"}, "SELECT\n2;", ""},
		}},
		{"; in a string", []step{
			{"SELECT * FROM t WHERE a = 'x;", nil, "", "SELECT * FROM t WHERE a = 'x;"},
			{"y';", []string{"SELECT * FROM t WHERE a = 'x;\ny'"}, "SELECT * FROM t WHERE a = 'x;\ny';", ""},
		}},
		{"; in backticks and comments", []step{
			{"SELECT `a;b` FROM t -- not yet;", nil, "", "SELECT `a;b` FROM t -- not yet;"},
			{"/* ; */ ;", []string{"SELECT `a;b` FROM t -- not yet;\n/* ; */"}, "SELECT `a;b` FROM t -- not yet;\n/* ; */ ;", ""},
		}},
		{"; in double quotes", []step{
			{`SELECT "a;`, nil, "", `SELECT "a;`},
			{`b""c;" FROM t;`, []string{"SELECT \"a;\nb\"\"c;\" FROM t"}, "SELECT \"a;\nb\"\"c;\" FROM t;", ""},
		}},
		{"a backslash does not escape a double quote", []step{
			{`SELECT "a\" FROM t;`, []string{`SELECT "a\" FROM t`}, `SELECT "a\" FROM t;`, ""},
		}},
		{"comment after the semicolon", []step{{"SELECT 1; -- done", []string{"SELECT 1"}, "SELECT 1;", ""}}},
		{"blank and comment-only lines", []step{
			{"", nil, "", ""},
			{"   ", nil, "", ""},
			{"-- just a comment", nil, "", ""},
			{";", nil, "", ""},
		}},
		{"open block comment continues", []step{
			{"SELECT 1 /* ;", nil, "", "SELECT 1 /* ;"},
			{"*/;", []string{"SELECT 1 /* ;\n*/"}, "SELECT 1 /* ;\n*/;", ""},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var a accumulator
			for i, s := range c.steps {
				ch := a.Add(s.line)
				if !reflect.DeepEqual(ch.Statements, s.stmts) || ch.Source != s.source || a.Pending() != s.pending {
					t.Fatalf("step %d (%q): got %q source %q pending %q; want %q source %q pending %q",
						i, s.line, ch.Statements, ch.Source, a.Pending(), s.stmts, s.source, s.pending)
				}
			}
		})
	}
}

func TestAccumulatorReset(t *testing.T) {
	var a accumulator
	a.Add("SELECT a")
	if a.Empty() {
		t.Fatal("expected a pending statement")
	}
	a.Reset()
	if !a.Empty() || a.Pending() != "" {
		t.Fatalf("after Reset: %q", a.Pending())
	}
	if ch := a.Add("FROM t;"); len(ch.Statements) != 1 || ch.Statements[0] != "FROM t" {
		t.Fatalf("after Reset the old text must be gone: %q", ch.Statements)
	}
}
