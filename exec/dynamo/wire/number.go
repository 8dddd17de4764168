package wire

import (
	"bytes"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
)

// canonNumber checks whether b is already a number in the form
// value.CanonicalNumber returns (plain notation, no superfluous zeros, "0"
// for zero, at most 38 significant digits, magnitude within DynamoDB's
// limits). DynamoDB returns numbers in that form, so this is the fast path;
// anything else goes through value.CanonicalNumber.
//
// When b is a canonical integer that fits an int64, isInt is true and iv
// holds it (value.Value.Int64's rule, which decides the int64 encoding).
func canonNumber(b []byte) (iv int64, isInt, ok bool) {
	i := 0
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg = true
		i = 1
	}
	intStart := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	intLen := i - intStart
	if intLen == 0 || (intLen > 1 && b[intStart] == '0') {
		return 0, false, false
	}
	zeroInt := b[intStart] == '0' // the integer part is exactly "0"
	if i == len(b) {
		// An integer.
		if zeroInt {
			return 0, !neg, !neg // "0" is canonical, "-0" is not
		}
		// Trailing zeros of an integer are not significant digits.
		sig := intLen
		for sig > 0 && b[intStart+sig-1] == '0' {
			sig--
		}
		if sig > ddblimits.NumberDigits || intLen-1 > maxMagnitude {
			return 0, false, false
		}
		if intLen <= 19 {
			var n uint64
			for _, c := range b[intStart:] {
				n = n*10 + uint64(c-'0')
			}
			if neg && n <= 1<<63 {
				return -int64(n), true, true
			}
			if !neg && n <= 1<<63-1 {
				return int64(n), true, true
			}
		}
		return 0, false, true
	}
	if b[i] != '.' {
		return 0, false, false
	}
	i++
	fracStart := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	fracLen := i - fracStart
	if i != len(b) || fracLen == 0 || b[len(b)-1] == '0' {
		return 0, false, false
	}
	var sig, adjusted int
	if zeroInt {
		lead := 0
		for b[fracStart+lead] == '0' {
			lead++
		}
		sig = fracLen - lead
		adjusted = -(lead + 1)
	} else {
		sig = intLen + fracLen
		adjusted = intLen - 1
	}
	if sig > ddblimits.NumberDigits || adjusted > maxMagnitude || adjusted < minMagnitude {
		return 0, false, false
	}
	return 0, false, true
}

// DynamoDB's magnitude limits.
const (
	maxMagnitude = ddblimits.NumberMaxExponent
	minMagnitude = ddblimits.NumberMinExponent
)

// compareCanon orders two canonical numbers exactly (value.CompareNumbers'
// order) without parsing them into decimals.
func compareCanon(a, b []byte) int {
	an, bn := len(a) > 0 && a[0] == '-', len(b) > 0 && b[0] == '-'
	switch {
	case an && !bn:
		return -1
	case !an && bn:
		return 1
	case an:
		return -compareMagnitude(a[1:], b[1:])
	}
	return compareMagnitude(a, b)
}

func compareMagnitude(a, b []byte) int {
	ai, af := splitCanon(a)
	bi, bf := splitCanon(b)
	if len(ai) != len(bi) {
		if len(ai) < len(bi) {
			return -1
		}
		return 1
	}
	if c := bytes.Compare(ai, bi); c != 0 {
		return c
	}
	return bytes.Compare(af, bf)
}

// splitCanon splits canonical digits into the integer part (empty for "0")
// and the fraction digits.
func splitCanon(x []byte) (intPart, frac []byte) {
	intPart = x
	if i := bytes.IndexByte(x, '.'); i >= 0 {
		intPart, frac = x[:i], x[i+1:]
	}
	if len(intPart) == 1 && intPart[0] == '0' {
		intPart = nil
	}
	return intPart, frac
}
