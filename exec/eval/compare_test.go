package eval

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

func TestComparisons(t *testing.T) {
	T, F, U := boolv(true), boolv(false), missing()
	cmp := func(op expr.Op, l, r value.Value) expr.Expr { return bop(op, lit(l), lit(r)) }
	runEval(t, []evalTest{
		// Same type.
		{e: cmp(expr.OpEq, str("a"), str("a")), want: T},
		{e: cmp(expr.OpLt, str("B"), str("a")), want: T},    // byte-wise: upper case first
		{e: cmp(expr.OpLt, str("z"), str("é")), want: T},    // UTF-8 bytes
		{e: cmp(expr.OpGe, str("abc"), str("ab")), want: T}, // prefix is smaller
		{e: cmp(expr.OpLt, bin(0x01), bin(0xff)), want: T},  // B byte-wise, unsigned
		{e: cmp(expr.OpEq, num("1.0"), num("1")), want: T},  // exact numeric
		{e: cmp(expr.OpLt, num("9"), num("10")), want: T},   // not text order
		{e: cmp(expr.OpLt, num("-10"), num("-9")), want: T},
		{e: cmp(expr.OpGt, num("0.001"), num("-1000")), want: T},
		{e: cmp(expr.OpLt, num("0.1"), num("0.10000000000000000000000000000000000001")), want: T},
		{e: cmp(expr.OpGt, num("99999999999999999999999999999999999999"), num("99999999999999999999999999999999999998")), want: T},
		{e: cmp(expr.OpNe, num("1E+125"), num("1E-130")), want: T},
		{e: cmp(expr.OpEq, boolv(true), boolv(true)), want: T},
		{e: cmp(expr.OpNe, boolv(true), boolv(false)), want: T},
		{name: "BOOL is not ordered", e: cmp(expr.OpLt, boolv(false), boolv(true)), want: F},
		{name: "BOOL not ordered (>=)", e: cmp(expr.OpGe, boolv(true), boolv(true)), want: F},
		{e: cmp(expr.OpEq, list(num("1"), null()), list(num("1.0"), null())), want: T},
		{e: cmp(expr.OpNe, list(num("1")), list(num("2"))), want: T},
		{name: "list not ordered", e: cmp(expr.OpLe, list(num("1")), list(num("1"))), want: F},
		{e: cmp(expr.OpEq, mapv("a", num("1")), mapv("a", num("1"))), want: T},
		{name: "map not ordered", e: cmp(expr.OpGt, mapv("a", num("2")), mapv("a", num("1"))), want: F},
		{name: "sets compare as sets", e: cmp(expr.OpEq, set(value.StringSet, str("a"), str("b")), set(value.StringSet, str("b"), str("a"))), want: T},
		{name: "set not ordered", e: cmp(expr.OpLt, set(value.NumberSet, num("1")), set(value.NumberSet, num("2"))), want: F},
		// Different types: never equal, never ordered.
		{name: "N = S", e: cmp(expr.OpEq, num("1"), str("1")), want: F},
		{name: "N <> S", e: cmp(expr.OpNe, num("1"), str("1")), want: T},
		{name: "N < S", e: cmp(expr.OpLt, num("1"), str("2")), want: F},
		{name: "N >= S", e: cmp(expr.OpGe, num("1"), str("0")), want: F},
		{name: "S = B", e: cmp(expr.OpEq, str("a"), bin('a')), want: F},
		{name: "BOOL = N", e: cmp(expr.OpEq, boolv(true), num("1")), want: F},
		{name: "SS = L", e: cmp(expr.OpEq, set(value.StringSet, str("a")), list(str("a"))), want: F},
		// NULL.
		{e: cmp(expr.OpEq, null(), null()), want: U},
		{e: cmp(expr.OpNe, missing(), str("a")), want: U},
		{e: cmp(expr.OpLt, num("1"), null()), want: U},
		{name: "column = literal", e: bop(expr.OpEq, col("status"), litS("REVIEW")), want: T},
		{name: "missing column", e: bop(expr.OpEq, col("nope"), litS("REVIEW")), want: U},
		{name: "nested path", e: bop(expr.OpGe, col("info", "rating"), litN("5")), want: T},
		{name: "error in operand", e: bop(expr.OpEq, bop(expr.OpAdd, litS("a"), litN("1")), litN("1")), code: diag.CodeType},
		{name: "error in right operand", e: bop(expr.OpEq, litN("1"), bop(expr.OpAdd, litS("a"), litN("1"))), code: diag.CodeType},
	})
}

func TestIn(t *testing.T) {
	T, F, U := boolv(true), boolv(false), missing()
	in := func(x expr.Expr, not bool, list ...expr.Expr) expr.Expr { return expr.In{X: x, List: list, Not: not} }
	runEval(t, []evalTest{
		{e: in(litN("1"), false, litN("1"), litNull()), want: T},
		{e: in(litN("2"), false, litN("1"), litNull()), want: U},
		{e: in(litN("2"), false, litN("1"), litN("3")), want: F},
		{e: in(litN("2"), true, litN("1"), litN("3")), want: T},
		{e: in(litN("2"), true, litN("1"), litNull()), want: U},
		{e: in(litN("1"), true, litN("1"), litNull()), want: F},
		{e: in(litNull(), false, litN("1")), want: U},
		{e: in(litNull(), true, litN("1")), want: U},
		{name: "no coercion", e: in(litN("1"), false, litS("1")), want: F},
		{name: "numeric equality", e: in(col("price"), false, litN("12.5000")), want: T},
		{name: "column in strings", e: in(col("status"), false, litS("DONE"), litS("REVIEW")), want: T},
		{name: "missing column not in", e: in(col("nope"), true, litS("DONE")), want: U},
		{name: "map member", e: in(col("info"), false, lit(mapv("rating", num("5"), "city", str("Kyoto")))), want: T},
		{name: "empty list", e: in(litN("1"), false), want: F},
		{name: "stops at a match", e: in(litN("1"), false, litN("1"), bop(expr.OpAdd, litS("a"), litN("1"))), want: T},
		{name: "error in list", e: in(litN("2"), false, litN("1"), bop(expr.OpAdd, litS("a"), litN("1"))), code: diag.CodeType},
	})
}

func TestBetween(t *testing.T) {
	T, F, U := boolv(true), boolv(false), missing()
	bw := func(x, lo, hi expr.Expr, not bool) expr.Expr { return expr.Between{X: x, Lo: lo, Hi: hi, Not: not} }
	runEval(t, []evalTest{
		{e: bw(litN("5"), litN("1"), litN("10"), false), want: T},
		{e: bw(litN("1"), litN("1"), litN("1"), false), want: T},
		{e: bw(litN("0"), litN("1"), litN("10"), false), want: F},
		{e: bw(litN("0"), litN("1"), litN("10"), true), want: T},
		{e: bw(litS("b"), litS("a"), litS("c"), false), want: T},
		{name: "reversed bounds", e: bw(litN("5"), litN("10"), litN("1"), false), want: F},
		{name: "mixed types", e: bw(litS("5"), litN("1"), litN("10"), false), want: F},
		{name: "mixed types NOT", e: bw(litS("5"), litN("1"), litN("10"), true), want: T},
		{e: bw(litNull(), litN("1"), litN("10"), false), want: U},
		{name: "NULL low, above high", e: bw(litN("11"), litNull(), litN("10"), false), want: F},
		{name: "NULL low, within high", e: bw(litN("5"), litNull(), litN("10"), false), want: U},
		{name: "NULL high NOT", e: bw(litN("0"), litN("1"), litNull(), true), want: T},
		{name: "column", e: bw(col("total"), litN("100"), litN("200"), false), want: T},
	})
}

// TestCompareCanonical checks the allocation-free comparison against apd on
// random canonical numbers.
func TestCompareCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func() string {
		var sb strings.Builder
		if r.IntN(2) == 0 {
			sb.WriteByte('-')
		}
		for i := r.IntN(4); i >= 0; i-- {
			sb.WriteByte(byte('0' + r.IntN(10)))
		}
		if r.IntN(2) == 0 {
			sb.WriteByte('.')
			for i := r.IntN(4); i >= 0; i-- {
				sb.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		return num(sb.String()).Text()
	}
	for i := 0; i < 20000; i++ {
		a, b := gen(), gen()
		got, ok := compareCanonical(a, b)
		if !ok {
			t.Fatalf("compareCanonical(%q, %q) rejected canonical text", a, b)
		}
		x, _, _ := apd.NewFromString(a)
		y, _, _ := apd.NewFromString(b)
		if want := x.Cmp(y); got != want {
			t.Fatalf("compareCanonical(%q, %q) = %d; want %d", a, b, got, want)
		}
	}
	for _, s := range []string{"-0", "01", "1.0", "1.", ".5", "1e5", "", "-", "1.2.3", "+1"} {
		if _, ok := compareCanonical(s, "1"); ok {
			t.Errorf("compareCanonical accepted non-canonical %q", s)
		}
	}
	// Non-canonical text still compares exactly, through apd.
	if c := compareNumbers(value.NumTrusted("1.50"), value.NumTrusted("15E-1")); c != 0 {
		t.Errorf("1.50 vs 15E-1 = %d", c)
	}
}
