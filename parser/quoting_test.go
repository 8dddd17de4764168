package parser

import (
	"reflect"
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// A double-quoted name is a name everywhere, exactly like a backticked one:
// each pair must parse to the same statement.
func TestDoubleQuotesAreNames(t *testing.T) {
	tests := []struct{ name, double, backtick string }{
		{"select list", `SELECT "status", "info".rating FROM app`, "SELECT `status`, `info`.rating FROM app"},
		{"alias", `SELECT COUNT(*) AS "n", x "y" FROM app`, "SELECT COUNT(*) AS `n`, x `y` FROM app"},
		{"where", `SELECT * FROM app WHERE "status" = 'review'`, "SELECT * FROM app WHERE `status` = 'review'"},
		{"function arguments", `SELECT size("tags") FROM app WHERE begins_with("SK", 'DOC#')`,
			"SELECT size(`tags`) FROM app WHERE begins_with(`SK`, 'DOC#')"},
		{"group, having, order", `SELECT "status", COUNT(*) FROM app GROUP BY "status" HAVING COUNT("PK") > 1 ORDER BY "status" DESC`,
			"SELECT `status`, COUNT(*) FROM app GROUP BY `status` HAVING COUNT(`PK`) > 1 ORDER BY `status` DESC"},
		{"table", `SELECT * FROM "app"`, "SELECT * FROM `app`"},
		{"table and index", `SELECT * FROM "app"."GSI1" WHERE "GSI1PK" = 'x'`, "SELECT * FROM `app`.`GSI1` WHERE `GSI1PK` = 'x'"},
		{"table alias", `SELECT "x"."PK" FROM "app" AS "x"`, "SELECT `x`.`PK` FROM `app` AS `x`"},
		{"join on", `SELECT * FROM orders "o" JOIN customers "c" ON "o"."customer_id" = "c"."id"`,
			"SELECT * FROM orders `o` JOIN customers `c` ON `o`.`customer_id` = `c`.`id`"},
		{"using", `SELECT * FROM orders JOIN customers USING ("id")`, "SELECT * FROM orders JOIN customers USING (`id`)"},
		{"index hint", `SELECT * FROM app USE INDEX ("GSI1") WHERE GSI1PK = 'x'`, "SELECT * FROM app USE INDEX (`GSI1`) WHERE GSI1PK = 'x'"},
		{"document path", `SELECT "info"."rating"."imdb", "tags"[0] FROM app`, "SELECT `info`.`rating`.`imdb`, `tags`[0] FROM app"},
		{"path with a dotted part", `SELECT info."a.b".c FROM app`, "SELECT info.`a.b`.c FROM app"},
		{"one name with a dot", `SELECT "a.b" FROM app`, "SELECT `a.b` FROM app"},
		{"special characters", `SELECT "GSI1#PK", "my-attr", "a b", "Ünïcode" FROM app WHERE "GSI1#PK" = 'x'`,
			"SELECT `GSI1#PK`, `my-attr`, `a b`, `Ünïcode` FROM app WHERE `GSI1#PK` = 'x'"},
		{"hard keyword", `SELECT "from", "select" FROM app WHERE "order" = 1`, "SELECT `from`, `select` FROM app WHERE `order` = 1"},
		{"doubled double quote", `SELECT "a""b" FROM app`, "SELECT `a\"b` FROM app"},
		{"backtick inside", "SELECT \"a`b\", \"c``d\" FROM app", "SELECT `a``b`, `c````d` FROM app"},
		{"backslash is a plain character", `SELECT "a\b" FROM app`, "SELECT `a\\b` FROM app"},
		{"glued to a backticked name", "SELECT \"a\"`b` FROM app", "SELECT `a` `b` FROM app"},
		{"glued to a keyword", `SELECT x"a", "b"status FROM app`, "SELECT x `a`, `b` `status` FROM app"},
		{"case, in, between", `SELECT CASE "a" WHEN 1 THEN "b" END FROM app WHERE "c" IN (1, 2) AND "d" BETWEEN 1 AND 2`,
			"SELECT CASE `a` WHEN 1 THEN `b` END FROM app WHERE `c` IN (1, 2) AND `d` BETWEEN 1 AND 2"},
		{"explain", `EXPLAIN SELECT "PK" FROM "app"`, "EXPLAIN SELECT `PK` FROM `app`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := parseOneSelect(t, tt.double), parseOneSelect(t, tt.backtick)
			if g, w := sqlparser.String(got.AST), sqlparser.String(want.AST); g != w {
				t.Errorf("%s\n got %s\nwant %s", tt.double, g, w)
			}
			if !reflect.DeepEqual(got.Paths, want.Paths) {
				t.Errorf("paths %v, want %v", got.Paths, want.Paths)
			}
		})
	}
}

// parseOneSelect parses a SELECT or EXPLAIN SELECT.
func parseOneSelect(t *testing.T, input string) *Select {
	t.Helper()
	st, err := ParseOne(input)
	if err != nil {
		t.Fatalf("Parse(%q): %v", input, err)
	}
	switch s := st.(type) {
	case *Select:
		return s
	case *Explain:
		return s.Stmt
	}
	t.Fatalf("Parse(%q) = %T", input, st)
	return nil
}

func TestDoubleQuotedNamesInAST(t *testing.T) {
	sel := parseSelect1(t, `SELECT "a.b", "a"."b", "x""y" FROM t WHERE x = "abc" AND y = 'abc'`)
	want := []col{{"", "a.b"}, {"a", "b"}, {"", `x"y`}, {"", "x"}, {"", "abc"}, {"", "y"}}
	if got := columns(sel); !reflect.DeepEqual(got, want) {
		t.Errorf("columns %v, want %v", got, want)
	}
	// 'abc' is the only string left.
	var strs []string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if v, ok := n.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal {
			strs = append(strs, string(v.Val))
		}
		return true, nil
	}, sel.AST)
	if !reflect.DeepEqual(strs, []string{"abc"}) {
		t.Errorf("string literals %q, want only 'abc'", strs)
	}
	sel = parseSelect1(t, `SELECT "info"."rating"."imdb", "tags"[0], "a.b"[1] FROM t`)
	paths := pathsIn(t, sel)
	wantPaths := []Path{{name("info"), name("rating"), name("imdb")}, {name("tags"), idx(0)}, {name("a.b"), idx(1)}}
	if !reflect.DeepEqual(paths, wantPaths) {
		t.Errorf("paths %v, want %v", paths, wantPaths)
	}
	tn := parseSelect1(t, `SELECT * FROM "my-table"."GSI1#x"`).AST.From[0].(*sqlparser.AliasedTableExpr).Expr.(sqlparser.TableName)
	if table, index := TableRef(tn); table != "my-table" || index != "GSI1#x" {
		t.Errorf("TableRef = %q, %q", table, index)
	}
}

func TestDoubleQuotedCommands(t *testing.T) {
	tests := []struct {
		input string
		want  Statement
	}{
		{`DESCRIBE "my-table.v2"`, &Describe{Table: "my-table.v2", Loc: Span{0, 22}}},
		{`DESC "a""b"`, &Describe{Table: `a"b`, Loc: Span{0, 11}}},
		{`EXPLAIN "app"`, &Describe{Table: "app", Loc: Span{0, 13}}},
		{`SHOW INDEXES FROM "my-table"`, &ShowIndexes{Table: "my-table", Loc: Span{0, 28}}},
		{`SHOW KEYS IN "select"`, &ShowIndexes{Table: "select", Loc: Span{0, 21}}},
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

func TestDoubleQuoteErrors(t *testing.T) {
	tests := []errCase{
		{name: "unterminated", input: "SELECT * FROM t\nWHERE x = \"abc", code: diag.CodeSyntax, line: 2, col: 11,
			msg: []string{"unterminated quoted name"}, hint: `close the name with a double quote`},
		{name: "unterminated mentions strings", input: `SELECT "abc FROM t`, code: diag.CodeSyntax, line: 1, col: 8,
			hint: "single quotes"},
		{name: "unterminated after a doubled quote", input: `SELECT "a""`, code: diag.CodeSyntax, line: 1, col: 8,
			msg: []string{"unterminated quoted name"}},
		{name: "empty", input: `SELECT "" FROM t`, code: diag.CodeSyntax, line: 1, col: 8, msg: []string{`empty name ""`}},
		{name: "after rewritten names", input: "SELECT \"a\"\"b\", \"c`d\", \"status\" FROM t WHERE = 1", code: diag.CodeSyntax, line: 1, col: 45,
			msg: []string{"unexpected '='"}},
		{name: "on a rewritten name", input: "SELECT * FROM t WHERE x = 1 \"c``d\"", code: diag.CodeSyntax, line: 1, col: 29,
			msg: []string{"unexpected '\"c``d\"'"}},
		{name: "second line after rewrites", input: "SELECT \"a`\"\n  FROM \"t\" WHERE \"x\" = = 1", code: diag.CodeSyntax, line: 2, col: 24,
			msg: []string{"unexpected '='"}},
		{name: "hash after a double-quoted name", input: `SELECT * FROM t WHERE "GSI1"#PK = 'x'`, code: diag.CodeUnquotedHash, line: 1, col: 23,
			hint: `"GSI1#PK"`},
		{name: "describe needs one name", input: `DESCRIBE "a" "b"`, code: diag.CodeSyntax, line: 1, col: 14},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt) })
	}
}

// PartiQL's list literal after IN is the parenthesised list.
func TestInListLiteral(t *testing.T) {
	tests := []struct{ name, list, parens string }{
		{"strings", "SELECT * FROM t WHERE PK IN ['a', 'b']", "SELECT * FROM t WHERE PK IN ('a', 'b')"},
		{"not in", "SELECT * FROM t WHERE x NOT IN [1,2,3]", "SELECT * FROM t WHERE x NOT IN (1,2,3)"},
		{"one value", "SELECT * FROM t WHERE x IN['a']", "SELECT * FROM t WHERE x IN('a')"},
		{"indexed operand", "SELECT * FROM t WHERE tags[0] IN ['a']", "SELECT * FROM t WHERE tags[0] IN ('a')"},
		{"paths inside", "SELECT * FROM t WHERE x IN [tags[1], a.b.c, 'z']", "SELECT * FROM t WHERE x IN (tags[1], a.b.c, 'z')"},
		{"names and keywords inside", `SELECT * FROM t WHERE x IN [status, "y", (1 + 2)]`, "SELECT * FROM t WHERE x IN (`status`, `y`, (1 + 2))"},
		{"in a join condition", "SELECT * FROM a JOIN b ON a.k = b.k AND a.x IN ['p', 'q'] WHERE b.y IN [1]",
			"SELECT * FROM a JOIN b ON a.k = b.k AND a.x IN ('p', 'q') WHERE b.y IN (1)"},
		{"nested parentheses around", "SELECT * FROM t WHERE (x IN ['a'] OR (y IN ['b', 'c']))",
			"SELECT * FROM t WHERE (x IN ('a') OR (y IN ('b', 'c')))"},
		{"case inside", "SELECT * FROM t WHERE x IN [CASE WHEN y THEN 'a' END, 'b']", "SELECT * FROM t WHERE x IN (CASE WHEN y THEN 'a' END, 'b')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := parseSelect1(t, tt.list), parseSelect1(t, tt.parens)
			if g, w := sqlparser.String(got.AST), sqlparser.String(want.AST); g != w {
				t.Errorf("%s\n got %s\nwant %s", tt.list, g, w)
			}
			if !reflect.DeepEqual(got.Paths, want.Paths) {
				t.Errorf("paths %v, want %v", got.Paths, want.Paths)
			}
		})
	}
}

func TestInListLiteralErrors(t *testing.T) {
	tests := []errCase{
		{name: "empty", input: "SELECT * FROM t WHERE x IN []", code: diag.CodeSyntax, line: 1, col: 28,
			msg: []string{"empty list after IN"}},
		{name: "empty not in", input: "SELECT * FROM t\nWHERE x NOT IN [ ] AND y = 1", code: diag.CodeSyntax, line: 2, col: 16,
			msg: []string{"empty list after IN"}},
		{name: "unclosed", input: "SELECT * FROM t WHERE x IN ['a', 'b'", code: diag.CodeSyntax, line: 1, col: 28,
			msg: []string{"not closed"}},
		{name: "closed by a parenthesis", input: "SELECT * FROM t WHERE (x IN ['a', 'b')", code: diag.CodeSyntax, line: 1, col: 29,
			msg: []string{"not closed"}},
		{name: "trailing comma", input: "SELECT * FROM t WHERE x IN ['a', ]", code: diag.CodeSyntax, line: 1, col: 34,
			msg: []string{"unexpected ']'"}},
		{name: "missing comma", input: "SELECT * FROM t WHERE x IN ['a' 'b' 'c']", code: diag.CodeSyntax, line: 1, col: 33},
		{name: "bracket not after IN", input: "SELECT * FROM t WHERE x = ['a']", code: diag.CodeSyntax, line: 1, col: 27,
			msg: []string{"'['"}, hint: "IN ['a', 'b']"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt) })
	}
}

// QuotedValues are the double-quoted names that sit where a value usually
// goes, for the planner's "is a name here" hints.
func TestQuotedValues(t *testing.T) {
	tests := []struct {
		input string
		want  []string
	}{
		{`SELECT * FROM t WHERE status = "open"`, []string{"open"}},
		{`SELECT * FROM t WHERE PK = "USER#1" AND "SK" > "b" AND "c" < 'd'`, []string{"USER#1", "b"}},
		{`SELECT * FROM t WHERE x LIKE "a%" OR y NOT LIKE "b_"`, []string{"a%", "b_"}},
		{`SELECT * FROM t WHERE begins_with("SK", "DOC#") AND contains(tags, "x") AND size("n") > 1 AND attribute_type(a, "S")`, []string{"DOC#", "x", "S"}},
		{`SELECT * FROM t WHERE x IN ("a", 'b', "c") AND y NOT IN ["d"]`, []string{"a", "c", "d"}},
		{`SELECT * FROM t WHERE x BETWEEN "a" AND "b"`, []string{"a", "b"}},
		{`SELECT CASE x WHEN "a" THEN 1 END FROM t`, []string{"a"}},
		{`SELECT "hello", "a" || "b"`, []string{"hello", "a", "b"}},
		{`SELECT * FROM t WHERE x = "a" OR y = "a"`, []string{"a"}},
		// names that are clearly names: not values
		{`SELECT "status", "info".rating FROM "t" WHERE "status" = 'open'`, nil},
		{`SELECT * FROM a JOIN b ON "a"."k" = "b"."k" WHERE x = "a"."y"`, nil},
		{`SELECT * FROM t WHERE x = "tags"[0] OR y = "a"."b"."c"`, nil},
		{"SELECT * FROM t WHERE x = `open`", nil},
		{`SELECT * FROM t WHERE x = 'open'`, nil},
	}
	for _, tt := range tests {
		sel := parseSelect1(t, tt.input)
		if !reflect.DeepEqual(sel.QuotedValues, tt.want) {
			t.Errorf("%s\n got %q\nwant %q", tt.input, sel.QuotedValues, tt.want)
		}
	}
}
