package value

import (
	"flag"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// valueSeed fixes the random tests' seed; 0 picks one from the clock. The
// seed is printed on every failure, so a failure reproduces with
// go test ./planner/value -value.seed=N.
var valueSeed = flag.Uint64("value.seed", 0, "seed for the random value tests (0: from the clock)")

// newRand returns a seeded generator and registers the seed for failures.
func newRand(t testing.TB) *rand.Rand {
	t.Helper()
	seed := *valueSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("random seed: -value.seed=%d", seed)
		}
	})
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// gen builds random values covering every kind.
type gen struct {
	r *rand.Rand
	// validUTF8 keeps strings and map keys valid UTF-8 (DynamoDB JSON
	// cannot carry anything else).
	validUTF8 bool
}

var stringPieces = []string{
	"a", "b", "z", "A", "0", "9", " ", "_", "-", ".", "#", "é", "日本", "😀", "\u2028", "\u2029",
	"\x00", "\x01", "\x1f", "\x7f", "\b", "\f", "\n", "\r", "\t", "\"", "\\", "<", ">", "&", "'", "`",
	"\u00a0", "\ufffd", "\uffff", "𝄞",
}

var invalidPieces = []string{"\xff", "\xc3", "\xe6\x97", "\xed\xa0\x80", "\x80", "\xf4\x90\x80\x80"}

func (g gen) str() string {
	n := g.r.IntN(8)
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if !g.validUTF8 && g.r.IntN(8) == 0 {
			sb.WriteString(invalidPieces[g.r.IntN(len(invalidPieces))])
			continue
		}
		sb.WriteString(stringPieces[g.r.IntN(len(stringPieces))])
	}
	return sb.String()
}

func (g gen) bytes() []byte {
	b := make([]byte, g.r.IntN(6))
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	return b
}

// numberText returns canonical number text from DynamoDB's whole range.
func (g gen) numberText() string {
	switch g.r.IntN(6) {
	case 0:
		return strconv.FormatInt(g.r.Int64N(2001)-1000, 10)
	case 1:
		edges := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, math.MaxInt32, math.MinInt32}
		return strconv.FormatInt(edges[g.r.IntN(len(edges))], 10)
	case 2:
		return strconv.FormatInt(int64(g.r.Uint64()), 10)
	}
	// Up to 38 significant digits anywhere in 1E-130 .. 9.99…E+125.
	n := 1 + g.r.IntN(38)
	digits := make([]byte, n)
	for i := range digits {
		digits[i] = byte('0' + g.r.IntN(10))
	}
	digits[0] = byte('1' + g.r.IntN(9))
	adjusted := g.r.IntN(256) - 130 // -130 .. 125
	exp := adjusted - (n - 1)
	text := string(digits) + "E" + strconv.Itoa(exp)
	if g.r.IntN(2) == 0 {
		text = "-" + text
	}
	canon, err := CanonicalNumber(text)
	if err != nil {
		panic(text + ": " + err.Error())
	}
	return canon
}

func (g gen) scalar(kind Kind) Value {
	switch kind {
	case String:
		return Str(g.str())
	case Number:
		return NumTrusted(g.numberText())
	case Binary:
		return Bin(g.bytes())
	}
	panic("not a scalar kind")
}

// set builds a non-empty set of distinct members, sorted as the package
// sorts sets it reads.
func (g gen) set(kind Kind) Value {
	member := MemberKind(kind)
	n := 1 + g.r.IntN(4)
	var members []Value
	for len(members) < n {
		m := g.scalar(member)
		dup := false
		for _, x := range members {
			if Order(x, m) == 0 {
				dup = true
			}
		}
		if !dup {
			members = append(members, m)
		}
	}
	sort.Slice(members, func(i, j int) bool { return Order(members[i], members[j]) < 0 })
	return SetOf(kind, members)
}

// value returns a random present value (never Missing) nested at most depth deep.
func (g gen) value(depth int) Value {
	kinds := []Kind{Null, Bool, Number, String, Binary, NumberSet, StringSet, BinarySet, List, Map}
	if depth <= 0 {
		kinds = kinds[:len(kinds)-2]
	}
	switch k := kinds[g.r.IntN(len(kinds))]; k {
	case Null:
		return NullValue()
	case Bool:
		return BoolOf(g.r.IntN(2) == 0)
	case Number, String, Binary:
		return g.scalar(k)
	case NumberSet, StringSet, BinarySet:
		return g.set(k)
	case List:
		elems := make([]Value, g.r.IntN(4))
		for i := range elems {
			elems[i] = g.value(depth - 1)
		}
		return ListOf(elems)
	default:
		attrs := map[string]Value{}
		for i, n := 0, g.r.IntN(4); i < n; i++ {
			attrs[g.str()] = g.value(depth - 1)
		}
		return MapOf(attrs)
	}
}

// identical reports whether a and b are the same value representation:
// same kinds, same text, same element order, same members.
func identical(a, b Value) bool {
	if a.kind != b.kind || a.text != b.text || a.flag != b.flag || len(a.elems) != len(b.elems) || len(a.attrs) != len(b.attrs) {
		return false
	}
	for i := range a.elems {
		if !identical(a.elems[i], b.elems[i]) {
			return false
		}
	}
	for k, av := range a.attrs {
		bv, ok := b.attrs[k]
		if !ok || !identical(av, bv) {
			return false
		}
	}
	return true
}

// show renders a value for failure messages, including its kind.
func show(v Value) string {
	if v.kind == Missing {
		return "<missing>"
	}
	return v.kind.String() + ":" + string(AppendDynamoJSON(nil, v))
}
