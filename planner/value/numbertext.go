package value

import (
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// maxPaddingZeros is how many zeros that are not significant digits a
// number may need in plain notation before it prints in scientific
// notation instead. DynamoDB's magnitudes run from 1E-130 to 9.99E+125, so
// plain notation of -1E-130 is 132 characters of which one is a digit that
// means anything. 38, DynamoDB's precision, keeps plain every number whose
// plain form fits a 38-digit window around the point (1E+38, 1E-38, every
// int64, epoch time and price), as DynamoDB returns them.
const maxPaddingZeros = 38

// NumberText renders canonical number text (plain notation, as value.Number
// holds it) for output: unchanged unless plain notation needs more than
// maxPaddingZeros padding zeros, then in scientific notation with the
// significant digits only, the way DynamoDB documents its range: 1E-130,
// -1.5E+125, 1.2345E+40. Both forms are valid DynamoDB and JSON numbers and
// denote the same value, so output stays exact.
func NumberText(text string) string {
	if padding(text) <= maxPaddingZeros {
		return text
	}
	var d apd.Decimal
	if _, _, err := d.SetString(text); err != nil || d.Form != apd.Finite {
		return text
	}
	var r apd.Decimal
	r.Reduce(&d)
	return r.Text('E')
}

// padding counts the zeros plain notation needs that are not significant
// digits: trailing zeros of an integer, or the zeros between the decimal
// point and the first non-zero digit of a fraction (and the zero before
// the point). It reads the text without allocating.
func padding(text string) int {
	s := strings.TrimPrefix(text, "-")
	if dot := strings.IndexByte(s, '.'); dot >= 0 {
		if dot != 1 || s[0] != '0' {
			return 0 // a fraction with an integer part has no padding
		}
		n := 1
		for _, c := range []byte(s[2:]) {
			if c != '0' {
				break
			}
			n++
		}
		return n
	}
	n := 0
	for i := len(s) - 1; i > 0 && s[i] == '0'; i-- {
		n++
	}
	return n
}
