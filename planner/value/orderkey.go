package value

import (
	"encoding/binary"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// AppendOrderKey appends v's order key to dst: bytes whose bytes.Compare
// order is exactly Order's, so a sort can compare one []byte per row
// instead of values. Keys are prefix-free (no key is a proper prefix of
// another), so several appended one after another compare key by key, and
// a key with every byte inverted (InvertKey) orders in reverse — DESC.
//
// Layout: a kind byte (Kind+1, leaving 0 for "end of list or map"), then
//
//	BOOL    0 or 1
//	N       AppendNumberKey
//	S, B    the bytes with 0x00 written 0x00 0xFF, ended by 0x00 0x00
//	sets, L every element's key, then 0x00
//	M       per key in sorted order: 0x01, the key as S, the value's key; then 0x00
func AppendOrderKey(dst []byte, v Value) []byte {
	dst = append(dst, byte(v.kind)+1)
	switch v.kind {
	case Bool:
		if v.flag {
			return append(dst, 1)
		}
		return append(dst, 0)
	case Number:
		return AppendNumberKey(dst, v.text)
	case String, Binary:
		return appendEscaped(dst, v.text)
	case List, StringSet, NumberSet, BinarySet:
		for _, e := range v.elems {
			dst = AppendOrderKey(dst, e)
		}
		return append(dst, 0)
	case Map:
		for _, k := range v.SortedKeys() {
			dst = append(dst, 1)
			dst = appendEscaped(dst, k)
			dst = AppendOrderKey(dst, v.attrs[k])
		}
		return append(dst, 0)
	}
	return dst // Missing, Null: the kind says it all
}

// InvertKey flips every byte of key in place: the inverted keys of a
// prefix-free code order in reverse.
func InvertKey(key []byte) {
	for i := range key {
		key[i] = ^key[i]
	}
}

// appendEscaped appends s so that byte order is kept and the end is
// recognisable: 0x00 becomes 0x00 0xFF, and 0x00 0x00 ends it (below any
// continuation, so a prefix sorts first).
func appendEscaped(dst []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			break
		}
		dst = append(dst, s[:i+1]...)
		dst = append(dst, 0xFF)
		s = s[i+1:]
	}
	dst = append(dst, s...)
	return append(dst, 0, 0)
}

// Sign bytes of number keys: every negative number before zero before
// every positive one; text that is no number (never produced by this
// package) after them all, by its bytes.
const (
	numNegative = 0x00
	numZero     = 0x01
	numPositive = 0x02
	numInvalid  = 0x03
)

// AppendNumberKey appends an order-preserving, prefix-free key of an exact
// decimal's text: a sign byte, the decimal exponent (d.ddd × 10^exp; see
// appendExponent), then the significant digits. A
// positive number's digits end with 0x00 (a shorter mantissa is smaller);
// a negative number's exponent and digits are complemented and end with
// '~' (above every complemented digit: a shorter mantissa is larger). Any
// exponent is exact, so results past DynamoDB's range (SUM) order too.
func AppendNumberKey(dst []byte, text string) []byte {
	neg, digits, exp, ok := NumberParts(text)
	switch {
	case !ok:
		dst = append(dst, numInvalid)
		return appendEscaped(dst, text)
	case digits == "":
		return append(dst, numZero)
	case neg:
		dst = append(dst, numNegative)
		start := len(dst)
		dst = appendExponent(dst, exp)
		InvertKey(dst[start:])
		for i := 0; i < len(digits); i++ {
			dst = append(dst, '9'-digits[i]+'0')
		}
		return append(dst, '~')
	}
	dst = append(dst, numPositive)
	dst = appendExponent(dst, exp)
	dst = append(dst, digits...)
	return append(dst, 0)
}

// appendExponent writes exp in one byte (exp+128) for every exponent
// DynamoDB stores (-127..126), and otherwise as 0x00 or 0xFF (below and
// above every one-byte exponent) and four big-endian bytes offset by 2^31:
// order-preserving and prefix-free.
func appendExponent(dst []byte, exp int) []byte {
	switch {
	case exp >= -127 && exp <= 126:
		return append(dst, byte(exp+128))
	case exp < 0:
		dst = append(dst, 0x00)
	default:
		dst = append(dst, 0xFF)
	}
	return binary.BigEndian.AppendUint32(dst, uint32(int64(exp)+1<<31))
}

// AppendInt64Key is AppendOrderKey of the N value x, without its text.
func AppendInt64Key(dst []byte, x int64) []byte {
	dst = append(dst, byte(Number)+1)
	if x == 0 {
		return append(dst, numZero)
	}
	neg := x < 0
	u := uint64(x)
	if neg {
		u = -u
	}
	var buf [20]byte
	i := len(buf)
	for u > 0 {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
	}
	digits := buf[i:]
	exp := len(digits) - 1
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if neg {
		dst = append(dst, numNegative, ^byte(exp+128))
		for _, d := range digits {
			dst = append(dst, '9'-d+'0')
		}
		return append(dst, '~')
	}
	dst = append(dst, numPositive, byte(exp+128))
	dst = append(dst, digits...)
	return append(dst, 0)
}

// AppendStringKey is AppendOrderKey of the S value s.
func AppendStringKey(dst []byte, s string) []byte {
	return appendEscaped(append(dst, byte(String)+1), s)
}

// NumberParts splits number text into its sign, significant digits (no
// leading or trailing zeros; none for zero) and scientific exponent (the
// value is d.ddd × 10^exp). Canonical text (plain notation, as stored) is
// split without allocating; other text is read as a decimal first. ok is
// false for text that is no number.
func NumberParts(text string) (neg bool, digits string, exp int, ok bool) {
	if !plainDecimal(text) {
		d, _, err := apd.NewFromString(text)
		if err != nil || d.Form != apd.Finite {
			return false, "", 0, false
		}
		text = d.Text('f')
	}
	if strings.HasPrefix(text, "-") {
		neg, text = true, text[1:]
	}
	intPart, frac, _ := strings.Cut(text, ".")
	lead := 0
	for lead < len(intPart) && intPart[lead] == '0' {
		lead++
	}
	if lead == len(intPart) {
		// No integer digits: the exponent is negative, from the fraction.
		z := 0
		for z < len(frac) && frac[z] == '0' {
			z++
		}
		digits = strings.TrimRight(frac[z:], "0")
		if digits == "" {
			return false, "", 0, true
		}
		return neg, digits, -1 - z, true
	}
	intPart = intPart[lead:]
	if frac == "" {
		digits = strings.TrimRight(intPart, "0")
	} else if f := strings.TrimRight(frac, "0"); f == "" {
		digits = strings.TrimRight(intPart, "0")
	} else {
		digits = intPart + f // allocates only for numbers with a fraction
	}
	return neg, digits, len(intPart) - 1, true
}

// plainDecimal reports whether text is [-]digits[.digits] with at least one
// digit before the point.
func plainDecimal(text string) bool {
	i := 0
	if i < len(text) && text[i] == '-' {
		i++
	}
	start := i
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	if i == start {
		return false
	}
	if i == len(text) {
		return true
	}
	if text[i] != '.' {
		return false
	}
	i++
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	return i == len(text)
}
