package parser

import (
	"reflect"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// windowCall returns the synthetic call of select item k and its Window.
func windowCall(t *testing.T, sel *Select, k int) (*sqlparser.FuncExpr, *Window) {
	t.Helper()
	ae, ok := sel.AST.SelectExprs[k].(*sqlparser.AliasedExpr)
	if !ok {
		t.Fatalf("item %d is %T", k, sel.AST.SelectExprs[k])
	}
	fn, ok := ae.Expr.(*sqlparser.FuncExpr)
	if !ok {
		t.Fatalf("item %d is %T, want the synthetic call", k, ae.Expr)
	}
	w, ok := sel.Windows[fn.Name.String()]
	if !ok {
		t.Fatalf("item %d calls %s, which is not in Windows %v", k, fn.Name, sel.Windows)
	}
	return fn, w
}

func TestWindowRewrite(t *testing.T) {
	tests := []struct {
		in        string
		args      string // the synthetic call's arguments as sqlparser renders them
		partition int
		order     []WindowOrder
		frame     string
	}{
		{in: "SELECT ROW_NUMBER() OVER () FROM t", args: "ROW_NUMBER()"},
		{in: "SELECT rank() over (order by b desc) FROM t", args: "rank(), b", order: []WindowOrder{{Desc: true}}},
		{in: "SELECT SUM(x) OVER (PARTITION BY a, c ORDER BY b ASC NULLS LAST, d DESC NULLS FIRST) FROM t",
			args: "SUM(x), a, c, b, d", partition: 2, order: []WindowOrder{{Nulls: NullsLast}, {Desc: true, Nulls: NullsFirst}}},
		{in: "SELECT count(*) OVER (PARTITION BY status ORDER BY `date` ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM t",
			args: "count(*), `status`, `date`", partition: 1, order: []WindowOrder{{}}, frame: "ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING"},
		{in: "SELECT max(x) OVER (ORDER BY (a + b) * 2 RANGE UNBOUNDED PRECEDING) FROM t",
			args: "max(x), (a + b) * 2", order: []WindowOrder{{}}, frame: "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"},
		{in: "SELECT lag(x, 1, 'none') OVER (ORDER BY f(a, b) ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM t",
			args: "lag(x, 1, 'none'), f(a, b)", order: []WindowOrder{{}}, frame: "ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING"},
		{in: "SELECT SUM(COUNT(*)) OVER (ORDER BY g) FROM t GROUP BY g", args: "SUM(COUNT(*)), g", order: []WindowOrder{{}}},
		{in: "SELECT substring(s, 1, 2) OVER (ORDER BY s) FROM t", args: SubstringFunc + "(s, 1, 2), s", order: []WindowOrder{{}}},
		{in: "SELECT first_value(x) OVER (ORDER BY rows) FROM t", args: "first_value(x), rows", order: []WindowOrder{{}}},
		{in: "SELECT sum(x) OVER (ORDER BY b RANGE BETWEEN 1.5 PRECEDING AND 2 FOLLOWING) FROM t",
			args: "sum(x), b", order: []WindowOrder{{}}, frame: "RANGE BETWEEN 1.5 PRECEDING AND 2 FOLLOWING"},
		{in: "SELECT sum(x) OVER (ORDER BY b DESC RANGE 5 PRECEDING) FROM t",
			args: "sum(x), b", order: []WindowOrder{{Desc: true}}, frame: "RANGE BETWEEN 5 PRECEDING AND CURRENT ROW"},
		{in: "SELECT avg(x) OVER (ORDER BY b RANGE BETWEEN 1e1 PRECEDING AND .5 FOLLOWING) FROM t",
			args: "avg(x), b", order: []WindowOrder{{}}, frame: "RANGE BETWEEN 1e1 PRECEDING AND .5 FOLLOWING"},
	}
	for _, tt := range tests {
		sel := parseSelect1(t, tt.in)
		fn, w := windowCall(t, sel, 0)
		var args []string
		for _, a := range fn.Exprs {
			args = append(args, sqlparser.String(a))
		}
		if got := strings.Join(args, ", "); got != tt.args {
			t.Errorf("%s: arguments %q, want %q", tt.in, got, tt.args)
		}
		if w.Partition != tt.partition || !reflect.DeepEqual(w.Order, tt.order) {
			t.Errorf("%s: partition %d order %+v, want %d %+v", tt.in, w.Partition, w.Order, tt.partition, tt.order)
		}
		frame := ""
		if w.Frame != nil {
			frame = w.Frame.String()
		}
		if frame != tt.frame {
			t.Errorf("%s: frame %q, want %q", tt.in, frame, tt.frame)
		}
		if got := tt.in[w.Loc.Start:w.Loc.End]; !strings.HasPrefix(strings.ToUpper(got), "OVER (") || !strings.HasSuffix(got, ")") {
			t.Errorf("%s: Loc covers %q", tt.in, got)
		}
	}
}

func TestWindowPathsAndOrderBy(t *testing.T) {
	sel := parseSelect1(t, "SELECT a.b.c, RANK() OVER (PARTITION BY a.b.c ORDER BY tags[0]) AS r FROM t ORDER BY ROW_NUMBER() OVER (ORDER BY x), r")
	if len(sel.Windows) != 2 {
		t.Fatalf("Windows = %v, want 2", sel.Windows)
	}
	fn, _ := windowCall(t, sel, 1)
	if len(sel.Paths) != 2 {
		t.Fatalf("paths %v, want a.b.c and tags[0]", sel.Paths)
	}
	for _, a := range fn.Exprs[1:] {
		col, ok := a.(*sqlparser.AliasedExpr).Expr.(*sqlparser.ColName)
		if !ok {
			t.Fatalf("argument %s is not a column", sqlparser.String(a))
		}
		if _, ok := sel.Path(col); !ok {
			t.Errorf("argument %s is not a document path", sqlparser.String(a))
		}
	}
	ob, ok := sel.AST.OrderBy[0].Expr.(*sqlparser.FuncExpr)
	if !ok || sel.Windows[ob.Name.String()] == nil {
		t.Errorf("ORDER BY %s is not a window call", sqlparser.String(sel.AST.OrderBy[0]))
	}
	if got := sel.ItemTexts[1]; got != "RANK() OVER (PARTITION BY a.b.c ORDER BY tags[0])" {
		t.Errorf("item text %q", got)
	}
}

// A function the statement names cannot be taken for a window call.
func TestWindowNameCannotCollide(t *testing.T) {
	sel := parseSelect1(t, "SELECT ddbsql_over_1(x), ROW_NUMBER() OVER () FROM t")
	for name := range sel.Windows {
		if strings.EqualFold(name, "ddbsql_over_1") {
			t.Fatalf("window named %s, which the statement calls", name)
		}
	}
}

func TestWindowErrors(t *testing.T) {
	tests := []errCase{
		{name: "not after a call", input: "SELECT (a) OVER (ORDER BY b) FROM t", code: diag.CodeSyntax, line: 1, col: 12, msg: []string{"function call"}},
		{name: "empty partition", input: "SELECT rank() OVER (PARTITION BY ORDER BY b) FROM t", code: diag.CodeSyntax, line: 1, col: 34,
			msg: []string{"after PARTITION BY"}},
		{name: "empty order", input: "SELECT rank() OVER (ORDER BY) FROM t", code: diag.CodeSyntax, line: 1, col: 29, msg: []string{"after ORDER BY"}},
		{name: "order before partition", input: "SELECT rank() OVER (ORDER BY b PARTITION BY a) FROM t", code: diag.CodeSyntax, line: 1, col: 32,
			msg: []string{"PARTITION BY"}},
		{name: "base window", input: "SELECT rank() OVER (w ORDER BY b) FROM t", code: diag.CodeSyntax, line: 1, col: 21, msg: []string{"'w'"}},
		{name: "frame start after end", input: "SELECT sum(a) OVER (ORDER BY b\n  ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM t", code: diag.CodeSyntax,
			line: 2, col: 16, msg: []string{"starts after it ends"}},
		{name: "unbounded following start", input: "SELECT sum(a) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t",
			code: diag.CodeSyntax, line: 1, col: 34, msg: []string{"cannot start at UNBOUNDED FOLLOWING"}},
		{name: "unbounded preceding end", input: "SELECT sum(a) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED PRECEDING) FROM t",
			code: diag.CodeSyntax, line: 1, col: 50, msg: []string{"cannot end at UNBOUNDED PRECEDING"}},
		{name: "negative range offset", input: "SELECT sum(a) OVER (ORDER BY b RANGE BETWEEN -5 PRECEDING AND CURRENT ROW) FROM t",
			code: diag.CodeSyntax, line: 1, col: 46, msg: []string{"cannot be negative", "'-5'"}},
		{name: "negative rows offset", input: "SELECT sum(a) OVER (ORDER BY b ROWS -1 PRECEDING) FROM t",
			code: diag.CodeSyntax, line: 1, col: 37, msg: []string{"cannot be negative"}},
		{name: "hexadecimal range offset", input: "SELECT sum(a) OVER (ORDER BY b RANGE 0x10 PRECEDING) FROM t",
			code: diag.CodeSyntax, line: 1, col: 38, msg: []string{"decimal number"}},
		{name: "range offsets out of order", input: "SELECT sum(a) OVER (ORDER BY b RANGE BETWEEN 1 FOLLOWING AND 1.5 PRECEDING) FROM t",
			code: diag.CodeSyntax, line: 1, col: 46, msg: []string{"starts after it ends"}},
		{name: "groups", input: "SELECT sum(a) OVER (ORDER BY b GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
			code: diag.CodeUnsupported, line: 1, col: 32, msg: []string{"GROUPS"}},
		{name: "exclude", input: "SELECT sum(a) OVER (ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES) FROM t",
			code: diag.CodeUnsupported, line: 1, col: 62, msg: []string{"EXCLUDE"}},
		{name: "missing and", input: "SELECT sum(a) OVER (ROWS BETWEEN 1 PRECEDING CURRENT ROW) FROM t",
			code: diag.CodeSyntax, line: 1, col: 46, msg: []string{"expected AND"}},
		{name: "bad bound", input: "SELECT sum(a) OVER (ROWS BETWEEN 1 PRECEDING AND SOON) FROM t",
			code: diag.CodeSyntax, line: 1, col: 50, msg: []string{"frame bound"}},
		{name: "incomplete frame", input: "SELECT sum(a) OVER (ROWS BETWEEN 1 PRECEDING AND) FROM t",
			code: diag.CodeSyntax, line: 1, col: 49, msg: []string{"incomplete"}},
		{name: "fractional offset", input: "SELECT sum(a) OVER (ROWS 1.5 PRECEDING) FROM t",
			code: diag.CodeSyntax, line: 1, col: 26, msg: []string{"whole number"}},
		{name: "unclosed", input: "SELECT sum(a) OVER (ORDER BY b FROM t", code: diag.CodeSyntax, line: 1, col: 20, msg: []string{"closing parenthesis"}},
		{name: "no specification", input: "SELECT sum(a) OVER FROM t", code: diag.CodeUnsupported, line: 1, col: 15},
		{name: "error inside the spec", input: "SELECT sum(a) OVER (ORDER BY b +) FROM t", code: diag.CodeSyntax, line: 1, col: 33},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt) })
	}
}
