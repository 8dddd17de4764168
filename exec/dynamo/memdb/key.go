package memdb

import (
	"crypto/md5"

	"github.com/ddbsql/ddbsql/planner/value"
)

// encodeKey maps a key value (S, N or B) to a string whose byte order is
// DynamoDB's key order: S and B byte-wise, N numerically.
func encodeKey(v value.Value) string {
	if v.Kind() == value.Number {
		return encodeNumber(v.Text())
	}
	return v.Text()
}

// decimalParts splits canonical number text into sign, significant digits
// (no leading or trailing zeros) and the scientific exponent (the value is
// d.ddd × 10^exp). Zero has no digits.
func decimalParts(text string) (neg bool, digits string, exp int) {
	neg, digits, exp, _ = value.NumberParts(text)
	return neg, digits, exp
}

// encodeNumber is the order-preserving key of number text that ORDER BY
// sorts on too (value.AppendNumberKey).
func encodeNumber(text string) string {
	return string(value.AppendNumberKey(make([]byte, 0, len(text)+6), text))
}

// keyBytes is the serialisation DynamoDB (and dynalite) hash to place a key:
// UTF-8 for S, the raw bytes for B, the internal number format for N.
func keyBytes(v value.Value) []byte {
	if v.Kind() == value.Number {
		return numberBytes(v.Text())
	}
	return []byte(v.Text())
}

// numberBytes is DynamoDB's binary number format (base-100 digit pairs with
// an exponent byte), as dynalite reproduces it for hashing.
func numberBytes(text string) []byte {
	neg, digits, exp := decimalParts(text)
	if digits == "" {
		return []byte{0x80}
	}
	exponent := exp + 1
	appendZero := 0
	if exponent%2 != 0 {
		appendZero = 1
	}
	n := (len(digits) + appendZero + 1) / 2
	out := make([]int, n+1, n+2)
	if n < 20 && neg {
		out = append(out, 102)
	}
	out[0] = floorDiv(exponent+appendZero, 2) - 64
	if neg {
		out[0] = ^out[0]
	}
	for i := 0; i < len(digits); i++ {
		pos := i + appendZero
		idx := pos/2 + 1
		d := int(digits[i] - '0')
		if pos%2 == 0 {
			out[idx] = d * 10
		} else {
			out[idx] += d
		}
		if pos%2 == 1 || i == len(digits)-1 {
			if neg {
				out[idx] = 101 - out[idx]
			} else {
				out[idx]++
			}
		}
	}
	b := make([]byte, len(out))
	for i, x := range out {
		b[i] = byte(x)
	}
	return b
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// hashPrefix is the 24-bit placement hash of a partition (or, with a range
// value, of a whole table key): the first three bytes of
// md5("Outliers" ‖ hash ‖ range). Scan order and Scan segments follow it,
// as in DynamoDB and dynalite.
func hashPrefix(hash value.Value, rng value.Value) uint32 {
	h := md5.New()
	h.Write([]byte("Outliers"))
	h.Write(keyBytes(hash))
	if rng.Kind() != value.Missing {
		h.Write(keyBytes(rng))
	}
	var sum [md5.Size]byte
	h.Sum(sum[:0])
	return uint32(sum[0])<<16 | uint32(sum[1])<<8 | uint32(sum[2])
}

// bucket is the 12-bit Scan segment bucket of a placement hash.
func bucket(prefix uint32) int { return int(prefix >> 12) }
