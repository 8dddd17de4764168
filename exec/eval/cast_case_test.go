package eval

import (
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

func TestCast(t *testing.T) {
	toN := func(e expr.Expr) expr.Expr { return expr.Cast{X: e, To: value.Number} }
	toS := func(e expr.Expr) expr.Expr { return expr.Cast{X: e, To: value.String} }
	runEval(t, []evalTest{
		{e: toN(litS("42")), want: num("42")},
		{e: toN(litS(" -1.50 ")), want: num("-1.5")},
		{e: toN(litS("1e3")), want: num("1000")},
		{e: toN(litS("0.000001")), want: num("0.000001")},
		{e: toN(litS(nines38)), want: num(nines38)},
		{name: "39 digits is not a DynamoDB number", e: toN(litS(nines38 + "9")), want: missing()},
		{e: toN(litS("1E+126")), want: missing()},
		{name: "never rounded", e: toN(litS("1" + strings.Repeat("0", 84) + "1")), want: missing()},
		{e: toN(litS("1" + strings.Repeat("0", 84))), want: num("1E+84")},
		{e: toN(litS("+7")), want: num("7")},
		{e: toN(litS("-0.0")), want: num("0")},
		{e: toN(litS("1e-131")), want: missing()},
		{e: toN(litS("abc")), want: missing()},
		{e: toN(litS("")), want: missing()},
		{e: toN(litS("12abc")), want: missing()},
		{e: toN(litS("NaN")), want: missing()},
		{e: toN(litS("Infinity")), want: missing()},
		{e: toN(col("total")), want: num("150")},
		{e: toN(col("flag")), want: num("1")},
		{e: toN(col("off")), want: num("0")},
		{e: toN(col("bin")), want: missing()},
		{e: toN(col("list")), want: missing()},
		{e: toN(col("nope")), want: missing()},
		{e: toN(col("nul")), want: missing()},
		{e: toS(col("price")), want: str("12.5")},
		{e: toS(col("status")), want: str("REVIEW")},
		{e: toS(col("flag")), want: str("true")},
		{e: toS(col("off")), want: str("false")},
		{e: toS(col("bin")), want: str("\x01\x02\x03")},
		{e: toS(lit(list(num("1"), str("a")))), want: str(`[1,"a"]`)},
		{e: toS(col("nope")), want: missing()},
		{e: toS(typeErrExpr), code: diag.CodeType},
		{e: expr.Cast{X: litN("1"), To: value.Bool}, code: diag.CodeInternal},
	})
}

func TestCase(t *testing.T) {
	simple := func(op expr.Expr, els expr.Expr, whens ...expr.Expr) expr.Expr {
		c := expr.Case{Operand: op, Else: els}
		for i := 0; i < len(whens); i += 2 {
			c.Whens = append(c.Whens, expr.When{Cond: whens[i], Result: whens[i+1]})
		}
		return c
	}
	runEval(t, []evalTest{
		{e: simple(col("status"), litS("other"), litS("DONE"), litN("1"), litS("REVIEW"), litN("2")), want: num("2")},
		{e: simple(col("status"), litS("other"), litS("DONE"), litN("1")), want: str("other")},
		{e: simple(col("status"), nil, litS("DONE"), litN("1")), want: missing()},
		{name: "simple CASE: NULL never matches", e: simple(col("nope"), litS("else"), litNull(), litN("1")), want: str("else")},
		{name: "simple CASE: no coercion", e: simple(col("total"), litS("else"), litS("150"), litN("1")), want: str("else")},
		{name: "simple CASE: numeric equality", e: simple(col("price"), nil, litN("12.50"), litS("yes")), want: str("yes")},
		{e: simple(nil, litS("else"), bop(expr.OpGt, col("total"), litN("200")), litS("big"), bop(expr.OpGt, col("total"), litN("100")), litS("mid")), want: str("mid")},
		{name: "searched CASE: UNKNOWN is not TRUE", e: simple(nil, litS("else"), bop(expr.OpGt, col("nope"), litN("1")), litS("x")), want: str("else")},
		{name: "first match wins", e: simple(nil, nil, litT, litN("1"), litT, litN("2")), want: num("1")},
		{name: "untaken branches are not evaluated", e: simple(nil, typeErrExpr, litT, litN("1"), litT, typeErrExpr), want: num("1")},
		{e: simple(typeErrExpr, nil, litN("1"), litN("1")), code: diag.CodeType},
		{e: simple(col("total"), nil, typeErrExpr, litN("1")), code: diag.CodeType},
		{e: simple(nil, nil, typeErrExpr, litN("1")), code: diag.CodeType},
		{e: simple(nil, typeErrExpr, litF, litN("1")), code: diag.CodeType},
	})
}

func TestIsNull(t *testing.T) {
	T, F := boolv(true), boolv(false)
	isn := func(e expr.Expr, not bool) expr.Expr { return expr.IsNull{X: e, Not: not} }
	runEval(t, []evalTest{
		{e: isn(col("nope"), false), want: T},
		{e: isn(col("nul"), false), want: T},
		{e: isn(col("status"), false), want: F},
		{e: isn(col("nope"), true), want: F},
		{e: isn(col("nul"), true), want: F},
		{e: isn(col("zero"), true), want: T},
		{e: isn(bop(expr.OpEq, col("nope"), litN("1")), false), want: T},
		{e: isn(bop(expr.OpDiv, litN("1"), litN("0")), false), want: T},
		{e: isn(typeErrExpr, false), code: diag.CodeType},
	})
}
