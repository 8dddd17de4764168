package parser

import (
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestUnnestRewrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT u.tag FROM t CROSS JOIN UNNEST(t.tags) AS u(tag)",
			"select u.tag from t join (select ddbsql_unnest(t.tags) as tag from dual) as u"},
		{"SELECT tag FROM t LEFT JOIN unnest(tags) WITH ORDINALITY AS u(tag, n) ON true",
			"select tag from t left join (select ddbsql_unnest(tags) as tag, ddbsql_ordinality() as n from dual) as u on true"},
		{"SELECT tag FROM t LEFT OUTER JOIN UNNEST(tags) u(tag, n) WITH ORDINALITY ON TRUE",
			"select tag from t left join (select ddbsql_unnest(tags) as tag, ddbsql_ordinality() as n from dual) as u on true"},
		{"SELECT x FROM t, UNNEST(l) x", "select x from t, (select ddbsql_unnest(l) as x from dual) as x"},
		// Keywords as names, quoted names and document paths inside.
		{"SELECT `value` FROM t CROSS JOIN UNNEST(t.`status`) AS \"date\"(\"value\")",
			"select value from t join (select ddbsql_unnest(t.`status`) as value from dual) as `date`"},
		{"SELECT e FROM t CROSS JOIN UNNEST(t.info.lists[1]) AS u(e) WHERE e > 1",
			"select e from t join (select ddbsql_unnest(`$path1`) as e from dual) as u where e > 1"},
		// A table named unnest is a table.
		{"SELECT a FROM unnest", "select a from unnest"},
	} {
		sel := parseSelect1(t, tc.in)
		got := sqlparser.String(sel.AST)
		if tc.in == "SELECT e FROM t CROSS JOIN UNNEST(t.info.lists[1]) AS u(e) WHERE e > 1" {
			if len(sel.Paths) != 1 {
				t.Errorf("%s: paths %v, want t.info.lists[1]", tc.in, sel.Paths)
			}
			for name := range sel.Paths {
				got = replaceAll(got, name, "$path1")
			}
		}
		if got != tc.want {
			t.Errorf("%s\n got  %s\n want %s", tc.in, got, tc.want)
		}
	}
}

func replaceAll(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			s = s[:i] + new + s[i+len(old):]
			i += len(new) - 1
		}
	}
	return s
}

func TestUnnestErrors(t *testing.T) {
	for _, c := range []errCase{
		{name: "no alias", input: "SELECT 1 FROM t CROSS JOIN UNNEST(t.tags) WHERE x = 1", code: diag.CodeSyntax, line: 1, col: 42,
			msg: []string{"UNNEST needs an alias"}},
		{name: "no argument", input: "SELECT 1 FROM t CROSS JOIN UNNEST() AS u(x)", code: diag.CodeSyntax, line: 1, col: 35,
			msg: []string{"UNNEST needs the list or set to expand"}},
		{name: "ordinality needs two columns", input: "SELECT 1 FROM t CROSS JOIN UNNEST(l) WITH ORDINALITY AS u(x)", code: diag.CodeSyntax,
			msg: []string{"needs 2 column names, got 1"}, hint: "WITH ORDINALITY AS u(value, n)"},
		{name: "too many columns", input: "SELECT 1 FROM t CROSS JOIN UNNEST(l) AS u(x, y)", code: diag.CodeSyntax,
			msg: []string{"needs 1 column name, got 2"}},
		{name: "bad column list", input: "SELECT 1 FROM t CROSS JOIN UNNEST(l) AS u(x y)", code: diag.CodeSyntax, line: 1, col: 45,
			msg: []string{"expected , or )"}},
		// An error inside the expression points into it, as written.
		{name: "inside", input: "SELECT 1 FROM t\nCROSS JOIN UNNEST(t.tags +) AS u(x)", code: diag.CodeSyntax, line: 2, col: 27},
	} {
		t.Run(c.name, func(t *testing.T) { checkErr(t, c) })
	}
}
