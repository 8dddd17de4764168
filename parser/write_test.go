package parser

import (
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestUpdateStatement(t *testing.T) {
	in := "UPDATE \"my-t\" AS u SET a = 1, b = b + 1, doc.x[0].y = 'z', status = \"other\", u.c = NULL\n WHERE PK = 'x' AND status = 'open'"
	st, err := ParseOne(in)
	if err != nil {
		t.Fatal(err)
	}
	u, ok := st.(*Update)
	if !ok {
		t.Fatalf("got %T", st)
	}
	if u.Table != "my-t" || u.Alias != "u" || u.Loc != (Span{0, len(in)}) || u.Text != in {
		t.Errorf("table %q alias %q loc %v", u.Table, u.Alias, u.Loc)
	}
	want := []string{"a = 1", "b = b + 1", "doc.x[0].y = 'z'", "`status` = other", "u.c = null"}
	if len(u.Sets) != len(want) {
		t.Fatalf("%d sets, want %d", len(u.Sets), len(want))
	}
	for i, s := range u.Sets {
		target := sqlparser.String(s.Target)
		if p, ok := u.Read.Path(s.Target); ok {
			target = p.String()
		}
		if got := target + " = " + sqlparser.String(s.Expr); got != want[i] {
			t.Errorf("set %d: %s, want %s", i, got, want[i])
		}
	}
	// "other" is a name (PartiQL quoting), as in a SELECT.
	if c, ok := u.Sets[3].Expr.(*sqlparser.ColName); !ok || c.Name.String() != "other" {
		t.Errorf("\"other\" read as %T", u.Sets[3].Expr)
	}
	if got := sqlparser.String(u.Read.AST); got != "select * from `my-t` as u where PK = 'x' and `status` = 'open'" {
		t.Errorf("read: %s", got)
	}
}

func TestDeleteAndInsertStatements(t *testing.T) {
	st, err := ParseOne("DELETE FROM data WHERE PK = 'a' AND tags[1] = 'x'")
	if err != nil {
		t.Fatal(err)
	}
	d := st.(*Delete)
	if d.Table != "data" || len(d.Read.Paths) != 1 {
		t.Errorf("delete: %+v", d)
	}
	st, err = ParseOne("INSERT INTO t (PK, \"SK\", `status`) VALUES ('a', 'b', 1), ('c', 'd', 2 + 3)")
	if err != nil {
		t.Fatal(err)
	}
	ins := st.(*Insert)
	if ins.Replace || ins.Table != "t" || len(ins.Values) != 2 || ins.Query != nil {
		t.Errorf("insert: %+v", ins)
	}
	if got := sqlparser.String(ins.Values[1][2]); got != "2 + 3" {
		t.Errorf("value: %s", got)
	}
	if len(ins.Columns) != 3 || ins.Columns[1] != "SK" || ins.Columns[2] != "status" {
		t.Errorf("columns: %q", ins.Columns)
	}
	st, err = ParseOne("REPLACE INTO t (a, b) WITH q AS (SELECT 1 AS a, 2 AS b) SELECT * FROM q")
	if err != nil {
		t.Fatal(err)
	}
	ins = st.(*Insert)
	if !ins.Replace || ins.Query == nil || ins.Query.Query == nil || len(ins.Columns) != 2 {
		t.Errorf("replace: %+v", ins)
	}
	st, err = ParseOne("EXPLAIN DELETE FROM t WHERE PK = 'x'")
	if err != nil {
		t.Fatal(err)
	}
	if e := st.(*Explain); e.Stmt != nil || !IsWrite(e.Write) {
		t.Errorf("explain: %+v", e)
	}
}

func TestWriteErrors(t *testing.T) {
	tests := []errCase{
		{name: "update syntax", input: "UPDATE t SET a = WHERE PK = 'x'", code: diag.CodeSyntax, line: 1, col: 18},
		{name: "hash in update", input: "UPDATE t SET a = 1 WHERE GSI1#PK = 'x'", code: diag.CodeUnquotedHash, line: 1, col: 26},
		{name: "row length", input: "INSERT INTO t (a, b) VALUES (1, 2), (3)", code: diag.CodeInvalid, msg: []string{"row 2 of VALUES has 1 values for 2 attributes"}},
		{name: "path column", input: "INSERT INTO t (a.b) VALUES (1)", code: diag.CodeUnsupported, line: 1, col: 16, msg: []string{"top-level attributes"}},
		{name: "twice", input: "INSERT INTO t (a, a) VALUES (1, 2)", code: diag.CodeInvalid, line: 1, col: 19},
		{name: "no into", input: "INSERT t (a) VALUES (1)", code: diag.CodeSyntax, line: 1, col: 8},
		{name: "insert into index", input: "INSERT INTO t.i (a) VALUES (1)", code: diag.CodeUnsupported, line: 1, col: 14},
		{name: "delete limit", input: "DELETE FROM t WHERE PK = 'a' LIMIT 1", code: diag.CodeUnsupported, msg: []string{"LIMIT"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt) })
	}
}
