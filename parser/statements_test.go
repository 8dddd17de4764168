package parser

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestStatementKinds(t *testing.T) {
	tests := []struct {
		input string
		want  Statement // Select/Explain compared by kind and fields below
	}{
		{"SHOW TABLES", &ShowTables{Loc: Span{0, 11}}},
		{"show tables;", &ShowTables{Loc: Span{0, 11}}},
		{"DESCRIBE app", &Describe{Table: "app", Loc: Span{0, 12}}},
		{"DESC app", &Describe{Table: "app", Loc: Span{0, 8}}},
		{"describe `my-table.v2`", &Describe{Table: "my-table.v2", Loc: Span{0, 22}}},
		{"DESCRIBE Status", &Describe{Table: "Status", Loc: Span{0, 15}}},
		{"EXPLAIN app", &Describe{Table: "app", Loc: Span{0, 11}}},
		{"SHOW INDEXES FROM app", &ShowIndexes{Table: "app", Loc: Span{0, 21}}},
		{"SHOW INDEX FROM app", &ShowIndexes{Table: "app", Loc: Span{0, 19}}},
		{"SHOW KEYS IN `a-b`", &ShowIndexes{Table: "a-b", Loc: Span{0, 18}}},
		{"show index in App -- comment", &ShowIndexes{Table: "App", Loc: Span{0, 17}}},
		{"  /* c */ SHOW TABLES  ", &ShowTables{Loc: Span{10, 21}}},
	}
	for _, tt := range tests {
		got, err := ParseOne(tt.input)
		if err != nil {
			t.Errorf("%q: %v", tt.input, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q = %#v, want %#v", tt.input, got, tt.want)
		}
	}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		input   string
		analyze bool
		selText string
		selLoc  Span
	}{
		{"EXPLAIN SELECT * FROM t", false, "SELECT * FROM t", Span{8, 23}},
		{"explain analyze select a.b.c from t", true, "select a.b.c from t", Span{16, 35}},
		{"EXPLAIN\n  ANALYZE\n  SELECT 1 -- trailing", true, "SELECT 1", Span{20, 28}},
		{"EXPLAIN (SELECT a FROM t)", false, "(SELECT a FROM t)", Span{8, 25}},
		{"DESCRIBE SELECT a FROM t", false, "SELECT a FROM t", Span{9, 24}},
	}
	for _, tt := range tests {
		st, err := ParseOne(tt.input)
		if err != nil {
			t.Errorf("%q: %v", tt.input, err)
			continue
		}
		ex, ok := st.(*Explain)
		if !ok {
			t.Errorf("%q = %T, want *Explain", tt.input, st)
			continue
		}
		if ex.Analyze != tt.analyze || ex.Stmt.Text != tt.selText || ex.Stmt.Span() != tt.selLoc {
			t.Errorf("%q: analyze %v text %q span %v", tt.input, ex.Analyze, ex.Stmt.Text, ex.Stmt.Span())
		}
		if ex.Span().Start != 0 || ex.Stmt.AST == nil {
			t.Errorf("%q: span %v AST %v", tt.input, ex.Span(), ex.Stmt.AST)
		}
	}
	ex := mustExplain(t, "EXPLAIN ANALYZE SELECT a.b.c FROM t")
	if len(ex.Stmt.Paths) != 1 {
		t.Errorf("paths of an explained select: %v", ex.Stmt.Paths)
	}
}

// TestExplainDialect checks EXPLAIN ATHENA and EXPLAIN DUCKDB, and that
// the words stay table names where no SELECT follows.
func TestExplainDialect(t *testing.T) {
	for in, want := range map[string]string{
		"EXPLAIN ATHENA SELECT a FROM t":                        DialectAthena,
		"explain duckdb\n WITH x AS (SELECT 1) SELECT * FROM x": DialectDuckDB,
		"EXPLAIN DuckDB (SELECT a FROM t)":                      DialectDuckDB,
		"EXPLAIN SELECT a FROM athena":                          "",
	} {
		ex := mustExplain(t, in)
		if ex.Dialect != want || ex.Analyze || ex.Stmt == nil {
			t.Errorf("%q: dialect %q analyze %v, want dialect %q", in, ex.Dialect, ex.Analyze, want)
		}
	}
	st, err := ParseOne("EXPLAIN athena")
	if d, ok := st.(*Describe); err != nil || !ok || d.Table != "athena" {
		t.Errorf("EXPLAIN athena = %#v, %v; want DESCRIBE of the table athena", st, err)
	}
	for _, w := range []string{"EXPLAIN ATHENA UPDATE t SET a = 1 WHERE k = 'x'", "EXPLAIN duckdb DELETE FROM t WHERE k = 'x'"} {
		_, err := ParseOne(w)
		var d *diag.Error
		if !errors.As(err, &d) || d.Code != diag.CodeUnsupported || !strings.Contains(d.Msg, "a write is not translated") {
			t.Errorf("%s: %v; want the unsupported error saying a write is not translated", w, err)
		}
	}
	if _, err := ParseOne("EXPLAIN ATHENA DESCRIBE t"); err == nil {
		t.Errorf("EXPLAIN ATHENA DESCRIBE t parsed")
	}
}

func mustExplain(t *testing.T, in string) *Explain {
	t.Helper()
	st, err := ParseOne(in)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*Explain)
}

func TestSelectSpanAndText(t *testing.T) {
	input := "SELECT 1;\n  -- the next one\n  SELECT a\n    FROM t  ;  "
	stmts, err := Parse(input)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 2 {
		t.Fatalf("%d statements", len(stmts))
	}
	sel := stmts[1].(*Select)
	if sel.Text != "SELECT a\n    FROM t" || input[sel.Loc.Start:sel.Loc.End] != sel.Text {
		t.Errorf("text %q span %v", sel.Text, sel.Loc)
	}
	if sel.Paths == nil {
		t.Errorf("Paths must be a usable (empty) map")
	}
}

func TestParenthesizedSelect(t *testing.T) {
	sel := parseSelect1(t, "((SELECT a FROM t WHERE x = 1))")
	if got := sqlparser.String(sel.AST); got != "select a from t where x = 1" {
		t.Errorf("AST %q", got)
	}
	// Parentheses that do not wrap the whole statement stay sqlparser's business.
	e := parseError(t, "(SELECT a FROM t) ORDER BY a")
	if e.Code != diag.CodeSyntax {
		t.Errorf("%v", e)
	}
}

func TestCommandErrors(t *testing.T) {
	tests := []errCase{
		{name: "explain alone", input: "EXPLAIN", code: diag.CodeSyntax, line: 1, col: 8, msg: []string{"EXPLAIN needs a SELECT"}},
		{name: "explain analyze alone", input: "EXPLAIN ANALYZE ", code: diag.CodeSyntax, line: 1, col: 16},
		{name: "explain analyze table", input: "EXPLAIN ANALYZE t", code: diag.CodeSyntax, line: 1, col: 17},
		{name: "explain drop", input: "EXPLAIN DROP TABLE t", code: diag.CodeUnsupported, line: 1, col: 9,
			msg: []string{"DROP"}},
		{name: "explain analyze delete", input: "EXPLAIN ANALYZE DELETE FROM t WHERE PK = 'x'", code: diag.CodeUnsupported, line: 1, col: 9,
			msg: []string{"EXPLAIN ANALYZE of a write"}},
		{name: "explain show", input: "EXPLAIN SHOW TABLES", code: diag.CodeUnsupported, line: 1, col: 9},
		{name: "explain table extra", input: "EXPLAIN t x", code: diag.CodeSyntax, line: 1, col: 11},
		{name: "explain select error", input: "EXPLAIN SELECT * FORM t", code: diag.CodeSyntax, line: 1, col: 18},
		{name: "describe alone", input: "DESCRIBE", code: diag.CodeSyntax, line: 1, col: 9, msg: []string{"table name"}},
		{name: "describe two names", input: "DESCRIBE a b", code: diag.CodeSyntax, line: 1, col: 12},
		{name: "describe hyphen", input: "DESC my-table", code: diag.CodeSyntax, line: 1, col: 8, hint: "`my-table`"},
		{name: "describe reserved", input: "DESCRIBE from", code: diag.CodeSyntax, line: 1, col: 10, hint: "`from`"},
		{name: "show alone", input: "SHOW", code: diag.CodeSyntax, line: 1, col: 5},
		{name: "show databases", input: "SHOW DATABASES", code: diag.CodeUnsupported, line: 1, col: 6,
			msg: []string{"SHOW DATABASES is not supported"}, hint: "SHOW TABLES"},
		{name: "show tables like", input: "SHOW TABLES LIKE 'a%'", code: diag.CodeSyntax, line: 1, col: 13},
		{name: "show indexes no from", input: "SHOW INDEXES", code: diag.CodeSyntax, line: 1, col: 13},
		{name: "show indexes no table", input: "SHOW INDEXES FROM", code: diag.CodeSyntax, line: 1, col: 18},
		{name: "show indexes wrong word", input: "SHOW INDEXES OF t", code: diag.CodeSyntax, line: 1, col: 14},
		{name: "show indexes extra", input: "SHOW INDEXES FROM t WHERE x", code: diag.CodeSyntax, line: 1, col: 21},
		{name: "show string", input: "SHOW 'x'", code: diag.CodeSyntax, line: 1, col: 6},
		{name: "statement is a string", input: "'SELECT 1'", code: diag.CodeSyntax, line: 1, col: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt) })
	}
}
