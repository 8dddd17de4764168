package partition

import (
	"fmt"
	"strings"
	"testing"
)

// hiveEscaped is Hive's charToEscape (FileUtils, Unix): 0x00–0x1F and these.
const hiveEscaped = "\"#%'*/:=?\\\x7f{[]^"

func TestEscapePathNameEveryASCII(t *testing.T) {
	for c := 0; c < 128; c++ {
		s := string(rune(c))
		got := escapePathName("a" + s + "b")
		want := "a" + s + "b"
		if c < 0x20 || strings.ContainsRune(hiveEscaped, rune(c)) {
			want = fmt.Sprintf("a%%%02Xb", c)
		}
		if got != want {
			t.Errorf("byte 0x%02x: %q, want %q", c, got, want)
		}
	}
}

func TestEscapePathName(t *testing.T) {
	for in, want := range map[string]string{
		"":                DefaultPartition,
		"plain-value_1.5": "plain-value_1.5",
		"2024/01":         "2024%2F01",
		"k=v":             "k%3Dv",
		"100%":            "100%25",
		"日本語 é":           "日本語 é", // non-ASCII is kept, as Hive keeps chars >= 128
		"}~!@$&()+,;<>|`": "}~!@$&()+,;<>|`",
		"\n\t\x00":        "%0A%09%00",
		"..":              "..",
	} {
		if got := escapePathName(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
