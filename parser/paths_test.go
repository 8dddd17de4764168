package parser

import (
	"reflect"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func name(n string) PathElem { return PathElem{Name: n} }
func idx(i int) PathElem     { return PathElem{Index: i, IsIndex: true} }

// pathsIn returns the recorded paths of the synthetic columns in the AST, in
// walk order.
func pathsIn(t *testing.T, sel *Select) []Path {
	t.Helper()
	var out []Path
	for _, c := range columns(sel) {
		if p, ok := sel.Paths[c.name]; ok && c.qualifier == "" {
			out = append(out, p)
		}
	}
	return out
}

func TestDocumentPaths(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []Path // in AST walk order (select list, FROM, WHERE, GROUP BY, HAVING, ORDER BY…)
	}{
		{"three parts", "SELECT a.b.c FROM t", []Path{{name("a"), name("b"), name("c")}}},
		{"four parts", "SELECT a.b.c.d FROM t", []Path{{name("a"), name("b"), name("c"), name("d")}}},
		{"index", "SELECT tags[0] FROM t", []Path{{name("tags"), idx(0)}}},
		{"index then member", "SELECT a.b[2].c FROM t", []Path{{name("a"), name("b"), idx(2), name("c")}}},
		{"nested indexes", "SELECT m[1][22] FROM t", []Path{{name("m"), idx(1), idx(22)}}},
		{"backticked parts", "SELECT `info`.`x-y`[1] FROM t", []Path{{name("info"), name("x-y"), idx(1)}}},
		{"part with a dot", "SELECT info.`a.b`.c FROM t", []Path{{name("info"), name("a.b"), name("c")}}},
		{"part with a backtick", "SELECT info.`a``b`.c FROM t", []Path{{name("info"), name("a`b"), name("c")}}},
		{"keyword parts keep case", "SELECT Data.Status.Key FROM t", []Path{{name("Data"), name("Status"), name("Key")}}},
		{"reserved word part", "SELECT a.from.c FROM t", []Path{{name("a"), name("from"), name("c")}}},
		{"spaces between parts", "SELECT a . b . c, x [ 3 ] FROM t", []Path{{name("a"), name("b"), name("c")}, {name("x"), idx(3)}}},
		{"where", "SELECT * FROM t WHERE info.rating.imdb > 5 AND tags[1] = 'x'",
			[]Path{{name("info"), name("rating"), name("imdb")}, {name("tags"), idx(1)}}},
		{"order and group by", "SELECT COUNT(*) FROM t GROUP BY a.b.c ORDER BY x[0] DESC",
			[]Path{{name("a"), name("b"), name("c")}, {name("x"), idx(0)}}},
		{"function arguments", "SELECT size(a.b.c) FROM t WHERE begins_with(m[0].sk, 'DOC#') AND attribute_exists(p.q.r)",
			[]Path{{name("a"), name("b"), name("c")}, {name("m"), idx(0), name("sk")}, {name("p"), name("q"), name("r")}}},
		{"in, between, case", "SELECT CASE a.b.c WHEN 1 THEN x[0] END FROM t WHERE l[0] IN (1, 2) AND n.o.p BETWEEN 1 AND 2",
			[]Path{{name("a"), name("b"), name("c")}, {name("x"), idx(0)}, {name("l"), idx(0)}, {name("n"), name("o"), name("p")}}},
		{"join on", "SELECT * FROM t JOIN u ON t.a.b = u.c[0]",
			[]Path{{name("t"), name("a"), name("b")}, {name("u"), name("c"), idx(0)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel := parseSelect1(t, tt.input)
			got := pathsIn(t, sel)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("paths %v, want %v\nAST: %s", got, tt.want, sqlparser.String(sel.AST))
			}
		})
	}
}

func TestTwoPartNamesStayQualified(t *testing.T) {
	sel := parseSelect1(t, "SELECT info.rating, `info`.`x-y`, t.status FROM t WHERE info.rating > 1")
	if len(sel.Paths) != 0 {
		t.Errorf("Paths = %v, want none", sel.Paths)
	}
	want := []col{{"info", "rating"}, {"info", "x-y"}, {"t", "status"}, {"info", "rating"}}
	if got := columns(sel); !reflect.DeepEqual(got, want) {
		t.Errorf("columns %v, want %v", got, want)
	}
}

func TestBacktickedSpecialNames(t *testing.T) {
	sel := parseSelect1(t, "SELECT `GSI1#PK`, `my-attr`, `a.b` FROM t WHERE `GSI1#PK` = 'x'")
	for _, n := range []string{"GSI1#PK", "my-attr", "a.b"} {
		if !hasColumn(sel, n) {
			t.Errorf("no column %q in %v", n, columns(sel))
		}
	}
	if len(sel.Paths) != 0 {
		t.Errorf("`a.b` is one attribute, not a path: %v", sel.Paths)
	}
}

func TestSamePathSameColumn(t *testing.T) {
	sel := parseSelect1(t, "SELECT a.b.c FROM t WHERE a.b.c > 1 ORDER BY a . b . c")
	if len(sel.Paths) != 1 {
		t.Fatalf("Paths = %v, want one", sel.Paths)
	}
	cols := columns(sel)
	if len(cols) != 3 || cols[0] != cols[1] || cols[1] != cols[2] {
		t.Errorf("columns %v, want the same synthetic name three times", cols)
	}
	p, ok := sel.Path(&sqlparser.ColName{Name: sqlparser.NewColIdent(cols[0].name)})
	if !ok || p.String() != "a.b.c" {
		t.Errorf("Select.Path = %v, %v", p, ok)
	}
}

func TestNotRewritten(t *testing.T) {
	tests := []struct{ name, input string }{
		{"string literals", "SELECT 'a.b.c.d' FROM t WHERE x = 'm[1].n'"},
		{"quoted names", "SELECT \"tags[0]\", `a.b.c`, \"x.y.z\" FROM t"},
		{"table with index", "SELECT * FROM `app`.`GSI1`"},
		{"table and join", "SELECT * FROM app a JOIN other b ON a.id = b.id"},
		{"star", "SELECT t.* FROM t"},
		{"comment", "SELECT x /* a.b.c[0] */ FROM t -- d.e.f[1]"},
		{"index hint", "SELECT * FROM t USE INDEX (GSI1) WHERE x = 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel := parseSelect1(t, tt.input)
			if len(sel.Paths) != 0 {
				t.Errorf("Paths = %v, want none", sel.Paths)
			}
		})
	}
	sel := parseSelect1(t, "SELECT * FROM `app`.`GSI1`")
	tn := sel.AST.From[0].(*sqlparser.AliasedTableExpr).Expr.(sqlparser.TableName)
	if table, index := TableRef(tn); table != "app" || index != "GSI1" {
		t.Errorf("TableRef = %q, %q", table, index)
	}
}

func TestPathsNotInTableOrAliasPositions(t *testing.T) {
	// A path where a table or an alias belongs is an error, not a table
	// named after a synthetic column.
	for _, in := range []string{
		"SELECT * FROM a.b.c",
		"SELECT * FROM t JOIN a.b.c ON x = y",
		"SELECT * FROM t, a[0]",
		"SELECT x AS a.b.c FROM t",
		"SELECT * FROM t USE INDEX (a.b.c)",
	} {
		e := parseError(t, in)
		if e.Code != diag.CodeSyntax {
			t.Errorf("%q: code %q", in, e.Code)
		}
	}
}

func TestSyntheticNamesCannotCollide(t *testing.T) {
	sel := parseSelect1(t, "SELECT `$path1`, `$$path1`, a.b.c FROM t")
	if len(sel.Paths) != 1 {
		t.Fatalf("Paths = %v", sel.Paths)
	}
	for synthetic := range sel.Paths {
		if synthetic == "$path1" || synthetic == "$$path1" || !strings.HasPrefix(synthetic, "$$$path") {
			t.Errorf("synthetic name %q collides or is not fresh", synthetic)
		}
	}
	for _, n := range []string{"$path1", "$$path1"} {
		if !hasColumn(sel, n) {
			t.Errorf("user column %q lost: %v", n, columns(sel))
		}
	}
	// sqlparser compares column names ignoring case, so must the check.
	sel = parseSelect1(t, "SELECT `$PATH1`, a.b.c FROM t")
	if _, ok := sel.Paths["$$path1"]; !ok {
		t.Errorf("Paths = %v, want $$path1", sel.Paths)
	}
}

// A rewrite next to a backticked name must not merge with it: `a“b` is one
// name with a backtick in it.
func TestRewriteNextToBacktick(t *testing.T) {
	sel := parseSelect1(t, "SELECT tags[0]`x`, `y`Status FROM t")
	if len(sel.Paths) != 1 {
		t.Fatalf("Paths = %v", sel.Paths)
	}
	for i, want := range []string{"x", "Status"} {
		if got := sel.AST.SelectExprs[i].(*sqlparser.AliasedExpr).As.String(); got != want {
			t.Errorf("alias %d = %q, want %q", i, got, want)
		}
	}
}

func TestRender(t *testing.T) {
	sel := parseSelect1(t, "SELECT info.rating.imdb, `x-y`[0].`a b` FROM t WHERE tags[1] = 'a' AND status = 1")
	if got, want := sel.Render(sel.AST), "select info.rating.imdb, `x-y`[0].`a b` from t where tags[1] = 'a' and `status` = 1"; got != want {
		t.Errorf("Render(AST)\n got %s\nwant %s", got, want)
	}
	if got := sel.Render(sel.AST.Where.Expr); got != "tags[1] = 'a' and `status` = 1" {
		t.Errorf("Render(WHERE) = %s", got)
	}
}
