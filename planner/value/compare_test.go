package value

import (
	"sort"
	"testing"
)

func mustNum(t testing.TB, s string) Value {
	t.Helper()
	v, err := Num(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestEqual(t *testing.T) {
	n := func(s string) Value { return mustNum(t, s) }
	ss := func(m ...string) Value {
		vals := make([]Value, len(m))
		for i, s := range m {
			vals[i] = Str(s)
		}
		return SetOf(StringSet, vals)
	}
	ns := func(m ...string) Value {
		vals := make([]Value, len(m))
		for i, s := range m {
			vals[i] = n(s)
		}
		return SetOf(NumberSet, vals)
	}
	m := func(kv ...any) Value {
		attrs := map[string]Value{}
		for i := 0; i < len(kv); i += 2 {
			attrs[kv[i].(string)] = kv[i+1].(Value)
		}
		return MapOf(attrs)
	}
	l := func(e ...Value) Value { return ListOf(e) }
	tests := []struct {
		a, b Value
		want bool
	}{
		{Str("a"), Str("a"), true},
		{Str("a"), Str("b"), false},
		{Str(""), Str(""), true},
		{Str("1"), n("1"), false}, // different types are never equal
		{n("1"), n("1.0"), true},
		{NumTrusted("1.50"), NumTrusted("1.5"), true},
		{n("1"), n("2"), false},
		{Bin([]byte{1, 2}), Bin([]byte{1, 2}), true},
		{Bin([]byte{1, 2}), Str("\x01\x02"), false},
		{BoolOf(true), BoolOf(true), true},
		{BoolOf(true), BoolOf(false), false},
		{BoolOf(false), n("0"), false},
		{NullValue(), NullValue(), false}, // SQL: NULL is not equal to NULL
		{MissingValue(), MissingValue(), false},
		{NullValue(), MissingValue(), false},
		{ss("a", "b"), ss("b", "a"), true}, // sets compare as sets
		{ss("a", "b"), ss("a"), false},
		{ss("a"), l(Str("a")), false},
		{ns("1", "2"), ns("2", "1"), true},
		{ns("1"), ss("1"), false},
		{l(n("1"), Str("x")), l(n("1"), Str("x")), true},
		{l(n("1"), Str("x")), l(Str("x"), n("1")), false}, // lists are ordered
		{l(), l(), true},
		{l(NullValue()), l(NullValue()), true}, // a NULL inside a document equals a NULL
		{l(NullValue()), l(), false},
		{m("a", n("1"), "b", l(Str("x"))), m("b", l(Str("x")), "a", n("1")), true},
		{m("a", n("1")), m("a", n("2")), false},
		{m("a", n("1")), m("b", n("1")), false},
		{m("a", NullValue()), m("a", NullValue()), true},
		{m(), m(), true},
		{m(), l(), false},
	}
	for _, tc := range tests {
		if got := Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", show(tc.a), show(tc.b), got, tc.want)
		}
		if got := Equal(tc.b, tc.a); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v (symmetry)", show(tc.b), show(tc.a), got, tc.want)
		}
	}
	if !SetContains(ns("1", "2"), n("2.0")) || SetContains(ns("1"), Str("1")) || SetContains(ss("a"), Str("b")) {
		t.Error("SetContains")
	}
}

func TestOrderedAndCompareScalars(t *testing.T) {
	n := func(s string) Value { return mustNum(t, s) }
	ordered := [][2]Value{
		{Str("a"), Str("b")},
		{n("1"), n("2")},
		{Bin([]byte{0}), Bin([]byte{0xff})},
	}
	for _, p := range ordered {
		if !Ordered(p[0], p[1]) {
			t.Errorf("Ordered(%s, %s) = false", show(p[0]), show(p[1]))
		}
	}
	unordered := [][2]Value{
		{Str("1"), n("1")},
		{BoolOf(false), BoolOf(true)},
		{NullValue(), NullValue()},
		{MissingValue(), Str("a")},
		{ListOf(nil), ListOf(nil)},
		{MapOf(nil), MapOf(nil)},
		{SetOf(StringSet, []Value{Str("a")}), SetOf(StringSet, []Value{Str("b")})},
		{Str("a"), Bin([]byte("a"))},
	}
	for _, p := range unordered {
		if Ordered(p[0], p[1]) {
			t.Errorf("Ordered(%s, %s) = true", show(p[0]), show(p[1]))
		}
	}
	tests := []struct {
		a, b Value
		want int
	}{
		{Str("a"), Str("b"), -1},
		{Str("b"), Str("a"), 1},
		{Str("a"), Str("a"), 0},
		{Str(""), Str("a"), -1},
		{Str("Z"), Str("a"), -1},      // byte-wise, not case-folded
		{Str("é"), Str("z"), 1},       // UTF-8 bytes, not collation
		{Str("\uffff"), Str("😀"), -1}, // byte order (UTF-16 order would differ)
		{n("10"), n("9"), 1},          // numerically, not as text
		{n("-10"), n("-9"), -1},       // numerically
		{n("0.5"), n("0.45"), 1},      // numerically
		{Bin([]byte{1}), Bin([]byte{1, 0}), -1},
		{Bin([]byte{0x80}), Bin([]byte{0x7f}), 1}, // unsigned bytes
	}
	for _, tc := range tests {
		if got := CompareScalars(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareScalars(%s, %s) = %d, want %d", show(tc.a), show(tc.b), got, tc.want)
		}
	}
}

func TestOrderAcrossKinds(t *testing.T) {
	n := func(s string) Value { return mustNum(t, s) }
	// One value of each kind, in the documented order.
	asc := []Value{
		MissingValue(),
		NullValue(),
		BoolOf(false),
		BoolOf(true),
		n("-5"),
		n("0"),
		n("3.25"),
		Str(""),
		Str("a"),
		Bin(nil),
		Bin([]byte{1}),
		SetOf(NumberSet, []Value{n("1")}),
		SetOf(NumberSet, []Value{n("1"), n("2")}),
		SetOf(StringSet, []Value{Str("a")}),
		SetOf(BinarySet, []Value{Bin([]byte{1})}),
		ListOf(nil),
		ListOf([]Value{n("1")}),
		ListOf([]Value{n("1"), n("0")}),
		ListOf([]Value{n("2")}),
		MapOf(nil),
		MapOf(map[string]Value{"a": n("2")}),
		MapOf(map[string]Value{"a": n("2"), "b": n("0")}),
		MapOf(map[string]Value{"a": n("3")}),
		MapOf(map[string]Value{"b": n("0")}),
	}
	for i := range asc {
		for j := range asc {
			got := Order(asc[i], asc[j])
			want := compareInts(i, j)
			if got != want {
				t.Errorf("Order(%s, %s) = %d, want %d", show(asc[i]), show(asc[j]), got, want)
			}
		}
	}
	if Order(MissingValue(), MissingValue()) != 0 || Order(NullValue(), NullValue()) != 0 {
		t.Error("NULLs must be peers of their own kind")
	}
	for k := Missing; k <= Map; k++ {
		if k.String() == "?" {
			t.Errorf("Kind(%d) has no name", k)
		}
	}
	if Kind(200).String() != "?" {
		t.Error("unknown kind name")
	}
}

// Order is a total order consistent with Equal, and with CompareScalars
// where values are Ordered.
func TestOrderProperties(t *testing.T) {
	g := gen{r: newRand(t)}
	vals := make([]Value, 400)
	for i := range vals {
		vals[i] = g.value(2)
		if i%5 == 0 && i > 0 {
			vals[i] = vals[g.r.IntN(i)] // duplicates
		}
		if i%37 == 0 {
			vals[i] = MissingValue()
		}
	}
	for i := range vals {
		a := vals[i]
		if Order(a, a) != 0 {
			t.Fatalf("Order(a, a) != 0 for %s", show(a))
		}
		for j := range vals[:60] {
			b := vals[j]
			ab, ba := Order(a, b), Order(b, a)
			if ab != -ba {
				t.Fatalf("Order not antisymmetric: %s vs %s: %d, %d", show(a), show(b), ab, ba)
			}
			if !a.IsNull() && !b.IsNull() && Equal(a, b) != (ab == 0) {
				t.Fatalf("Equal(%s, %s) = %v but Order = %d", show(a), show(b), Equal(a, b), ab)
			}
			if Ordered(a, b) && CompareScalars(a, b) != ab {
				t.Fatalf("CompareScalars(%s, %s) = %d, Order = %d", show(a), show(b), CompareScalars(a, b), ab)
			}
		}
	}
	// Transitivity: a sorted slice is pairwise ordered.
	sorted := append([]Value(nil), vals...)
	sort.SliceStable(sorted, func(i, j int) bool { return Order(sorted[i], sorted[j]) < 0 })
	for i := range sorted {
		for j := i + 1; j < len(sorted); j++ {
			if Order(sorted[i], sorted[j]) > 0 {
				t.Fatalf("not transitive: %s sorted before %s", show(sorted[i]), show(sorted[j]))
			}
		}
	}
}
