package value

import (
	"strings"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

func TestNumberText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"7", "7"},
		{"-42.5", "-42.5"},
		{"9223372036854775807", "9223372036854775807"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"1" + strings.Repeat("0", 38), "1" + strings.Repeat("0", 38)}, // 38 padding zeros: plain
		{"1" + strings.Repeat("0", 39), "1E+39"},
		{"15" + strings.Repeat("0", 124), "1.5E+125"},
		{"-0." + strings.Repeat("0", 129) + "1", "-1E-130"},
		{"0." + strings.Repeat("0", 37) + "1", "0." + strings.Repeat("0", 37) + "1"}, // 1E-38: 38 padding zeros
		{"0." + strings.Repeat("0", 38) + "1", "1E-39"},
		{"0." + strings.Repeat("0", 40) + "123", "1.23E-41"},
		{"1" + strings.Repeat("0", 40) + "." + "5", "1" + strings.Repeat("0", 40) + ".5"},
		{"12345678901234567890123456789012345678" + strings.Repeat("0", 39), "1.2345678901234567890123456789012345678E+76"},
		{"1" + strings.Repeat("0", 60) + "1", "1" + strings.Repeat("0", 60) + "1"}, // an exact sum: all digits significant
	}
	for _, tc := range tests {
		got := NumberText(tc.in)
		if got != tc.want {
			t.Errorf("NumberText(%s) = %s, want %s", tc.in, got, tc.want)
		}
		// Both forms denote the same number.
		var a, b apd.Decimal
		if _, _, err := a.SetString(tc.in); err != nil {
			t.Fatal(err)
		}
		if _, _, err := b.SetString(got); err != nil {
			t.Fatalf("NumberText(%s) = %s does not parse: %v", tc.in, got, err)
		}
		if a.Cmp(&b) != 0 {
			t.Errorf("NumberText(%s) = %s is another number", tc.in, got)
		}
	}
}

func TestNumberTextInOutput(t *testing.T) {
	tiny, err := CanonicalNumber("-1E-130")
	if err != nil {
		t.Fatal(err)
	}
	v := NumTrusted(tiny)
	if got := Display(v); got != "-1E-130" {
		t.Errorf("Display = %q, want -1E-130", got)
	}
	if got := v.JSON(); got != "-1E-130" {
		t.Errorf("JSON = %q, want -1E-130", got)
	}
}
