package eval

import (
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

func TestStringHelpers(t *testing.T) {
	runEval(t, []evalTest{
		// split_part: PostgreSQL's, 1-based, negative from the end, '' out of range.
		{e: fn("split_part", litS("a,b,,c"), litS(","), litN("1")), want: str("a")},
		{e: fn("split_part", litS("a,b,,c"), litS(","), litN("3")), want: str("")},
		{e: fn("split_part", litS("a,b,,c"), litS(","), litN("4")), want: str("c")},
		{e: fn("split_part", litS("a,b,,c"), litS(","), litN("5")), want: str("")},
		{e: fn("split_part", litS("a,b,,c"), litS(","), litN("-1")), want: str("c")},
		{e: fn("split_part", litS("a,b,,c"), litS(","), litN("-4")), want: str("a")},
		{e: fn("split_part", litS("a,b,,c"), litS(","), litN("-5")), want: str("")},
		{e: fn("split_part", litS("a,b"), litS(","), litN("0")), want: str("")},
		{e: fn("split_part", litS("a::b::c"), litS("::"), litN("2")), want: str("b")},
		{e: fn("split_part", litS("abc"), litS(""), litN("1")), want: str("abc")},
		{e: fn("split_part", litS("abc"), litS(""), litN("2")), want: str("")},
		{e: fn("split_part", litS("日本,語"), litS(","), litN("2")), want: str("語")},
		{e: fn("split_part", litN("12.5"), litS("."), litN("2")), want: str("5")},
		{e: fn("split_part", col("nope"), litS(","), litN("1")), want: missing()},
		{e: fn("split_part", litS("a"), litNull(), litN("1")), want: missing()},
		{e: fn("split_part", litS("a"), litS(","), litNull()), want: missing()},
		{e: fn("split_part", litS("a"), litS(","), litS("1")), code: diag.CodeType},
		{e: fn("split_part", col("tags"), litS(","), litN("1")), code: diag.CodeType},
		// replace: every occurrence; an empty search string changes nothing.
		{e: fn("replace", litS("a-b-c"), litS("-"), litS("+")), want: str("a+b+c")},
		{e: fn("replace", litS("aaa"), litS("aa"), litS("b")), want: str("ba")},
		{e: fn("replace", litS("abc"), litS(""), litS("x")), want: str("abc")},
		{e: fn("replace", litS("abc"), litS("b"), litS("")), want: str("ac")},
		{e: fn("replace", litS("Zoë"), litS("ë"), litS("e")), want: str("Zoe")},
		{e: fn("replace", litN("1000"), litS("0"), litS("9")), want: str("1999")},
		{e: fn("replace", litS("abc"), litS("b"), litNull()), want: missing()},
		{e: fn("replace", col("flag"), litS("b"), litS("c")), code: diag.CodeType},
		// trim, ltrim, rtrim: spaces by default, or the given characters.
		{e: fn("trim", litS("  a b  ")), want: str("a b")},
		{e: fn("ltrim", litS("  a b  ")), want: str("a b  ")},
		{e: fn("rtrim", litS("  a b  ")), want: str("  a b")},
		{e: fn("trim", litS("\t a \n")), want: str("\t a \n")},
		{e: fn("trim", litS("xyaxy"), litS("yx")), want: str("a")},
		{e: fn("ltrim", litS("xyaxy"), litS("yx")), want: str("axy")},
		{e: fn("rtrim", litS("0012.500"), litS("0")), want: str("0012.5")},
		{e: fn("trim", litS("   ")), want: str("")},
		{e: fn("trim", litS("ab"), litS("")), want: str("ab")},
		{e: fn("trim", col("nul")), want: missing()},
		{e: fn("trim", litS("a"), litNull()), want: missing()},
		{e: fn("trim", col("list")), code: diag.CodeType},
		// lpad, rpad: characters, cut when longer, pad repeated.
		{e: fn("lpad", litS("7"), litN("3"), litS("0")), want: str("007")},
		{e: fn("rpad", litS("7"), litN("3"), litS("0")), want: str("700")},
		{e: fn("lpad", litS("hi"), litN("7"), litS("ab")), want: str("ababahi")},
		{e: fn("rpad", litS("hi"), litN("7"), litS("ab")), want: str("hiababa")},
		{e: fn("lpad", litS("hello"), litN("3"), litS("x")), want: str("hel")},
		{e: fn("rpad", litS("hello"), litN("3"), litS("x")), want: str("hel")},
		{e: fn("lpad", litS("hi"), litN("4")), want: str("  hi")},
		{e: fn("lpad", litS("日本"), litN("4"), litS("語")), want: str("語語日本")},
		{e: fn("rpad", litS("日本語"), litN("2")), want: str("日本")},
		{e: fn("lpad", litS("hi"), litN("5"), litS("")), want: str("hi")},
		{e: fn("lpad", litS("hi"), litN("0"), litS("x")), want: str("")},
		{e: fn("lpad", litS("hi"), litN("-3"), litS("x")), want: str("")},
		{e: fn("lpad", litN("5"), litN("3"), litN("0")), want: str("005")},
		{name: "too long for an item", e: fn("lpad", litS("hi"), col("big"), litS("x")), want: missing()},
		{e: fn("lpad", litS("hi"), litNull(), litS("x")), want: missing()},
		{e: fn("lpad", litS("hi"), litS("3"), litS("x")), code: diag.CodeType},
		// regexp_like, regexp_extract: RE2, unanchored.
		{e: fn("regexp_like", litS("order-123"), litS(`\d+`)), want: boolv(true)},
		{e: fn("regexp_like", litS("order-123"), litS(`^\d+$`)), want: boolv(false)},
		{e: fn("regexp_like", litS("ABC"), litS(`(?i)abc`)), want: boolv(true)},
		{e: fn("regexp_like", litN("150"), litS(`^1`)), want: boolv(true)},
		{e: fn("regexp_like", litS(""), litS(``)), want: boolv(true)},
		{e: fn("regexp_like", col("nope"), litS(`a`)), want: missing()},
		{e: fn("regexp_like", litS("a"), litS(`(`)), code: diag.CodeArgument},
		{e: fn("regexp_like", litS("a"), litN("1")), code: diag.CodeType},
		{e: fn("regexp_extract", litS("order-123-x"), litS(`\d+`)), want: str("123")},
		{e: fn("regexp_extract", litS("k=v; k2=v2"), litS(`(\w+)=(\w+)`), litN("2")), want: str("v")},
		{e: fn("regexp_extract", litS("k=v"), litS(`(\w+)=(\w+)`), litN("0")), want: str("k=v")},
		{e: fn("regexp_extract", litS("k=v"), litS(`(\w+)=(\w+)`), litN("3")), want: missing()},
		{e: fn("regexp_extract", litS("k="), litS(`(\w+)=(\w+)?`), litN("2")), want: missing()},
		{e: fn("regexp_extract", litS("abc"), litS(`\d`)), want: missing()},
		{e: fn("regexp_extract", litS("日本語"), litS(`本.`)), want: str("本語")},
		{e: fn("regexp_extract", litS("a"), litS(`a`), litNull()), want: missing()},
		// GREATEST, LEAST: NULLs ignored; value.Order across types.
		{e: fn("greatest", litN("1"), litN("10"), litN("2")), want: num("10")},
		{e: fn("least", litN("1"), litN("-10.5"), litN("2")), want: num("-10.5")},
		{e: fn("greatest", litS("b"), litS("ab"), litS("B")), want: str("b")},
		{e: fn("least", litS("b"), litS("ab"), litS("B")), want: str("B")},
		{e: fn("greatest", litNull(), litN("3"), col("nope")), want: num("3")},
		{e: fn("least", col("nope"), litNull()), want: missing()},
		{e: fn("greatest", litN("3")), want: num("3")},
		{name: "strings after numbers", e: fn("greatest", litN("100"), litS("1")), want: str("1")},
		{name: "numbers before strings", e: fn("least", litN("100"), litS("1")), want: num("100")},
		{e: fn("greatest", col("flag"), col("off")), want: boolv(true)},
		{e: fn("greatest", litN("1"), typeErrExpr), code: diag.CodeType},
		// NULLIF.
		{e: fn("nullif", litN("1"), litN("1.0")), want: missing()},
		{e: fn("nullif", litS("a"), litS("b")), want: str("a")},
		{e: fn("nullif", litN("1"), litS("1")), want: num("1")},
		{e: fn("nullif", litNull(), litN("1")), want: null()},
		{e: fn("nullif", col("tags"), col("tags")), want: missing()},
	})
}

func TestPadDoesNotExplode(t *testing.T) {
	got, err := Eval(fn("rpad", litS(""), litN("409600"), litS("ab")), fixture())
	if err != nil || len(got.Text()) != 409600 || !strings.HasPrefix(got.Text(), "abab") {
		t.Fatalf("rpad to the limit: %d bytes, %v", len(got.Text()), err)
	}
	got, err = Eval(fn("rpad", litS(""), litN("409601"), litS("ab")), fixture())
	if err != nil || got.Kind() != value.Missing {
		t.Fatalf("rpad past the limit = %s, %v; want NULL", got.Kind(), err)
	}
}
