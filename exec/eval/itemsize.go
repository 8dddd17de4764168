package eval

import "github.com/ddbsql/ddbsql/planner/value"

// ItemSize is an item's size in bytes as DynamoDB counts it for capacity
// units and the 400 KB limit. item must be an M (a whole item); anything
// else has size 0.
//
// The rules, from "DynamoDB item sizes and formats"
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
//
//   - The size of an item is the sum of its attribute names (UTF-8 bytes)
//     and attribute values.
//   - S: its UTF-8 bytes. B: its raw bytes (not base64).
//   - N: "variable length, with up to 38 significant digits. Leading and
//     trailing zeroes are trimmed. The size of a number is approximately
//     (1 byte per two significant digits) + (1 byte)."
//   - BOOL and NULL: 1 byte.
//   - L and M: "3 bytes of overhead, regardless of its contents", plus the
//     size of the nested elements, and "each List or Map element also
//     requires 1 byte of overhead"; a map element also counts its name.
//   - SS, NS, BS: the sum of the members' sizes (no per-member overhead).
//
// For N the documented formula is approximate; numberSize makes it exact
// the way DynamoDB stores numbers (measured against consumed capacity by
// Zac Charles, "How to Calculate a DynamoDB Item's Size and Consumed
// Capacity", 2019): the digits are packed two per byte in base-100 digits
// aligned on the decimal point, so "1.5" (01|50) takes 2 digit bytes where
// "15" takes 1; leading and trailing zero base-100 digits are dropped; one
// byte holds the exponent, a negative number takes one more byte, and no
// number takes more than 21 bytes. For numbers whose significant digits
// start on a base-100 boundary this is exactly the documented
// ceil(digits/2) + 1.
func ItemSize(item value.Value) int64 {
	if item.Kind() != value.Map {
		return 0
	}
	var n int64
	for name, v := range item.Attrs() {
		n += int64(len(name)) + valueSize(v)
	}
	return n
}

// Overheads from the documented rules above.
const (
	documentOverhead = 3 // every L and M
	elementOverhead  = 1 // every L element and M member
	scalarOneByte    = 1 // BOOL and NULL
	maxNumberSize    = 21
)

func valueSize(v value.Value) int64 {
	switch v.Kind() {
	case value.String, value.Binary:
		return int64(len(v.Text()))
	case value.Number:
		return numberSize(v.Text())
	case value.Bool, value.Null:
		return scalarOneByte
	case value.StringSet, value.NumberSet, value.BinarySet:
		var n int64
		for _, m := range v.Elems() {
			n += valueSize(m)
		}
		return n
	case value.List:
		n := int64(documentOverhead)
		for _, e := range v.Elems() {
			n += elementOverhead + valueSize(e)
		}
		return n
	case value.Map:
		n := int64(documentOverhead)
		for name, e := range v.Attrs() {
			n += elementOverhead + int64(len(name)) + valueSize(e)
		}
		return n
	}
	return 0
}

// numberSize is the stored size of an N: the base-100 digits from the first
// to the last non-zero one, aligned on the decimal point, plus one exponent
// byte, plus one byte when negative, at most 21 bytes; zero takes 1 byte.
func numberSize(text string) int64 {
	neg, ip, fp, ok := splitCanonical(text)
	if !ok {
		canon, err := value.CanonicalNumber(text)
		if err != nil {
			return 0
		}
		if neg, ip, fp, ok = splitCanonical(canon); !ok {
			return 0
		}
	}
	if ip == "0" && fp == "" {
		return 1
	}
	// Decimal exponents of the first and last non-zero digits.
	var hi, lo int
	if ip != "0" {
		hi = len(ip) - 1
	} else {
		j := 0
		for fp[j] == '0' {
			j++
		}
		hi = -(j + 1)
	}
	if fp != "" {
		lo = -len(fp) // canonical fractions end in a non-zero digit
	} else {
		i := len(ip) - 1
		for ip[i] == '0' {
			i--
		}
		lo = len(ip) - 1 - i
	}
	size := int64(floorHalf(hi)-floorHalf(lo)) + 2
	if neg {
		size++
	}
	return min(size, maxNumberSize)
}

// floorHalf is floor(e/2): the base-100 digit position of decimal exponent e.
func floorHalf(e int) int {
	if e >= 0 {
		return e / 2
	}
	return -((-e + 1) / 2)
}
