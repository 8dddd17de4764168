package parser

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

var fuzzSeeds = []string{
	"",
	"SELECT * FORM app",
	"SELECT 1;\nSELECT * FROM t WHERE a.b.c.d = 1 AND tags[0] = 'x'",
	"SELECT * FROM t WHERE GSI1#PK = 'x'",
	"SELECT `GSI1#PK`, `my-attr`, `a.b`, `info`.`x-y`[1] FROM `app`.`GSI1` USE INDEX (GSI1)",
	"EXPLAIN ANALYZE SELECT status, COUNT(*) FROM t GROUP BY status HAVING COUNT(*) > 1 ORDER BY status DESC LIMIT 5 OFFSET 2",
	"DESCRIBE `my-table`; SHOW TABLES; SHOW INDEXES FROM t; DESC t; EXPLAIN t",
	"WITH x AS (SELECT 1) SELECT * FROM x",
	"SELECT row_number() OVER (PARTITION BY a) FROM t FULL OUTER JOIN u ON a = b",
	"SELECT * FROM t WHERE x = $1 OR y = ? OR z = :z",
	"SELECT a FROM t UNION SELECT b FROM u",
	"INSERT INTO t VALUES (1)",
	"/*!*/",
	"SELECT /*! a, */ b FROM t -- c\n # d\n // e",
	"SELECT 'it''s', \"x\\\"y\", `a``b` FROM t",
	"SELECT CAST(a AS DATE), CONVERT(b, DECIMAL(10, 2)), CASE WHEN end THEN 1 END FROM t",
	"SELECT 12345678901234567890123456789012345678, -0.000001, 1.5e3 FROM t",
	"SELECT café, naïve FROM t\r\nWHERE x = '\xff'",
	"SELECT * FROM t WHERE (((((a)))))",
	"SELECT key, values, index, date, year FROM t WHERE status = 'x'",
	"SELECT @@x'y, @v FROM t",
	"(SELECT a FROM t)",
	"SELECT a FROM t WHERE b = 'unterminated",
	"SELECT `$path1`, a.b.c FROM t",
	"SELECT tags[99999999999999999999], m[x] FROM t",
	"SELECT \"status\", \"info\".\"rating\", \"tags\"[0], \"a.b\" FROM \"app\".\"GSI1\" AS \"x\" WHERE \"GSI1#PK\" = 'x' AND y IN ['a', \"b\"]",
	"SELECT \"a\"\"b\", \"c``d\"`e`, \"\" FROM t WHERE x IN [] OR y NOT IN ['a'",
	"DESCRIBE \"my-table\"; SHOW INDEXES FROM \"t\"\"\"; EXPLAIN \"x",
	"WITH a(x, y) AS (SELECT 1, 2), b AS (SELECT x FROM a UNION ALL SELECT y FROM a) SELECT * FROM b INTERSECT (SELECT 1) ORDER BY 1 DESC LIMIT 2, 3",
	"SELECT d.a.b.c FROM (SELECT m FROM (SELECT * FROM t) AS e) d JOIN u ON u.k = d.k EXCEPT ALL SELECT 1",
	"((SELECT a FROM t) UNION (SELECT b FROM u)) EXCEPT SELECT c FROM v LIMIT 1 OFFSET 2",
}

// FuzzParse checks that Parse never panics and that every error it returns
// is an *diag.Error with a usable position in the input.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		stmts, err := Parse(input)
		if err != nil {
			checkFuzzError(t, input, err)
		}
		checkFuzzStatements(t, input, stmts)
		checkFuzzPieces(t, input)
	})
}

func checkFuzzError(t *testing.T, input string, err error) {
	var e *diag.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v is not an *diag.Error", err, err)
	}
	switch e.Code {
	case diag.CodeSyntax, diag.CodeUnquotedHash, diag.CodeUnsupported:
	default:
		t.Fatalf("code %q", e.Code)
	}
	if strings.Contains(e.Msg, "internal parser error") || strings.Contains(e.Msg, "the SQL parser failed") {
		t.Fatalf("a panic was caught: %v", e)
	}
	lines := strings.Count(input, "\n") + 1
	if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Column < 1 || e.Pos.Offset < 0 || e.Pos.Offset > len(input) {
		t.Fatalf("position %d:%d offset %d out of range (%d lines, %d bytes)", e.Pos.Line, e.Pos.Column, e.Pos.Offset, lines, len(input))
	}
	line := strings.Split(input, "\n")[e.Pos.Line-1]
	if strings.TrimSuffix(line, "\r") != e.Pos.LineText {
		t.Fatalf("LineText %q, line is %q", e.Pos.LineText, line)
	}
	if e.Pos.Column > utf8.RuneCountInString(line)+1 {
		t.Fatalf("column %d beyond line %q", e.Pos.Column, line)
	}
	if e.Msg == "" || e.Error() == "" {
		t.Fatalf("empty message")
	}
}

func checkFuzzStatements(t *testing.T, input string, stmts []Statement) {
	prev := 0
	for _, st := range stmts {
		sp := st.Span()
		if sp.Start < prev || sp.End < sp.Start || sp.End > len(input) {
			t.Fatalf("span %v out of order or range (previous end %d)", sp, prev)
		}
		prev = sp.End
		var sel *Select
		switch s := st.(type) {
		case *Select:
			sel = s
		case *Explain:
			sel = s.Stmt
		}
		if sel == nil {
			continue
		}
		for _, leaf := range leafSelects(sel) {
			checkFuzzSelect(t, input, leaf)
		}
	}
}

// checkFuzzSelect checks one SELECT of a statement (a member, a CTE's or a
// derived table's).
func checkFuzzSelect(t *testing.T, input string, sel *Select) {
	{
		if sel.AST == nil || sel.Text != input[sel.Loc.Start:sel.Loc.End] {
			t.Fatalf("select text %q does not match its span %v", sel.Text, sel.Loc)
		}
		// A synthetic name never occurs in the text, so it cannot be a
		// user's name; and every synthetic-looking column is either one
		// of ours or spelled out by the user.
		lowText := strings.ToLower(sel.Text)
		for name, p := range sel.Paths {
			if len(p) == 0 || p[0].IsIndex || strings.Contains(lowText, strings.ToLower(name)) {
				t.Fatalf("path %q = %v is malformed or collides with the text", name, p)
			}
		}
		for _, c := range columns(sel) {
			if _, ours := sel.Paths[c.name]; !ours && strings.Contains(c.name, "$path") && !strings.Contains(sel.Text, strings.ReplaceAll(c.name, "`", "``")) {
				t.Fatalf("column %q looks synthetic but is not recorded", c.name)
			}
		}
		_ = sqlparser.String(sel.AST)
	}
}

func checkFuzzPieces(t *testing.T, input string) {
	prev := 0
	for _, p := range Split(input) {
		if p.Start < prev || p.Start+len(p.Text) > len(input) || input[p.Start:p.Start+len(p.Text)] != p.Text || p.Text == "" {
			t.Fatalf("piece %q at %d is not in the input after %d", p.Text, p.Start, prev)
		}
		prev = p.Start + len(p.Text)
	}
}
