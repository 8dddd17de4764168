package eval

import (
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

var typeErrExpr = bop(expr.OpAdd, litS("a"), litN("1")) // evaluating it is a type error

func TestStringFunctions(t *testing.T) {
	runEval(t, []evalTest{
		{e: fn("lower", litS("ÀBC Zoë")), want: str("àbc zoë")},
		{e: fn("upper", col("name")), want: str("ZOË")},
		{name: "lower of a number", e: fn("lower", col("price")), want: str("12.5")},
		{e: fn("lower", col("nope")), want: missing()},
		{e: fn("upper", col("nul")), want: missing()},
		{e: fn("lower", col("flag")), code: diag.CodeType},
		{e: fn("upper", col("bin")), code: diag.CodeType},
		{e: fn("length", col("name")), want: num("4")},
		{e: fn("char_length", col("name")), want: num("3")},
		{e: fn("character_length", litS("日本語")), want: num("3")},
		{e: fn("length", litS("日本語")), want: num("9")},
		{e: fn("length", col("total")), want: num("3")},
		{e: fn("length", col("empty")), want: num("0")},
		{e: fn("char_length", col("nope")), want: missing()},
		{e: fn("length", col("tags")), code: diag.CodeType},
		// SUBSTRING, MySQL's documented examples and edges.
		{e: fn("substring", litS("Quadratically"), litN("5")), want: str("ratically")},
		{e: fn("substring", litS("Quadratically"), litN("5"), litN("6")), want: str("ratica")},
		{e: fn("substring", litS("Sakila"), litN("-3")), want: str("ila")},
		{e: fn("substring", litS("Sakila"), litN("-5"), litN("3")), want: str("aki")},
		{e: fn("substr", litS("Sakila"), litN("1"), litN("100")), want: str("Sakila")},
		{e: fn("substring", litS("Sakila"), litN("0")), want: str("")},
		{e: fn("substring", litS("abc"), litN("4")), want: str("")},
		{e: fn("substring", litS("abc"), litN("-4")), want: str("")},
		{e: fn("substring", litS("abc"), litN("2"), litN("0")), want: str("")},
		{e: fn("substring", litS("abc"), litN("2"), litN("-1")), want: str("")},
		{e: fn("substring", litS("日本語"), litN("2"), litN("1")), want: str("本")},
		{e: fn("substring", col("name"), litN("-1")), want: str("ë")},
		{e: fn("substring", litS("abc"), litN("1.5")), want: str("bc")},
		{e: fn("substring", litS("abc"), litN("1"), litN("1.5")), want: str("ab")},
		{e: fn("substring", litS("abc"), litN("1E+30")), want: str("")},
		{e: fn("substring", litS("abc"), litN("-1E+30")), want: str("")},
		{e: fn("substring", litN("12345"), litN("2"), litN("3")), want: str("234")},
		{e: fn("substring", col("nope"), litN("1")), want: missing()},
		{e: fn("substring", litS("abc"), litNull()), want: missing()},
		{e: fn("substring", litS("abc"), litN("1"), litNull()), want: missing()},
		{e: fn("substring", litS("abc"), litS("1")), code: diag.CodeType},
		{e: fn("substring", litS("abc"), litN("1"), litS("1")), code: diag.CodeType},
		{e: fn("substring", col("bin"), litN("1")), code: diag.CodeType},
		{e: fn("substring", typeErrExpr, litN("1")), code: diag.CodeType},
		// CONCAT.
		{e: fn("concat", litS("a"), litS("b"), litS("c")), want: str("abc")},
		{e: fn("concat", litS("n="), col("price")), want: str("n=12.5")},
		{e: fn("concat", col("total")), want: str("150")},
		{e: fn("concat", litS("a"), litNull()), want: missing()},
		{e: fn("concat", litS("a"), col("nope"), litS("b")), want: missing()},
		{e: fn("concat", litS("a"), col("flag")), code: diag.CodeType},
		{e: fn("concat", litS("a"), typeErrExpr), code: diag.CodeType},
	})
}

func TestNumericFunctions(t *testing.T) {
	runEval(t, []evalTest{
		{e: fn("abs", litN("-1.5")), want: num("1.5")},
		{e: fn("abs", litN("2")), want: num("2")},
		{e: fn("abs", litN("0")), want: num("0")},
		{e: fn("abs", litN("-"+nines38)), want: num(nines38)},
		{e: fn("abs", col("nope")), want: missing()},
		{e: fn("abs", litS("-1")), code: diag.CodeType},
		{e: fn("round", litN("2.5")), want: num("3")},
		{e: fn("round", litN("-2.5")), want: num("-3")},
		{e: fn("round", litN("2.4")), want: num("2")},
		{e: fn("round", litN("-0.4")), want: num("0")},
		{e: fn("round", litN("1.2345"), litN("2")), want: num("1.23")},
		{e: fn("round", litN("1.235"), litN("2")), want: num("1.24")},
		{e: fn("round", litN("-1.235"), litN("2")), want: num("-1.24")},
		{e: fn("round", litN("1234.5"), litN("-2")), want: num("1200")},
		{e: fn("round", litN("1250"), litN("-2")), want: num("1300")},
		{e: fn("round", litN("-1250"), litN("-2")), want: num("-1300")},
		{e: fn("round", litN("49"), litN("-2")), want: num("0")},
		{e: fn("round", litN("500"), litN("-3")), want: num("1000")},
		{e: fn("round", litN("51"), litN("-3")), want: num("0")},
		{e: fn("round", litN("5"), litN("2")), want: num("5")},
		{e: fn("round", litN("1.5"), litN("10")), want: num("1.5")},
		{e: fn("round", litN("0.000001"), litN("3")), want: num("0")},
		{e: fn("round", litN("9.99"), litN("1")), want: num("10")},
		{e: fn("round", litN("1.25"), litN("1.4")), want: num("1.3")},
		{e: fn("round", litN("1.25"), litN("1E+20")), want: num("1.25")},
		{e: fn("round", litN("1.25"), litN("-1E+20")), want: num("0")},
		{e: fn("round", litN(nines38), litN("-1")), want: num("1E+38")},
		{e: fn("round", litN("0."+nines38)), want: num("1")},
		{e: fn("round", litN("9.5E+125"), litN("-125")), code: diag.CodeOverflow},
		{e: fn("round", col("nope")), want: missing()},
		{e: fn("round", litN("1"), litNull()), want: missing()},
		{e: fn("round", litS("1")), code: diag.CodeType},
		{e: fn("round", litN("1"), litS("1")), code: diag.CodeType},
	})
}

func TestNullFunctions(t *testing.T) {
	runEval(t, []evalTest{
		{e: fn("coalesce", col("nope"), col("nul"), litS("x")), want: str("x")},
		{e: fn("coalesce", col("nope")), want: missing()},
		{e: fn("coalesce", col("nope"), col("nul")), want: missing()},
		{name: "coalesce is lazy", e: fn("coalesce", litN("1"), typeErrExpr), want: num("1")},
		{e: fn("coalesce", col("nope"), typeErrExpr), code: diag.CodeType},
		{e: fn("ifnull", col("nope"), litN("2")), want: num("2")},
		{e: fn("ifnull", col("total"), litN("2")), want: num("150")},
		{e: fn("nullif", litN("1"), litN("1.0")), want: missing()},
		{e: fn("nullif", litN("1"), litN("2")), want: num("1")},
		{name: "nullif does not coerce", e: fn("nullif", litN("1"), litS("1")), want: num("1")},
		{e: fn("nullif", litNull(), litN("1")), want: null()},
		{e: fn("nullif", litN("1"), litNull()), want: num("1")},
		{e: fn("if", litT, litS("a"), litS("b")), want: str("a")},
		{e: fn("if", litU, litS("a"), litS("b")), want: str("b")},
		{e: fn("if", litF, litS("a"), litS("b")), want: str("b")},
		{e: fn("if", bop(expr.OpGt, col("total"), litN("100")), litS("big"), litS("small")), want: str("big")},
		{e: fn("if", col("zero"), litS("a"), litS("b")), want: str("b")},
		{name: "if is lazy", e: fn("if", litT, litN("1"), typeErrExpr), want: num("1")},
		{e: fn("if", typeErrExpr, litN("1"), litN("2")), code: diag.CodeType},
	})
}

func TestDynamoFunctions(t *testing.T) {
	T, F := boolv(true), boolv(false)
	runEval(t, []evalTest{
		{e: fn("begins_with", col("status"), litS("REV")), want: T},
		{e: fn("begins_with", col("status"), litS("rev")), want: F},
		{e: fn("begins_with", col("status"), litS("REVIEW!")), want: F},
		{e: fn("begins_with", col("name"), litS("Zo")), want: T},
		{e: fn("begins_with", col("bin"), lit(bin(1, 2))), want: T},
		{e: fn("begins_with", col("bin"), lit(bin(2))), want: F},
		{name: "B prefix of S", e: fn("begins_with", col("status"), lit(bin('R'))), want: F},
		{name: "S prefix of B", e: fn("begins_with", col("bin"), litS("\x01")), want: F},
		{name: "number is not a string", e: fn("begins_with", col("total"), litS("1")), want: F},
		{name: "missing is false, not NULL", e: fn("begins_with", col("nope"), litS("a")), want: F},
		{e: fn("begins_with", col("nul"), litS("a")), want: F},
		{e: fn("begins_with", col("status"), litNull()), want: F},
		{name: "NOT begins_with on missing", e: expr.Unary{Op: expr.OpNot, X: fn("begins_with", col("nope"), litS("a"))}, want: T},
		{e: fn("begins_with", typeErrExpr, litS("a")), code: diag.CodeType},
		{e: fn("begins_with", litS("a"), typeErrExpr), code: diag.CodeType},

		{e: fn("contains", col("status"), litS("VIE")), want: T},
		{e: fn("contains", col("status"), litS("vie")), want: F},
		{e: fn("contains", col("tags"), litS("a")), want: T},
		{e: fn("contains", col("tags"), litS("c")), want: F},
		{name: "NS member numerically", e: fn("contains", col("nums"), litN("2.50")), want: T},
		{name: "NS member of another type", e: fn("contains", col("nums"), litS("1")), want: F},
		{e: fn("contains", col("bins"), lit(bin(1))), want: T},
		{e: fn("contains", col("bin"), lit(bin(2, 3))), want: T},
		{e: fn("contains", col("bin"), litS("\x02")), want: F},
		{e: fn("contains", col("list"), litS("x")), want: T},
		{e: fn("contains", col("list"), litN("1.0")), want: T},
		{e: fn("contains", col("list"), litS("1")), want: F},
		{e: fn("contains", col("list"), litNull()), want: F},
		{name: "maps are not searched", e: fn("contains", col("info"), litS("city")), want: F},
		{e: fn("contains", col("total"), litS("1")), want: F},
		{e: fn("contains", col("nope"), litS("a")), want: F},

		{e: fn("size", col("status")), want: num("6")},
		{e: fn("size", col("name")), want: num("4")},
		{e: fn("size", col("empty")), want: num("0")},
		{e: fn("size", col("bin")), want: num("3")},
		{e: fn("size", col("tags")), want: num("2")},
		{e: fn("size", col("list")), want: num("3")},
		{e: fn("size", col("info")), want: num("2")},
		{e: fn("size", col("total")), want: missing()},
		{e: fn("size", col("flag")), want: missing()},
		{e: fn("size", col("nul")), want: missing()},
		{e: fn("size", col("nope")), want: missing()},
		{e: fn("size", typeErrExpr), code: diag.CodeType},

		{e: fn("attribute_exists", col("status")), want: T},
		{name: "DynamoDB NULL exists", e: fn("attribute_exists", col("nul")), want: T},
		{e: fn("attribute_exists", col("nope")), want: F},
		{e: fn("attribute_exists", col("info", "city")), want: T},
		{e: fn("attribute_exists", col("info", "zip")), want: F},
		{e: fn("attribute_not_exists", col("nope")), want: T},
		{e: fn("attribute_not_exists", col("nul")), want: F},
		{e: fn("attribute_not_exists", col("list", 2)), want: F},
		{e: fn("attribute_not_exists", col("list", 3)), want: T},

		{e: fn("attribute_type", col("status"), litS("S")), want: T},
		{e: fn("attribute_type", col("total"), litS("N")), want: T},
		{e: fn("attribute_type", col("bin"), litS("B")), want: T},
		{e: fn("attribute_type", col("flag"), litS("BOOL")), want: T},
		{e: fn("attribute_type", col("nul"), litS("NULL")), want: T},
		{e: fn("attribute_type", col("info"), litS("M")), want: T},
		{e: fn("attribute_type", col("list"), litS("L")), want: T},
		{e: fn("attribute_type", col("tags"), litS("SS")), want: T},
		{e: fn("attribute_type", col("nums"), litS("NS")), want: T},
		{e: fn("attribute_type", col("bins"), litS("BS")), want: T},
		{e: fn("attribute_type", col("status"), litS("N")), want: F},
		{e: fn("attribute_type", col("nope"), litS("S")), want: F},
		{e: fn("attribute_type", col("nope"), litS("NULL")), want: F},
		{e: fn("attribute_type", col("status"), litS("X")), code: diag.CodeArgument},
		{name: "type names are case-sensitive", e: fn("attribute_type", col("status"), litS("s")), code: diag.CodeArgument},
		{e: fn("attribute_type", col("status"), litNull()), code: diag.CodeArgument},
		{e: fn("attribute_type", col("status"), litN("1")), code: diag.CodeArgument},
	})
}

func TestItemSizeFunction(t *testing.T) {
	row := fixture()
	got, err := Eval(fn("item_size"), row)
	if err != nil || got.Kind() != value.Number {
		t.Fatalf("item_size() = %v, %v", got.JSON(), err)
	}
	if want := ItemSize(row.items[0]); got.Text() != intValue(want).Text() {
		t.Fatalf("item_size() = %s; want %d", got.Text(), want)
	}
	row.noItem = true
	_, err = Eval(fn("item_size"), row)
	if errCode(err) != diag.CodeArgument {
		t.Fatalf("item_size() without the item: err = %v", err)
	}
}

func TestFunctionErrors(t *testing.T) {
	runEval(t, []evalTest{
		{e: fn("nosuch", litN("1")), code: diag.CodeUnknownFunction},
		{name: "names are lower-case", e: fn("LOWER", litS("a")), code: diag.CodeUnknownFunction},
		{e: fn("lower"), code: diag.CodeArgument},
		{e: fn("lower", litS("a"), litS("b")), code: diag.CodeArgument},
		{e: fn("if", litT, litN("1")), code: diag.CodeArgument},
		{e: fn("concat"), code: diag.CodeArgument},
		{e: fn("substring", litS("a")), code: diag.CodeArgument},
		{e: fn("item_size", litN("1")), code: diag.CodeArgument},
	})
	row := fixture()
	_, err := Eval(fn("nosuch", litN("1")), row)
	if err == nil || err.Error() != "unknown function nosuch()" || errCode(err) != diag.CodeUnknownFunction {
		t.Errorf("err = %v", err)
	}
	_, err = Eval(fn("substring", litS("a")), row)
	if err == nil || err.Error() != "substring('a'): substring() takes 2 to 3 arguments" || errCode(err) != diag.CodeArgument {
		t.Errorf("err = %v", err)
	}
}
