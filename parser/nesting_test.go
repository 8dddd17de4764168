package parser

import (
	"errors"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// TestNestingBound checks that statements nested deeper than MaxNesting
// fail with a clear syntax error, before sqlparser's stack or the planner's
// recursions could grow with them, and that statements just within it
// parse.
func TestNestingBound(t *testing.T) {
	repeat := func(s string, n int) string { return strings.Repeat(s, n) }
	chain := func(term, op string, n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = term
		}
		return strings.Join(parts, op)
	}
	const n = MaxNesting
	cases := []struct {
		name string
		sql  string
		deep bool
	}{
		{"NOT within", "SELECT * FROM t WHERE " + repeat("NOT ", n-10) + "a = 1", false},
		{"NOT beyond", "SELECT * FROM t WHERE " + repeat("NOT ", n+1) + "a = 1", true},
		{"unary minus beyond", "SELECT " + repeat("- ", n+1) + "1 FROM t", true},
		{"~ beyond", "SELECT " + repeat("~", n+1) + "1 FROM t", true},
		{"! and BINARY beyond", "SELECT " + repeat("! BINARY ", n/2+1) + "a FROM t", true},
		{"CASE within", "SELECT " + repeat("CASE WHEN a = 1 THEN 1 ELSE ", n/4) + "0" + repeat(" END", n/4) + " FROM t", false},
		{"CASE beyond", "SELECT " + repeat("CASE WHEN a = 1 THEN 1 ELSE ", n+1) + "0" + repeat(" END", n+1) + " FROM t", true},
		{"OR chain within", "SELECT * FROM t WHERE " + chain("a = 1", " OR ", n-10), false},
		{"OR chain beyond", "SELECT * FROM t WHERE " + chain("a = 1", " OR ", n+1), true},
		{"AND chain beyond", "SELECT * FROM t WHERE " + chain("a = 1", " AND ", n+1), true},
		{"+ chain beyond", "SELECT " + chain("1", " + ", n+1) + " FROM t", true},
		{"many NOTs side by side", "SELECT * FROM t WHERE " + chain("NOT a = 1", " AND ", n/2) + " AND " + chain("x NOT IN (1)", " OR ", n/4), false},
		{"many negations side by side", "SELECT " + chain("-a * -b", ", ", n), false},
		{"EXPLAIN beyond", "EXPLAIN SELECT * FROM t WHERE " + repeat("NOT ", n+1) + "a = 1", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.sql)
			var e *diag.Error
			switch {
			case !tc.deep && err != nil:
				t.Fatalf("within the bound, got %v", firstLine(err))
			case tc.deep && (!errors.As(err, &e) || e.Code != diag.CodeSyntax ||
				!strings.Contains(e.Msg, "expression nested too deeply (more than 20000 levels)")):
				t.Fatalf("got %v, want the nesting error", firstLine(err))
			case tc.deep && !strings.Contains(e.Hint, "IN (…)"):
				t.Errorf("hint %q", e.Hint)
			}
		})
	}
}

func firstLine(err error) string {
	if err == nil {
		return "no error"
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// TestStatementTokenBound checks that a statement of more than
// MaxStatementTokens tokens fails with a clear error instead of taking
// gigabytes, while long literals and long lists are fine.
func TestStatementTokenBound(t *testing.T) {
	for _, tc := range []struct {
		name string
		sql  string
		long bool
	}{
		{"megabytes of operators", "SELECT " + strings.Repeat("~", 5_000_000) + "1 FROM t", true},
		{"a 10 MB string", "SELECT * FROM t WHERE a = '" + strings.Repeat("x", 10<<20) + "'", false},
		{"an IN list of 400 000 values", "SELECT * FROM t WHERE a IN (" + strings.Repeat("1, ", 400_000) + "2)", false},
		{"an IN list of a million values", "SELECT * FROM t WHERE a IN (" + strings.Repeat("1, ", 1_000_000) + "2)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.sql + "; SELECT 1")
			var e *diag.Error
			switch {
			case !tc.long && err != nil:
				t.Fatalf("got %v", firstLine(err))
			case tc.long && (!errors.As(err, &e) || e.Code != diag.CodeSyntax ||
				!strings.Contains(e.Msg, "statement too long (more than 1000000 tokens)")):
				t.Fatalf("got %v, want the length error", firstLine(err))
			}
		})
	}
}
