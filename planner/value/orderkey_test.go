package value

import (
	"bytes"
	"strconv"
	"testing"
)

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// orderKeyPool mixes random values of every kind with numbers close to one
// another (equal values written differently are not produced: text is
// canonical), and Missing.
func orderKeyPool(g gen, n int) []Value {
	pool := []Value{MissingValue(), NullValue(), NumTrusted("0"), NumTrusted("1"), NumTrusted("-1"),
		NumTrusted("10"), NumTrusted("1.5"), NumTrusted("-1.5"), NumTrusted("-15"), NumTrusted("0.001"),
		Str(""), Str("\x00"), Str("a\x00"), Str("a"), Bin(nil), Bin([]byte{0, 0xff}), ListOf(nil), MapOf(nil)}
	for len(pool) < n {
		pool = append(pool, g.value(2))
	}
	return pool
}

func TestOrderKeyOrdersAsOrder(t *testing.T) {
	g := gen{r: newRand(t)}
	pool := orderKeyPool(g, 400)
	keys := make([][]byte, len(pool))
	inv := make([][]byte, len(pool))
	for i, v := range pool {
		keys[i] = AppendOrderKey(nil, v)
		inv[i] = append([]byte(nil), keys[i]...)
		InvertKey(inv[i])
	}
	for i := range pool {
		for j := range pool {
			want := sign(Order(pool[i], pool[j]))
			if got := sign(bytes.Compare(keys[i], keys[j])); got != want {
				t.Fatalf("key order %d, Order %d:\n%s\n%s", got, want, show(pool[i]), show(pool[j]))
			}
			if got := sign(bytes.Compare(inv[i], inv[j])); got != -want {
				t.Fatalf("inverted key order %d, want %d:\n%s\n%s", got, -want, show(pool[i]), show(pool[j]))
			}
		}
	}
}

// Two keys appended one after the other compare as the first, then the
// second: keys are prefix-free.
func TestOrderKeysConcatenateAsTuples(t *testing.T) {
	g := gen{r: newRand(t)}
	pool := orderKeyPool(g, 60)
	type pair struct {
		a, b Value
		key  []byte
	}
	var pairs []pair
	for i := 0; i < 2000; i++ {
		a, b := pool[g.r.IntN(len(pool))], pool[g.r.IntN(len(pool))]
		pairs = append(pairs, pair{a, b, AppendOrderKey(AppendOrderKey(nil, a), b)})
	}
	for i := range pairs {
		for j := i; j < len(pairs) && j < i+200; j++ {
			p, q := pairs[i], pairs[j]
			want := sign(Order(p.a, q.a))
			if want == 0 {
				want = sign(Order(p.b, q.b))
			}
			if got := sign(bytes.Compare(p.key, q.key)); got != want {
				t.Fatalf("(%s, %s) vs (%s, %s): key order %d, want %d", show(p.a), show(p.b), show(q.a), show(q.b), got, want)
			}
		}
	}
}

func TestNumberKeyReadsEveryNotation(t *testing.T) {
	for _, c := range []struct{ a, b string }{{"1E+2", "100"}, {"-0", "0"}, {"0.000", "0"}, {"1.50", "1.5"}, {"-2e-3", "-0.002"}, {"007", "7"}} {
		if x, y := AppendNumberKey(nil, c.a), AppendNumberKey(nil, c.b); !bytes.Equal(x, y) {
			t.Errorf("%s and %s have different keys %x, %x", c.a, c.b, x, y)
		}
	}
	// Past DynamoDB's range (a SUM's result), order still holds.
	big, huge := AppendNumberKey(nil, "1"+string(bytes.Repeat([]byte("0"), 200))), AppendNumberKey(nil, "1"+string(bytes.Repeat([]byte("0"), 300)))
	if bytes.Compare(big, huge) >= 0 {
		t.Error("1E200 does not order before 1E300")
	}
}

func TestInt64AndStringKeysAreOrderKeys(t *testing.T) {
	r := newRand(t)
	xs := []int64{0, 1, -1, 10, -10, 100, 120, -120, 1 << 62, -1 << 63, 1<<63 - 1}
	for i := 0; i < 500; i++ {
		xs = append(xs, r.Int64N(2_000_001)-1_000_000, int64(r.Uint64()))
	}
	for _, x := range xs {
		v := NumTrusted(strconv.FormatInt(x, 10))
		if got, want := AppendInt64Key(nil, x), AppendOrderKey(nil, v); !bytes.Equal(got, want) {
			t.Fatalf("%d: int key %x, order key %x", x, got, want)
		}
	}
	g := gen{r: r}
	for i := 0; i < 500; i++ {
		s := g.str()
		if got, want := AppendStringKey(nil, s), AppendOrderKey(nil, Str(s)); !bytes.Equal(got, want) {
			t.Fatalf("%q: string key %x, order key %x", s, got, want)
		}
	}
}
