package eval

import (
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

const nines38 = "99999999999999999999999999999999999999"

func TestArithmetic(t *testing.T) {
	a := func(op expr.Op, l, r string) expr.Expr { return bop(op, litN(l), litN(r)) }
	runEval(t, []evalTest{
		// Integer fast path.
		{e: a(expr.OpAdd, "1", "2"), want: num("3")},
		{e: a(expr.OpSub, "1", "2"), want: num("-1")},
		{e: a(expr.OpMul, "-4", "25"), want: num("-100")},
		{e: a(expr.OpMul, "0", "-5"), want: num("0")},
		{e: a(expr.OpDiv, "6", "3"), want: num("2")},
		{e: a(expr.OpIntDiv, "7", "2"), want: num("3")},
		{e: a(expr.OpIntDiv, "-7", "2"), want: num("-3")},
		{e: a(expr.OpMod, "7", "3"), want: num("1")},
		{e: a(expr.OpMod, "-7", "3"), want: num("-1")},
		{e: a(expr.OpMod, "7", "-3"), want: num("1")},
		// int64 overflow falls through to exact decimals.
		{e: a(expr.OpAdd, "9223372036854775807", "1"), want: num("9223372036854775808")},
		{e: a(expr.OpSub, "-9223372036854775808", "1"), want: num("-9223372036854775809")},
		{e: a(expr.OpMul, "-9223372036854775808", "-1"), want: num("9223372036854775808")},
		{e: a(expr.OpMul, "4294967296", "4294967296"), want: num("18446744073709551616")},
		{e: a(expr.OpDiv, "-9223372036854775808", "-1"), want: num("9223372036854775808")},
		{e: a(expr.OpIntDiv, "-9223372036854775808", "-1"), want: num("9223372036854775808")},
		{e: a(expr.OpMod, "-9223372036854775808", "-1"), want: num("0")},
		// Exact decimals.
		{e: a(expr.OpAdd, "0.1", "0.2"), want: num("0.3")},
		{e: a(expr.OpMul, "-0.000001", "1"), want: num("-0.000001")},
		{name: "tiny column * 1", e: bop(expr.OpMul, col("tiny"), litN("1")), want: num("-0.000001")},
		{e: a(expr.OpMul, "1.5", "1.5"), want: num("2.25")},
		{e: a(expr.OpSub, "12.5", "12.5"), want: num("0")},
		{e: a(expr.OpAdd, nines38, "1"), want: num("1E+38")},
		{e: a(expr.OpAdd, "0.1", "0.00000000000000000000000000000000000001"), want: num("0.10000000000000000000000000000000000001")},
		{e: a(expr.OpMul, "1E+100", "1E+25"), want: num("1E+125")},
		{e: a(expr.OpMul, "1E-65", "1E-65"), want: num("1E-130")},
		{e: a(expr.OpMod, "5.5", "2"), want: num("1.5")},
		{e: a(expr.OpMod, "-5.5", "2"), want: num("-1.5")},
		{e: a(expr.OpIntDiv, "5.5", "2"), want: num("2")},
		{e: a(expr.OpIntDiv, "-5.5", "0.5"), want: num("-11")},
		// Division: exact when it fits, else 38 significant digits, half away from zero.
		{e: a(expr.OpDiv, "10", "4"), want: num("2.5")},
		{e: a(expr.OpDiv, "-7", "2"), want: num("-3.5")},
		{e: a(expr.OpDiv, "1", "8"), want: num("0.125")},
		{e: a(expr.OpDiv, "1", "3"), want: num("0." + strings.Repeat("3", 38))},
		{e: a(expr.OpDiv, "2", "3"), want: num("0." + strings.Repeat("6", 37) + "7")},
		{e: a(expr.OpDiv, "-2", "3"), want: num("-0." + strings.Repeat("6", 37) + "7")},
		{e: a(expr.OpDiv, nines38, "3"), want: num("33333333333333333333333333333333333333")},
		{e: a(expr.OpDiv, "1E+125", "1E+125"), want: num("1")},
		// Division and modulo by zero are NULL (MySQL).
		{e: a(expr.OpDiv, "1", "0"), want: missing()},
		{e: a(expr.OpDiv, "1.5", "0"), want: missing()},
		{e: a(expr.OpDiv, "0", "0"), want: missing()},
		{e: a(expr.OpMod, "5", "0"), want: missing()},
		{e: a(expr.OpMod, "5.5", "0"), want: missing()},
		{e: a(expr.OpIntDiv, "5", "0"), want: missing()},
		{e: a(expr.OpIntDiv, "5.5", "0"), want: missing()},
		// Beyond DynamoDB's numbers: overflow errors.
		{name: "sum of two 38-digit numbers", e: a(expr.OpAdd, nines38, "99999999999999999999999999999999999998"), code: diag.CodeOverflow},
		{name: "38 digits plus a fraction", e: a(expr.OpAdd, "12345678901234567890123456789012345678", "0.1"), code: diag.CodeOverflow},
		{name: "product of 38-digit columns", e: bop(expr.OpMul, col("big"), col("big")), code: diag.CodeOverflow},
		{name: "far exponents", e: a(expr.OpAdd, "1E+125", "1E-130"), code: diag.CodeOverflow},
		{name: "magnitude too large", e: a(expr.OpMul, "1E+125", "10"), code: diag.CodeOverflow},
		{name: "magnitude too small", e: a(expr.OpMul, "1E-130", "0.1"), code: diag.CodeOverflow},
		{name: "quotient too small", e: a(expr.OpDiv, "1E-130", "3"), code: diag.CodeOverflow},
		{name: "quotient too large", e: a(expr.OpDiv, "1E+125", "1E-10"), code: diag.CodeOverflow},
		{name: "integer quotient too long", e: a(expr.OpIntDiv, "1E+125", "1E-130"), code: diag.CodeOverflow},
		// NULL propagates before any type check.
		{e: bop(expr.OpAdd, litNull(), litN("1")), want: missing()},
		{e: bop(expr.OpMul, litN("1"), col("nope")), want: missing()},
		{e: bop(expr.OpDiv, col("nul"), litS("a")), want: missing()},
		// Other types are type errors.
		{e: bop(expr.OpAdd, col("status"), litN("1")), code: diag.CodeType},
		{e: bop(expr.OpMul, col("flag"), litN("2")), code: diag.CodeType},
		{e: bop(expr.OpSub, litN("2"), col("list")), code: diag.CodeType},
		{e: bop(expr.OpMod, litS("5"), litS("2")), code: diag.CodeType},
		{name: "comparison op is not arithmetic", e: expr.Binary{Op: expr.OpNot, L: litN("1"), R: litN("2")}, code: diag.CodeInternal},
		// Unary minus.
		{e: expr.Unary{Op: expr.OpNeg, X: litN("5")}, want: num("-5")},
		{e: expr.Unary{Op: expr.OpNeg, X: litN("-5")}, want: num("5")},
		{e: expr.Unary{Op: expr.OpNeg, X: litN("0")}, want: num("0")},
		{e: expr.Unary{Op: expr.OpNeg, X: col("tiny")}, want: num("0.000001")},
		{e: expr.Unary{Op: expr.OpNeg, X: col("nope")}, want: missing()},
		{e: expr.Unary{Op: expr.OpNeg, X: col("status")}, code: diag.CodeType},
	})
}

func TestArithmeticErrorMessages(t *testing.T) {
	row := fixture()
	_, err := Eval(bop(expr.OpAdd, col("status"), litN("1")), row)
	if err == nil || err.Error() != `"status + 1": + needs numbers, got S and N` || errCode(err) != diag.CodeType {
		t.Errorf("type error = %v", err)
	}
	_, err = Eval(bop(expr.OpAdd, litN(nines38), litN(nines38)), row)
	if err == nil || !strings.HasPrefix(err.Error(), `"`+nines38+" + "+nines38+`" exceeds DynamoDB's 38 significant digits`) || errCode(err) != diag.CodeOverflow {
		t.Errorf("overflow error = %v", err)
	}
	_, err = Eval(bop(expr.OpMul, litN("1E+125"), litN("10")), row)
	if err == nil || !strings.Contains(err.Error(), "largest number magnitude") {
		t.Errorf("magnitude error = %v", err)
	}
}
