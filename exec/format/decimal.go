package format

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// decimalOf converts plain decimal text to a decimal128 at the given scale,
// digit by digit: exact, never through a float. The column's facts
// guarantee the text is plain, has at most scale fraction digits and fits
// 38 digits at that scale.
func decimalOf(text string, scale int32) (decimal128.Num, error) {
	ints, frac, ok := splitPlain(text)
	if !ok || len(frac) > int(scale) || len(ints)+int(scale) > decimalDigits {
		return decimal128.Num{}, fmt.Errorf("format: number %s does not fit decimal128(%d, %d)", text, decimalDigits, scale)
	}
	if len(ints)+int(scale) <= 18 {
		// The scaled value fits a uint64 (10^18 < 2^63): no 128-bit
		// arithmetic, which most prices, quantities and ids need.
		u := uint64(0)
		for _, c := range []byte(ints) {
			u = u*10 + uint64(c-'0')
		}
		for _, c := range []byte(frac) {
			u = u*10 + uint64(c-'0')
		}
		u *= pow10[int(scale)-len(frac)]
		if text[0] == '-' {
			return decimal128.FromI64(-int64(u)), nil
		}
		return decimal128.FromU64(u), nil
	}
	n := appendDigits(decimal128.Num{}, ints)
	n = appendDigits(n, frac)
	n = scaleUp(n, int(scale)-len(frac))
	if text[0] == '-' {
		n = n.Negate()
	}
	return n, nil
}

// appendDigits returns n·10^len(digits) + digits, 18 digits at a time
// (10^18 < 2^63, so a chunk is one uint64).
func appendDigits(n decimal128.Num, digits string) decimal128.Num {
	for len(digits) > 0 {
		k := min(len(digits), 18)
		var chunk uint64
		for _, c := range []byte(digits[:k]) {
			chunk = chunk*10 + uint64(c-'0')
		}
		n = n.Mul(decimal128.FromU64(pow10[k])).Add(decimal128.FromU64(chunk))
		digits = digits[k:]
	}
	return n
}

// scaleUp returns n·10^k, with 128-bit multiplications only (the column's
// facts guarantee the result fits).
func scaleUp(n decimal128.Num, k int) decimal128.Num {
	for k > 0 {
		step := min(k, 18)
		n = n.Mul(decimal128.FromU64(pow10[step]))
		k -= step
	}
	return n
}

// pow10[k] is 10^k for k ≤ 18.
var pow10 = func() (p [19]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()
