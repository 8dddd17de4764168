package memdb

import (
	"fmt"
	"sort"
	"testing"

	"github.com/ddbsql/ddbsql/planner/value"
)

func num(t testing.TB, s string) value.Value {
	t.Helper()
	v, err := value.Num(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Reference values computed with dynalite 4.0.0's db.hashPrefix.
func TestHashPrefixMatchesDynalite(t *testing.T) {
	cases := []struct {
		v                   value.Value
		alone, withS, withN string
	}{
		{value.Str("abc"), "12db4f", "ce6205", "95c316"},
		{value.Str(""), "65a4c0", "545e26", "d5f50b"},
		{num(t, "0"), "ce212d", "1bb757", "5fb303"},
		{num(t, "1"), "c3a031", "e72c78", "001d2d"},
		{num(t, "-1"), "0267df", "a83417", "1e1b24"},
		{num(t, "12.5"), "472398", "5414a4", "422413"},
		{num(t, "-0.001"), "e0a1b7", "19dd09", "de9bd9"},
		{num(t, "1200"), "66c7e2", "57a88c", "9dfdb8"},
		{num(t, "99999999999999999999999999999999999999"), "be31f6", "a284ce", "035974"},
		{num(t, "-123456789012345678901234"), "213aa9", "eb13d0", "3b10cf"},
		{num(t, "0.5"), "b4a0a7", "2f8444", "05ccff"},
		{num(t, "10"), "3c465f", "c0390d", "afda79"},
		{num(t, "-10"), "63129f", "00b30f", "3b1ba5"},
		{value.Bin([]byte{1, 2, 255}), "b1fcab", "4413ca", "03259c"},
	}
	for _, c := range cases {
		got := []string{
			fmt.Sprintf("%06x", hashPrefix(c.v, value.MissingValue())),
			fmt.Sprintf("%06x", hashPrefix(c.v, value.Str("x"))),
			fmt.Sprintf("%06x", hashPrefix(c.v, num(t, "5"))),
		}
		want := []string{c.alone, c.withS, c.withN}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("hashPrefix(%v)[%d] = %s, want %s", c.v.Text(), i, got[i], want[i])
			}
		}
	}
}

func TestEncodeNumberOrder(t *testing.T) {
	texts := []string{"-1e125", "-99.1", "-10", "-9.91", "-1.25", "-1.2", "-1", "-0.5", "-1e-130",
		"0", "1e-130", "0.001", "0.5", "1", "1.2", "1.25", "9.91", "10", "99.1", "1200", "9.9999e125"}
	var enc []string
	for _, s := range texts {
		enc = append(enc, encodeKey(num(t, s)))
	}
	if !sort.StringsAreSorted(enc) {
		for i := 1; i < len(enc); i++ {
			if enc[i-1] >= enc[i] {
				t.Errorf("encode(%s) >= encode(%s)", texts[i-1], texts[i])
			}
		}
	}
}
