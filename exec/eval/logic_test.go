package eval

import (
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

var (
	litT = lit(boolv(true))
	litF = lit(boolv(false))
	litU = litNull()
)

func truthLit(t Truth) expr.Expr {
	switch t {
	case True:
		return litT
	case False:
		return litF
	}
	return litU
}

func TestAndOrNotTruthTables(t *testing.T) {
	all := []Truth{True, False, Unknown}
	andWant := map[[2]Truth]Truth{
		{True, True}: True, {True, False}: False, {True, Unknown}: Unknown,
		{False, True}: False, {False, False}: False, {False, Unknown}: False,
		{Unknown, True}: Unknown, {Unknown, False}: False, {Unknown, Unknown}: Unknown,
	}
	orWant := map[[2]Truth]Truth{
		{True, True}: True, {True, False}: True, {True, Unknown}: True,
		{False, True}: True, {False, False}: False, {False, Unknown}: Unknown,
		{Unknown, True}: True, {Unknown, False}: Unknown, {Unknown, Unknown}: Unknown,
	}
	row := fixture()
	for _, a := range all {
		for _, b := range all {
			got, err := Test(bop(expr.OpAnd, truthLit(a), truthLit(b)), row)
			if err != nil || got != andWant[[2]Truth{a, b}] {
				t.Errorf("%s AND %s = %s, %v; want %s", a, b, got, err, andWant[[2]Truth{a, b}])
			}
			got, err = Test(bop(expr.OpOr, truthLit(a), truthLit(b)), row)
			if err != nil || got != orWant[[2]Truth{a, b}] {
				t.Errorf("%s OR %s = %s, %v; want %s", a, b, got, err, orWant[[2]Truth{a, b}])
			}
		}
		got, err := Test(expr.Unary{Op: expr.OpNot, X: truthLit(a)}, row)
		want := map[Truth]Truth{True: False, False: True, Unknown: Unknown}[a]
		if err != nil || got != want {
			t.Errorf("NOT %s = %s, %v; want %s", a, got, err, want)
		}
	}
}

func TestLogicValues(t *testing.T) {
	typeErr := bop(expr.OpAdd, litS("a"), litN("1")) // evaluating it fails
	runEval(t, []evalTest{
		{e: bop(expr.OpAnd, litT, litT), want: boolv(true)},
		{e: bop(expr.OpAnd, litT, litU), want: missing()},
		{e: bop(expr.OpOr, litF, litU), want: missing()},
		{e: expr.Unary{Op: expr.OpNot, X: litU}, want: missing()},
		{e: expr.Unary{Op: expr.OpNot, X: col("flag")}, want: boolv(false)},
		{e: expr.Unary{Op: expr.OpNot, X: col("nope")}, want: missing()},
		{name: "false AND error short-circuits", e: bop(expr.OpAnd, litF, typeErr), want: boolv(false)},
		{name: "true OR error short-circuits", e: bop(expr.OpOr, litT, typeErr), want: boolv(true)},
		{name: "true AND error fails", e: bop(expr.OpAnd, litT, typeErr), code: diag.CodeType},
		{name: "null AND false", e: bop(expr.OpAnd, litU, litF), want: boolv(false)},
		{name: "null OR true", e: bop(expr.OpOr, litU, litT), want: boolv(true)},
		{name: "number operand is MySQL truthy", e: bop(expr.OpAnd, col("total"), litT), want: boolv(true)},
		{name: "zero operand is false", e: bop(expr.OpOr, col("zero"), litF), want: boolv(false)},
		{name: "string operand is false", e: bop(expr.OpOr, col("status"), litF), want: boolv(false)},
	})
}

func TestTruthOf(t *testing.T) {
	tests := []struct {
		v    value.Value
		want Truth
	}{
		{boolv(true), True}, {boolv(false), False},
		{missing(), Unknown}, {null(), Unknown},
		{num("1"), True}, {num("-0.5"), True}, {num("0"), False},
		{value.NumTrusted("0.000"), False},
		{str("true"), False}, {str(""), False}, {bin(1), False},
		{list(boolv(true)), False}, {mapv(), False}, {set(value.StringSet, str("a")), False},
	}
	for _, tc := range tests {
		if got := TruthOf(tc.v); got != tc.want {
			t.Errorf("TruthOf(%s %s) = %s; want %s", tc.v.Kind(), tc.v.JSON(), got, tc.want)
		}
	}
	if True.String() != "TRUE" || False.String() != "FALSE" || Unknown.String() != "UNKNOWN" {
		t.Error("Truth.String")
	}
}

func TestTestPassesOnlyTrue(t *testing.T) {
	row := fixture()
	for _, tc := range []struct {
		e    expr.Expr
		want Truth
	}{
		{bop(expr.OpEq, col("status"), litS("REVIEW")), True},
		{bop(expr.OpEq, col("missing"), litS("REVIEW")), Unknown},
		{bop(expr.OpEq, col("status"), litS("DONE")), False},
		{col("flag"), True},
		{col("nul"), Unknown},
		{fn("begins_with", col("status"), litS("REV")), True},
		{fn("coalesce", col("nope"), litF), False},
	} {
		got, err := Test(tc.e, row)
		if err != nil || got != tc.want {
			t.Errorf("Test(%s) = %s, %v; want %s", tc.e, got, err, tc.want)
		}
	}
}
