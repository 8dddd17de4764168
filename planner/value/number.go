package value

import (
	"fmt"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
)

// DynamoDB's number limits.
const (
	// MaxDigits is DynamoDB's precision, the digits NumberContext keeps.
	MaxDigits     = ddblimits.NumberDigits
	maxMagnitude  = ddblimits.NumberMaxExponent // largest allowed adjusted exponent (9.99…E+125)
	minMagnitude  = ddblimits.NumberMinExponent // smallest allowed adjusted exponent (1E-130)
	contextDigits = MaxDigits
	contextMaxExp = maxMagnitude
	contextMinExp = minMagnitude
)

// NumberContext is the decimal context for arithmetic whose results must fit
// a DynamoDB number; inexact or out-of-range results raise errors.
var NumberContext = apd.Context{
	Precision:   contextDigits,
	MaxExponent: contextMaxExp,
	MinExponent: contextMinExp,
	Rounding:    apd.RoundHalfEven,
	Traps:       apd.Overflow | apd.Underflow | apd.Inexact | apd.DivisionByZero | apd.InvalidOperation,
}

// CanonicalNumber validates decimal text against DynamoDB's rules and returns
// it in the form DynamoDB stores: plain notation, no leading or trailing zeros,
// no exponent, "0" for any zero.
func CanonicalNumber(text string) (string, error) {
	// Decimal.SetString parses exactly: a context's SetString would round to
	// its precision and let a 100-digit number through as its rounded value.
	var d apd.Decimal
	_, _, err := d.SetString(strings.TrimSpace(text))
	if err != nil && strings.Contains(err.Error(), "exponent out of range") {
		// A number, but one whose exponent no decimal type can hold, let
		// alone DynamoDB's (1E-130 to 9.99E+125 in magnitude).
		return "", fmt.Errorf("number overflow: %q is outside DynamoDB's range (magnitude 1E-130 to 9.99E+125)", text)
	}
	if err != nil || d.Form != apd.Finite {
		return "", fmt.Errorf("%q is not a number", text)
	}
	return FormatDecimal(&d)
}

// FormatDecimal checks d against DynamoDB's limits and renders it canonically.
func FormatDecimal(d *apd.Decimal) (string, error) {
	if d.Form != apd.Finite {
		return "", fmt.Errorf("number is not finite")
	}
	var r apd.Decimal
	r.Reduce(d)
	if r.IsZero() {
		return "0", nil
	}
	digits := r.NumDigits()
	if digits > MaxDigits {
		// 'G' keeps the message short for huge exponents ('f' would spell
		// out every zero of 1234…E+999999999).
		return "", fmt.Errorf("number %s has %d significant digits; DynamoDB allows at most %d", r.Text('G'), digits, MaxDigits)
	}
	adjusted := int64(r.Exponent) + digits - 1
	if adjusted > maxMagnitude {
		return "", fmt.Errorf("number overflow: magnitude larger than DynamoDB's 9.99E+125")
	}
	if adjusted < minMagnitude {
		return "", fmt.Errorf("number underflow: magnitude smaller than DynamoDB's 1E-130")
	}
	return r.Text('f'), nil
}

// Decimal parses an N value's text. Callers must pass a Number value.
func (v Value) Decimal() (*apd.Decimal, error) {
	d, _, err := apd.NewFromString(v.text)
	if err != nil {
		return nil, fmt.Errorf("invalid number %q", v.text)
	}
	return d, nil
}

// Int64 returns the number as an int64 when it is an integer in range.
func (v Value) Int64() (int64, bool) {
	if v.kind != Number {
		return 0, false
	}
	return parseInt64(v.text)
}

// parseInt64 parses canonical integer text without allocating.
func parseInt64(s string) (int64, bool) {
	neg := s != "" && s[0] == '-'
	if neg {
		s = s[1:]
	}
	// At most 19 digits, so the uint64 below cannot overflow; the sign is
	// not counted, or -9223372036854775808 would be refused.
	if s == "" || len(s) > 19 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		if n > 1<<63 {
			return 0, false
		}
		return -int64(n), true
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}

// NumFromDecimal converts an exact decimal result into an N value, failing
// when it does not fit DynamoDB's number range.
func NumFromDecimal(d *apd.Decimal) (Value, error) {
	text, err := FormatDecimal(d)
	if err != nil {
		return Value{}, err
	}
	return Value{kind: Number, text: text}, nil
}

// NumFromExact converts an exact decimal that is a query's result, not an
// attribute DynamoDB stores (SUM, AVG), into an N value: the same canonical
// text as FormatDecimal, but with no limit on digits or magnitude, so a sum
// of many 38-digit numbers prints all its digits instead of failing.
func NumFromExact(d *apd.Decimal) (Value, error) {
	if d.Form != apd.Finite {
		return Value{}, fmt.Errorf("number is not finite")
	}
	var r apd.Decimal
	r.Reduce(d)
	if r.IsZero() {
		return Value{kind: Number, text: "0"}, nil
	}
	return Value{kind: Number, text: r.Text('f')}, nil
}

// CompareNumbers orders two N values exactly.
func CompareNumbers(a, b Value) int {
	if x, ok := parseInt64(a.text); ok {
		if y, ok := parseInt64(b.text); ok {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
	}
	da, errA := a.Decimal()
	db, errB := b.Decimal()
	if errA != nil || errB != nil {
		return strings.Compare(a.text, b.text)
	}
	return da.Cmp(db)
}
