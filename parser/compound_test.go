package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// shape renders a parsed query compactly: members as sqlparser prints
// them, set operations in brackets, CTEs and derived tables by name.
func shape(s *Select) string {
	if s.Query == nil {
		out := sqlparser.String(s.AST)
		for _, d := range s.Derived {
			out += " {" + d.Name + ": " + shape(d.Body) + "}"
		}
		return out
	}
	q := s.Query
	var sb strings.Builder
	for _, c := range q.With {
		fmt.Fprintf(&sb, "with %s", c.Name)
		if len(c.Columns) > 0 {
			fmt.Fprintf(&sb, "(%s)", strings.Join(c.Columns, ","))
		}
		fmt.Fprintf(&sb, " = <%s>; ", shape(c.Body))
	}
	sb.WriteString(shapeExpr(q.Body))
	for _, o := range q.OrderBy {
		fmt.Fprintf(&sb, " order %d%s desc=%v", o.Position, o.Name, o.Desc)
	}
	if q.Count >= 0 || q.Offset > 0 {
		fmt.Fprintf(&sb, " limit %d offset %d", q.Count, q.Offset)
	}
	return sb.String()
}

func shapeExpr(e QueryExpr) string {
	switch t := e.(type) {
	case *Select:
		if t.Query != nil {
			return "(" + shape(t) + ")"
		}
		return shape(t)
	case *SetOp:
		all := ""
		if t.All {
			all = " ALL"
		}
		return "[" + shapeExpr(t.Left) + " " + t.Op.String() + all + " " + shapeExpr(t.Right) + "]"
	}
	return "?"
}

func TestCompoundShapes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT a FROM t UNION SELECT b FROM u",
			"[select a from t UNION select b from u]"},
		{"SELECT a FROM t UNION ALL SELECT b FROM u EXCEPT SELECT c FROM v",
			"[[select a from t UNION ALL select b from u] EXCEPT select c from v]"},
		{"SELECT a FROM t UNION SELECT b FROM u INTERSECT SELECT c FROM v",
			"[select a from t UNION [select b from u INTERSECT select c from v]]"},
		{"SELECT a FROM t INTERSECT ALL SELECT b FROM u UNION DISTINCT SELECT c FROM v",
			"[[select a from t INTERSECT ALL select b from u] UNION select c from v]"},
		{"(SELECT a FROM t UNION SELECT b FROM u) INTERSECT SELECT c FROM v ORDER BY 1 DESC, a LIMIT 5 OFFSET 2",
			"[([select a from t UNION select b from u]) INTERSECT select c from v] order 1 desc=true order 0a desc=false limit 5 offset 2"},
		{"(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT b FROM u) LIMIT 2, 3",
			"[select a from t order by a asc limit 1 UNION select b from u] limit 3 offset 2"},
		{"WITH x AS (SELECT a FROM t), y(b, c) AS (SELECT a, a FROM x) SELECT * FROM y",
			"with x = <select a from t>; with y(b,c) = <select a, a from x>; select * from y"},
		{"WITH x AS (SELECT a FROM t UNION SELECT a FROM u) SELECT a FROM x EXCEPT SELECT a FROM v",
			"with x = <[select a from t UNION select a from u]>; [select a from x EXCEPT select a from v]"},
		{"SELECT d.a FROM (SELECT a FROM t) AS d",
			"select d.a from `$q1` as d {$q1: select a from t}"},
		{"SELECT * FROM u JOIN (SELECT a FROM t UNION SELECT b FROM v) d ON u.x = d.a",
			"select * from u join `$q1` as d on u.x = d.a {$q1: [select a from t UNION select b from v]}"},
		{"SELECT * FROM (SELECT * FROM (SELECT a FROM t) x) y, (SELECT 1) z",
			"select * from `$q1` as y, `$q2` as z {$q1: select * from `$q1` as x {$q1: select a from t}} {$q2: select 1 from dual}"},
		{"SELECT `$q1` FROM (SELECT a FROM t) d",
			"select `$q1` from `$$q1` as d {$$q1: select a from t}"},
		{"SELECT a FROM t WHERE except = 1", "select a from t where except = 1"},
	}
	for _, tt := range tests {
		sel := parseSelect1(t, tt.in)
		if got := shape(sel); got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// Paths, quoting and item texts work inside members, CTEs and derived tables.
func TestMembersKeepTheirRewrites(t *testing.T) {
	sel := parseSelect1(t, `WITH "my-cte" AS (SELECT info.a.b, tags[0] FROM "t-1") SELECT SUM(x) + 1 FROM "my-cte" UNION SELECT status FROM (SELECT "status" FROM t WHERE m.n.o = 'v') d`)
	q := sel.Query
	if q.With[0].Name != "my-cte" {
		t.Fatalf("CTE name %q", q.With[0].Name)
	}
	cte := q.With[0].Body
	if len(cte.Paths) != 2 {
		t.Errorf("CTE paths %v, want info.a.b and tags[0]", cte.Paths)
	}
	op := q.Body.(*SetOp)
	first := op.Left.(*Select)
	if len(first.ItemTexts) != 1 || first.ItemTexts[0] != "SUM(x) + 1" {
		t.Errorf("item texts %q", first.ItemTexts)
	}
	second := op.Right.(*Select)
	if second.Text != "SELECT status FROM (SELECT \"status\" FROM t WHERE m.n.o = 'v') d" {
		t.Errorf("member text %q", second.Text)
	}
	inner := second.Derived[0].Body
	if len(inner.Paths) != 1 {
		t.Errorf("derived paths %v", inner.Paths)
	}
}

// A derived table's column list is read into its CTE, nested ones too,
// and the positions of the rest of the statement stay exact.
func TestDerivedColumnList(t *testing.T) {
	sel := parseSelect1(t, "SELECT d.a FROM (SELECT x, y FROM (SELECT p FROM t) AS e(\"my col\")) AS d (a, `b`) WHERE d.b = 1")
	d := sel.Derived[0]
	if d.Alias != "d" || strings.Join(d.Columns, ",") != "a,b" {
		t.Fatalf("derived alias %q columns %q, want d and a,b", d.Alias, d.Columns)
	}
	e := d.Body.Derived[0]
	if e.Alias != "e" || strings.Join(e.Columns, ",") != "my col" {
		t.Errorf("nested derived alias %q columns %q, want e and my col", e.Alias, e.Columns)
	}
	last := parseSelect1(t, "SELECT d.a FROM (SELECT x FROM t) AS d(a);")
	if last.Text != "SELECT d.a FROM (SELECT x FROM t) AS d(a)" || last.Loc != (Span{0, len(last.Text)}) {
		t.Errorf("a column list at the end: text %q span %v, want the whole statement", last.Text, last.Loc)
	}
	plain := parseSelect1(t, "SELECT d.x FROM (SELECT x FROM t) d JOIN u ON u.k = d.x")
	if len(plain.Derived[0].Columns) != 0 {
		t.Errorf("columns %q without a column list", plain.Derived[0].Columns)
	}
	// The list is blanked out, so an error after it is where it was written.
	checkErr(t, errCase{name: "error after a column list", input: "SELECT * FROM (SELECT a FROM t) AS d(a) WHERE a = ) AND 1",
		code: diag.CodeSyntax, line: 1, col: 51})
}

func TestCompoundErrors(t *testing.T) {
	tests := []errCase{
		{name: "recursive", input: "WITH RECURSIVE x AS (SELECT 1) SELECT * FROM x", code: diag.CodeUnsupported, line: 1, col: 6,
			msg: []string{"WITH RECURSIVE is not supported"}},
		{name: "error inside a member", input: "SELECT a FROM t UNION\nSELECT b FORM u", code: diag.CodeSyntax, line: 2, col: 15},
		{name: "error inside a CTE", input: "WITH x AS (SELECT a FROM t WHERE) SELECT * FROM x", code: diag.CodeSyntax, line: 1, col: 33},
		{name: "empty derived column list", input: "SELECT 1 FROM (SELECT a FROM t) AS d()", code: diag.CodeSyntax, line: 1, col: 37,
			msg: []string{"column list of 'd' is empty"}},
		{name: "bad derived column list", input: "SELECT 1 FROM (SELECT a FROM t) AS d(a b)", code: diag.CodeSyntax, line: 1, col: 40,
			msg: []string{"unexpected 'b' in the column list of 'd'"}},
		{name: "unclosed derived column list", input: "SELECT 1 FROM (SELECT a FROM t) AS d(a, b", code: diag.CodeSyntax, line: 1, col: 37},
		{name: "error inside a derived table", input: "SELECT * FROM (SELECT a FROM t WHERE a = ) d", code: diag.CodeSyntax, line: 1, col: 41},
		{name: "order by before union", input: "SELECT a FROM t ORDER BY a UNION SELECT b FROM u", code: diag.CodeSyntax, line: 1, col: 17,
			msg: []string{"must be in parentheses"}},
		{name: "missing member", input: "SELECT a FROM t UNION", code: diag.CodeSyntax, msg: []string{"missing"}},
		{name: "compound order by expression", input: "SELECT a FROM t UNION SELECT b FROM u ORDER BY a + 1", code: diag.CodeUnsupported, line: 1, col: 48,
			msg: []string{"output columns"}},
		{name: "bad limit", input: "SELECT a FROM t UNION SELECT b FROM u LIMIT x", code: diag.CodeSyntax, line: 1, col: 45},
		{name: "twice defined", input: "WITH x AS (SELECT 1), X AS (SELECT 2) SELECT * FROM x", code: diag.CodeSyntax, line: 1, col: 23,
			msg: []string{"defined twice"}},
		{name: "no body", input: "WITH x AS (SELECT 1)", code: diag.CodeSyntax, msg: []string{"needs a SELECT"}},
		{name: "no AS", input: "WITH x (SELECT 1) SELECT 1", code: diag.CodeSyntax, line: 1, col: 9},
		{name: "union in a WHERE subquery", input: "SELECT * FROM t WHERE a IN (SELECT a FROM u UNION SELECT b FROM v)", code: diag.CodeUnsupported,
			line: 1, col: 45, msg: []string{"UNION inside a subquery"}},
		{name: "with in a WHERE subquery", input: "SELECT * FROM t WHERE a IN (WITH x AS (SELECT 1) SELECT * FROM x)", code: diag.CodeUnsupported,
			line: 1, col: 29, msg: []string{"WITH inside a subquery"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt) })
	}
}

func TestExplainCompound(t *testing.T) {
	for _, in := range []string{
		"EXPLAIN SELECT a FROM t UNION SELECT a FROM u",
		"EXPLAIN ANALYZE WITH x AS (SELECT a FROM t) SELECT * FROM x",
		"DESCRIBE SELECT * FROM (SELECT a FROM t) d",
	} {
		st, err := ParseOne(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		ex, ok := st.(*Explain)
		if !ok || ex.Stmt == nil || (ex.Stmt.Query == nil && len(ex.Stmt.Derived) == 0) {
			t.Errorf("%s: %#v", in, st)
		}
	}
}

// leafSelects lists the single SELECTs of a statement: its members, and
// those of its CTEs and derived tables.
func leafSelects(s *Select) []*Select {
	var out []*Select
	if s.Query == nil {
		out = append(out, s)
		for _, d := range s.Derived {
			out = append(out, leafSelects(d.Body)...)
		}
		return out
	}
	for _, c := range s.Query.With {
		out = append(out, leafSelects(c.Body)...)
	}
	var walk func(e QueryExpr)
	walk = func(e QueryExpr) {
		switch t := e.(type) {
		case *Select:
			out = append(out, leafSelects(t)...)
		case *SetOp:
			walk(t.Left)
			walk(t.Right)
		}
	}
	walk(s.Query.Body)
	return out
}

// Queries nested past MaxQueryNesting are a syntax error, found quickly.
func TestQueryNestingBound(t *testing.T) {
	deep := strings.Repeat("SELECT * FROM (", 2000) + "SELECT 1" + strings.Repeat(") d", 2000)
	e := parseError(t, deep)
	if e.Code != diag.CodeSyntax || !strings.Contains(e.Msg, "nested too deeply") {
		t.Errorf("got %v, want a syntax error about nesting", e)
	}
	ok := strings.Repeat("SELECT * FROM (", 20) + "SELECT 1 AS a" + strings.Repeat(") d", 20)
	if _, err := ParseOne(ok); err != nil {
		t.Errorf("20 levels: %v", err)
	}
}
