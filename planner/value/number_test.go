package value

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

func TestCanonicalNumber(t *testing.T) {
	digits38 := "12345678901234567890123456789012345678"
	tests := []struct {
		in, want string
		err      string // substring of the error; "" means success
	}{
		{"0", "0", ""},
		{"-0", "0", ""},
		{"0.000", "0", ""},
		{"0E-200", "0", ""},
		{"-0.0E+50", "0", ""},
		{"1", "1", ""},
		{"1.0", "1", ""},
		{"+5", "5", ""},
		{" 7 ", "7", ""},
		{".5", "0.5", ""},
		{"5.", "5", ""},
		{"00012.3400", "12.34", ""},
		{"-00012.3400", "-12.34", ""},
		{"1e3", "1000", ""},
		{"1E+3", "1000", ""},
		{"1.5E-3", "0.0015", ""},
		{"-2.50e1", "-25", ""},
		{"100", "100", ""},
		{"1.23456789E8", "123456789", ""},
		{digits38, digits38, ""},
		{"-" + digits38, "-" + digits38, ""},
		{"0." + digits38, "0." + digits38, ""},
		{digits38 + "000", digits38 + "000", ""},      // trailing zeros are not significant
		{"000" + digits38, digits38, ""},              // nor are leading ones
		{"1E125", "1" + strings.Repeat("0", 125), ""}, // largest magnitude
		{"9.99E125", "999" + strings.Repeat("0", 123), ""},
		{"9." + strings.Repeat("9", 37) + "E125", strings.Repeat("9", 38) + strings.Repeat("0", 88), ""},
		{"1E-130", "0." + strings.Repeat("0", 129) + "1", ""}, // smallest magnitude
		{"-1E-130", "-0." + strings.Repeat("0", 129) + "1", ""},
		{"1.5E-130", "0." + strings.Repeat("0", 129) + "15", ""},
		{digits38 + "1", "", "39 significant digits"},
		{"1" + strings.Repeat("0", 39) + "1", "", "41 significant digits"},
		// More digits than any intermediate precision: must not be rounded
		// into an acceptable number (1E+99) and accepted.
		{"1" + strings.Repeat("0", 98) + "1", "", "100 significant digits"},
		{"0." + strings.Repeat("0", 40) + "1" + strings.Repeat("0", 50) + "1", "", "52 significant digits"},
		{"1E126", "", "overflow"},
		{"-1E126", "", "overflow"},
		{"10E125", "", "overflow"},
		{"1E-131", "", "underflow"},
		{"0.1E-130", "", "underflow"},
		{"1E999999999", "", "outside DynamoDB's range"},  // beyond apd's exponent range: a number, but too large
		{"1E-999999999", "", "outside DynamoDB's range"}, // and too small
		{"", "", "not a number"},
		{" ", "", "not a number"},
		{"abc", "", "not a number"},
		{"1.2.3", "", "not a number"},
		{"0x10", "", "not a number"},
		{"1_000", "", "not a number"},
		{"NaN", "", "not a number"},
		{"Infinity", "", "not a number"},
		{"-Inf", "", "not a number"},
		{"1e", "", "not a number"},
		{"--1", "", "not a number"},
		{"١", "", "not a number"},
	}
	for _, tc := range tests {
		got, err := CanonicalNumber(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("CanonicalNumber(%q): unexpected error %v", tc.in, err)
		case tc.err == "" && got != tc.want:
			t.Errorf("CanonicalNumber(%q) = %q, want %q", tc.in, got, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("CanonicalNumber(%q) = %q, %v; want an error containing %q", tc.in, got, err, tc.err)
		}
		// Num agrees with CanonicalNumber.
		v, nerr := Num(tc.in)
		if (nerr == nil) != (err == nil) || (err == nil && (v.Kind() != Number || v.Text() != got)) {
			t.Errorf("Num(%q) = %s, %v; CanonicalNumber gave %q, %v", tc.in, show(v), nerr, got, err)
		}
	}
}

func TestCanonicalNumberErrorIsShort(t *testing.T) {
	// A 39-digit coefficient with a huge exponent must not be spelled out
	// in full in the error message.
	_, err := CanonicalNumber("123456789012345678901234567890123456789E99999999")
	if err == nil || len(err.Error()) > 200 {
		t.Fatalf("error %.300q: want a short error", err)
	}
}

// Canonical text is a fixed point, and equal numbers have equal text.
func TestCanonicalNumberProperties(t *testing.T) {
	g := gen{r: newRand(t)}
	for i := 0; i < 3000; i++ {
		text := g.numberText()
		again, err := CanonicalNumber(text)
		if err != nil || again != text {
			t.Fatalf("CanonicalNumber(%q) = %q, %v; canonical text must be a fixed point", text, again, err)
		}
		if strings.ContainsAny(text, "eE+") || (strings.Contains(text, ".") && strings.HasSuffix(text, "0")) {
			t.Fatalf("canonical %q has an exponent or superfluous zeros", text)
		}
		// Rewriting it with an exponent and padding yields the same text.
		d, _, err := apd.NewFromString(text)
		if err != nil {
			t.Fatal(err)
		}
		alt := d.Text('E')
		if got, err := CanonicalNumber(alt); err != nil || got != text {
			t.Fatalf("CanonicalNumber(%q) = %q, %v; want %q", alt, got, err, text)
		}
		padded := "000" + strings.TrimPrefix(text, "-")
		if !strings.Contains(padded, ".") {
			padded += ".000"
		} else {
			padded += "000"
		}
		if strings.HasPrefix(text, "-") {
			padded = "-" + padded
		}
		if got, err := CanonicalNumber(padded); err != nil || got != text {
			t.Fatalf("CanonicalNumber(%q) = %q, %v; want %q", padded, got, err, text)
		}
	}
}

func TestFormatDecimalNotFinite(t *testing.T) {
	for _, s := range []string{"NaN", "Infinity", "-Infinity"} {
		d, _, err := apd.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := FormatDecimal(d); err == nil {
			t.Errorf("FormatDecimal(%s) succeeded", s)
		}
		if _, err := NumFromDecimal(d); err == nil {
			t.Errorf("NumFromDecimal(%s) succeeded", s)
		}
	}
	v, err := NumFromDecimal(apd.New(-12500, -3))
	if err != nil || v.Kind() != Number || v.Text() != "-12.5" {
		t.Errorf("NumFromDecimal(-12.500) = %s, %v", show(v), err)
	}
}

func TestInt64(t *testing.T) {
	tests := []struct {
		text string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"1", 1, true},
		{"-1", -1, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"9999999999999999999", 0, false},
		{"-9999999999999999999", 0, false},
		{"18446744073709551616", 0, false},
		{"10000000000000000000", 0, false},
		{"1.5", 0, false},
		{"-0.5", 0, false},
		{"1E3", 0, false}, // not canonical text
		{"-", 0, false},
		{"", 0, false},
		{"--1", 0, false},
		{"12a", 0, false},
	}
	for _, tc := range tests {
		got, ok := NumTrusted(tc.text).Int64()
		if ok != tc.ok || got != tc.want {
			t.Errorf("NumTrusted(%q).Int64() = %d, %v; want %d, %v", tc.text, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := Str("1").Int64(); ok {
		t.Error("Str(\"1\").Int64() succeeded")
	}
	g := gen{r: newRand(t)}
	for i := 0; i < 2000; i++ {
		n := int64(g.r.Uint64())
		text := strconv.FormatInt(n, 10)
		if got, ok := NumTrusted(text).Int64(); !ok || got != n {
			t.Fatalf("Int64(%q) = %d, %v", text, got, ok)
		}
	}
}

func TestCompareNumbers(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1", "2", -1},
		{"2", "1", 1},
		{"0", "0", 0},
		{"-1", "1", -1},
		{"-9223372036854775808", "9223372036854775807", -1},
		{"-9223372036854775808", "-9223372036854775809", 1},
		{"9223372036854775808", "9223372036854775807", 1},
		{"0.1", "0.09", 1},
		{"-0.1", "-0.09", -1},
		{"1.5", "1.50", 0}, // non-canonical text still compares numerically
		{"100", "1E2", 0},
		{"12345678901234567890123456789012345678", "12345678901234567890123456789012345679", -1},
		{"0." + strings.Repeat("0", 129) + "1", "0", 1},
		{"1" + strings.Repeat("0", 125), "9" + strings.Repeat("0", 124), 1},
	}
	for _, tc := range tests {
		if got := CompareNumbers(NumTrusted(tc.a), NumTrusted(tc.b)); got != tc.want {
			t.Errorf("CompareNumbers(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := CompareNumbers(NumTrusted(tc.b), NumTrusted(tc.a)); got != -tc.want {
			t.Errorf("CompareNumbers(%s, %s) = %d, want %d", tc.b, tc.a, got, -tc.want)
		}
	}
	// Against apd over DynamoDB's whole range, and against int64 compare.
	g := gen{r: newRand(t)}
	for i := 0; i < 5000; i++ {
		a, b := g.numberText(), g.numberText()
		if i%3 == 0 {
			b = a
		}
		da, _, _ := apd.NewFromString(a)
		db, _, _ := apd.NewFromString(b)
		if got, want := CompareNumbers(NumTrusted(a), NumTrusted(b)), da.Cmp(db); got != want {
			t.Fatalf("CompareNumbers(%s, %s) = %d, want %d", a, b, got, want)
		}
		x, y := int64(g.r.Uint64()), int64(g.r.Uint64())
		want := 0
		if x < y {
			want = -1
		} else if x > y {
			want = 1
		}
		if got := CompareNumbers(NumTrusted(strconv.FormatInt(x, 10)), NumTrusted(strconv.FormatInt(y, 10))); got != want {
			t.Fatalf("CompareNumbers(%d, %d) = %d, want %d", x, y, got, want)
		}
	}
}

func TestDecimal(t *testing.T) {
	d, err := NumTrusted("-12.5").Decimal()
	if err != nil || d.String() != "-12.5" {
		t.Errorf("Decimal(-12.5) = %v, %v", d, err)
	}
	if _, err := NumTrusted("x").Decimal(); err == nil {
		t.Error("Decimal of invalid text succeeded")
	}
}
