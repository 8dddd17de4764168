package planner

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestRejectsNull checks which predicates count as never TRUE on a row
// whose FROM item 1 is all NULL (a LEFT join's NULL-extended row), and
// that everything else — including what is in fact null-rejecting but not
// recognised — is refused.
func TestRejectsNull(t *testing.T) {
	a := func(name string) expr.Expr { return expr.Column{Source: 0, Path: value.Path{{Name: name}}} }
	b := func(name string) expr.Expr { return expr.Column{Source: 1, Path: value.Path{{Name: name}}} }
	bPath := expr.Column{Source: 1, Path: value.Path{{Name: "m"}, {Name: "x"}}}
	s := func(v string) expr.Expr { return expr.Literal{Value: value.Str(v)} }
	n := func(v string) expr.Expr { return expr.Literal{Value: value.NumTrusted(v)} }
	null := expr.Literal{Value: value.NullValue()}
	bin := func(op expr.Op, l, r expr.Expr) expr.Expr { return expr.Binary{Op: op, L: l, R: r} }
	fn := func(name string, args ...expr.Expr) expr.Expr { return expr.Func{Name: name, Args: args} }
	not := func(x expr.Expr) expr.Expr { return expr.Unary{Op: expr.OpNot, X: x} }

	cases := []struct {
		name string
		e    expr.Expr
		want bool
	}{
		{"equality with a literal", bin(expr.OpEq, b("k"), s("x")), true},
		{"literal first", bin(expr.OpLt, n("3"), b("n")), true},
		{"<> is UNKNOWN on NULL too", bin(expr.OpNe, b("k"), s("x")), true},
		{"join equality with the preserved side", bin(expr.OpEq, a("k"), b("k")), true},
		{"nested path", bin(expr.OpEq, bPath, s("x")), true},
		{"arithmetic over the column", bin(expr.OpGt, bin(expr.OpAdd, b("n"), n("1")), n("5")), true},
		{"unary minus", bin(expr.OpGt, expr.Unary{Op: expr.OpNeg, X: b("n")}, n("5")), true},
		{"IN", expr.In{X: b("k"), List: []expr.Expr{s("x"), s("y")}}, true},
		{"NOT IN", expr.In{X: b("k"), List: []expr.Expr{s("x")}, Not: true}, true},
		{"BETWEEN", expr.Between{X: b("n"), Lo: n("1"), Hi: n("2")}, true},
		{"NOT BETWEEN", expr.Between{X: b("n"), Lo: n("1"), Hi: n("2"), Not: true}, true},
		{"LIKE", expr.Like{X: b("k"), Pattern: s("a%")}, true},
		{"NOT LIKE", expr.Like{X: b("k"), Pattern: s("a%"), Not: true}, true},
		{"IS NOT NULL", expr.IsNull{X: b("k"), Not: true}, true},
		{"begins_with", fn("begins_with", b("k"), s("a")), true},
		{"contains", fn("contains", b("tags"), s("a")), true},
		{"NOT of a comparison", not(bin(expr.OpEq, b("k"), s("x"))), true},
		{"AND with one rejecting side", bin(expr.OpAnd, expr.IsNull{X: a("k")}, bin(expr.OpEq, b("k"), s("x"))), true},
		{"OR of rejecting sides", bin(expr.OpOr, bin(expr.OpEq, b("k"), s("x")), bin(expr.OpGt, b("n"), n("1"))), true},

		{"IS NULL", expr.IsNull{X: b("k")}, false},
		{"OR with a non-rejecting branch", bin(expr.OpOr, bin(expr.OpEq, b("k"), s("x")), expr.IsNull{X: b("k")}), false},
		{"OR with a branch on another table", bin(expr.OpOr, bin(expr.OpEq, b("k"), s("x")), bin(expr.OpEq, a("k"), s("x"))), false},
		{"COALESCE", bin(expr.OpEq, fn("coalesce", b("k"), s("x")), s("x")), false},
		{"CASE", bin(expr.OpEq, expr.Case{Whens: []expr.When{{Cond: expr.IsNull{X: b("k")}, Result: s("x")}}, Else: b("k")}, s("x")), false},
		{"NOT begins_with is TRUE on NULL", not(fn("begins_with", b("k"), s("a"))), false},
		{"NOT IS NULL written as NOT", not(expr.IsNull{X: b("k")}), false},
		{"only the other table", bin(expr.OpEq, a("k"), s("x")), false},
		{"the column only in the IN list", expr.In{X: s("x"), List: []expr.Expr{b("k"), s("y")}}, false},
		{"a function of the column", bin(expr.OpEq, fn("lower", b("k")), s("x")), false},
		{"a bare column as a condition", b("flag"), false},
		{"attribute_not_exists", fn("attribute_not_exists", b("k")), false},
		{"comparison with NULL only on the other side", bin(expr.OpEq, a("k"), null), false},
	}
	for _, tc := range cases {
		if got := rejectsNull(tc.e, ofSource(1)); got != tc.want {
			t.Errorf("%s: rejectsNull(%s) = %v, want %v", tc.name, tc.e, got, tc.want)
		}
	}

	// ofAttr: only the named top-level attribute of the source counts.
	if !rejectsNull(bin(expr.OpEq, bPath, s("x")), ofAttr(1, "m")) {
		t.Error("m.x = 'x' must require m")
	}
	if rejectsNull(bin(expr.OpEq, b("k"), s("x")), ofAttr(1, "m")) {
		t.Error("k = 'x' does not require m")
	}
	if rejectsNull(bin(expr.OpEq, a("m"), s("x")), ofAttr(1, "m")) {
		t.Error("a condition on another source's m does not require source 1's m")
	}
}
