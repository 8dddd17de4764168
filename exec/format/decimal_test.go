package format

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// TestDecimalOfExact: every plain number converts to the decimal128 whose
// text at the column's scale is the number's own digits, on both sides of
// the 18-digit boundary where the conversion leaves uint64 arithmetic.
func TestDecimalOfExact(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 14))
	digits := func(n int) string {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			sb.WriteByte(byte('0' + r.IntN(10)))
		}
		return sb.String()
	}
	for i := 0; i < 20000; i++ {
		scale := r.IntN(20)
		ints := digits(1 + r.IntN(38-scale))
		frac := digits(r.IntN(scale + 1))
		text := ints
		if frac != "" {
			text += "." + frac
		}
		if r.IntN(2) == 0 {
			text = "-" + text
		}
		n, err := decimalOf(text, int32(scale))
		if err != nil {
			t.Fatalf("%s at scale %d: %v", text, scale, err)
		}
		// The expected value: the digits padded to the scale, parsed by
		// decimal128 itself.
		want, err := decimal128.FromString(text, 38, int32(scale))
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Fatalf("%s at scale %d: got %s, want %s", text, scale, n.ToString(int32(scale)), want.ToString(int32(scale)))
		}
	}
}
