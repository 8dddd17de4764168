package eval

import (
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

func TestLeaves(t *testing.T) {
	runEval(t, []evalTest{
		{name: "top-level attribute", e: col("status"), want: str("REVIEW")},
		{name: "missing attribute", e: col("nope"), want: missing()},
		{name: "DynamoDB NULL", e: col("nul"), want: null()},
		{name: "map member", e: col("info", "city"), want: str("Kyoto")},
		{name: "list element", e: col("list", 1), want: num("1")},
		{name: "list element out of range", e: col("list", 9), want: missing()},
		{name: "path through a scalar", e: col("status", "x"), want: missing()},
		{name: "second FROM item absent", e: colOf(1, "status"), want: missing()},
		{name: "literal", e: litN("1.50"), want: num("1.5")},
		{name: "ref", e: expr.Ref{Index: 1}, want: str("r1")},
		{name: "pointer node", e: &expr.Binary{Op: expr.OpAdd, L: litN("1"), R: litN("2")}, want: num("3")},
		{name: "pointer leaf", e: &expr.Literal{Value: str("x")}, want: str("x")},
		{name: "aggregate is internal", e: expr.Aggregate{Func: "sum", Arg: col("total")}, code: diag.CodeInternal},
		{name: "nil pointer node", e: (*expr.Binary)(nil), code: diag.CodeInternal},
		{name: "column without path", e: expr.Column{}, code: diag.CodeInternal},
		{name: "unknown unary", e: expr.Unary{Op: expr.OpAdd, X: litN("1")}, code: diag.CodeInternal},
	})
}

func TestMultipleSources(t *testing.T) {
	row := testRow{items: []value.Value{mapv("a", num("1")), mapv("a", num("2"))}}
	got, err := Eval(bop(expr.OpAdd, col("a"), colOf(1, "a")), row)
	if err != nil || got.Text() != "3" {
		t.Fatalf("got %v, %v", got.JSON(), err)
	}
}

func TestNilExpression(t *testing.T) {
	if _, err := Eval(nil, fixture()); errCode(err) != diag.CodeInternal {
		t.Fatalf("Eval(nil) err = %v", err)
	}
}

func TestErrorText(t *testing.T) {
	_, err := Eval(bop(expr.OpMul, col("big"), col("big")), fixture())
	if err == nil || !strings.HasPrefix(err.Error(), `"big * big" exceeds DynamoDB's 38 significant digits`) || errCode(err) != diag.CodeOverflow {
		t.Fatalf("err = %v", err)
	}
}
