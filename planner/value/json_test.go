package value

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// encoderString is the reference: encoding/json with SetEscapeHTML(false),
// which appendJSONString must match byte for byte.
func encoderString(dst []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	out := buf.Bytes()
	return append(dst, out[:len(out)-1]...) // drop Encode's newline
}

func checkJSONString(t *testing.T, s string) {
	t.Helper()
	got := appendJSONString(nil, s)
	want := encoderString(nil, s)
	if !bytes.Equal(got, want) {
		t.Fatalf("appendJSONString(%q) = %s, encoding/json gives %s", s, got, want)
	}
	// And it appends: an existing prefix is kept.
	if got := appendJSONString([]byte("ab"), s); !bytes.Equal(got, append([]byte("ab"), want...)) {
		t.Fatalf("appendJSONString with a prefix = %s", got)
	}
}

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	// Every single byte and every BMP code point, alone and in context.
	for b := 0; b < 256; b++ {
		checkJSONString(t, string([]byte{byte(b)}))
		checkJSONString(t, "x"+string([]byte{byte(b)})+"y")
	}
	for r := rune(0); r <= 0x10ffff; r++ {
		if r > 0x3000 && r < 0xd700 {
			r = 0xd700 // the CJK middle behaves like its neighbours
		}
		if r > 0x10100 && r < 0x10fff0 {
			r = 0x10fff0
		}
		checkJSONString(t, "a"+string(r))
	}
	for _, s := range []string{
		"", "plain", "<b>&amp;</b>", "\u2028\u2029", "\u2027\u202a", "tab\there", "\x00\x1f\x7f",
		"\xed\xa0\x80",             // a UTF-16 surrogate encoded in UTF-8: invalid
		"\xf4\x90\x80\x80",         // beyond U+10FFFF: invalid
		"\xc0\xaf",                 // overlong: invalid
		"\xe2\x80",                 // truncated U+2028
		"\xe2\x80\xa8\xe2\x80",     // U+2028 then a truncated one
		"é\xff日本😀\"\\/",            // mixed
		strings.Repeat("ab\n", 50), // long runs between escapes
	} {
		checkJSONString(t, s)
	}
	// Random strings built from tricky pieces, valid and invalid UTF-8.
	g := gen{r: newRand(t)}
	for i := 0; i < 5000; i++ {
		checkJSONString(t, g.str()+g.str())
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a", "\u2028", "\xff", "\x00", `"\`, "é😀", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := appendJSONString(nil, s)
		if want := encoderString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendJSONString(%q) = %s, encoding/json gives %s", s, got, want)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("output %s does not parse: %v", got, err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("valid UTF-8 %q came back as %q", s, back)
		}
	})
}

func TestAppendJSONStringAllocs(t *testing.T) {
	buf := make([]byte, 0, 1024)
	s := "héllo \"world\"\n\u2028\xff" + strings.Repeat("x", 100)
	if n := testing.AllocsPerRun(100, func() { buf = appendJSONString(buf[:0], s) }); n != 0 {
		t.Errorf("appendJSONString allocates %.1f times per call into a large enough buffer", n)
	}
}

func TestAppendJSON(t *testing.T) {
	n := func(s string) Value { return mustNum(t, s) }
	tests := []struct {
		v    Value
		want string
	}{
		{MissingValue(), `null`},
		{NullValue(), `null`},
		{BoolOf(true), `true`},
		{BoolOf(false), `false`},
		{n("-12.5"), `-12.5`},
		{n("12345678901234567890123456789012345678"), `12345678901234567890123456789012345678`},
		{n("1E-130"), "1E-130"}, // scientific: plain would need 130 padding zeros (NumberText)
		{Str("a<b>&\"\\\n\u2028é"), `"a<b>&\"\\\n\u2028é"`},
		{Bin([]byte{1, 2, 3}), `"AQID"`},
		{Bin(nil), `""`},
		{ListOf(nil), `[]`},
		{ListOf([]Value{n("1"), Str("x"), NullValue(), ListOf(nil)}), `[1,"x",null,[]]`},
		{SetOf(StringSet, []Value{Str("a"), Str("b")}), `["a","b"]`},
		{SetOf(NumberSet, []Value{n("1"), n("2.5")}), `[1,2.5]`},
		{SetOf(BinarySet, []Value{Bin([]byte{1})}), `["AQ=="]`},
		{MapOf(nil), `{}`},
		{MapOf(map[string]Value{"b": n("1"), "a": MapOf(map[string]Value{"z\n": BoolOf(false)})}), `{"a":{"z\n":false},"b":1}`},
	}
	for _, tc := range tests {
		if got := string(AppendJSON(nil, tc.v)); got != tc.want {
			t.Errorf("AppendJSON(%s) = %s, want %s", show(tc.v), got, tc.want)
		}
		if got := tc.v.JSON(); got != tc.want {
			t.Errorf("JSON(%s) = %s, want %s", show(tc.v), got, tc.want)
		}
	}
	if got := string(AppendJSON(nil, Value{kind: Kind(99)})); got != "null" {
		t.Errorf("AppendJSON(unknown kind) = %s", got)
	}
	// Random values always render as valid JSON, even with invalid UTF-8.
	g := gen{r: newRand(t)}
	for i := 0; i < 2000; i++ {
		v := g.value(3)
		if out := AppendJSON(nil, v); !json.Valid(out) {
			t.Fatalf("AppendJSON(%s) = %q is not valid JSON", show(v), out)
		}
	}
}

func TestDisplay(t *testing.T) {
	n := func(s string) Value { return mustNum(t, s) }
	tests := []struct {
		v    Value
		want string
	}{
		{MissingValue(), ""},
		{NullValue(), ""},
		{Str("a\"b\n"), "a\"b\n"},
		{Str(""), ""},
		{n("-0.5"), "-0.5"},
		{Bin([]byte("hi")), "aGk="},
		{BoolOf(true), "true"},
		{BoolOf(false), "false"},
		{ListOf([]Value{Str("x")}), `["x"]`},
		{MapOf(map[string]Value{"k": n("1")}), `{"k":1}`},
		{SetOf(NumberSet, []Value{n("1"), n("2.5")}), `<<1, 2.5>>`},
		{SetOf(StringSet, []Value{Str("a"), Str("it's")}), `<<'a', 'it''s'>>`},
		{SetOf(BinarySet, []Value{Bin([]byte("hi")), Bin([]byte{1, 2})}), `<<'aGk=', 'AQI='>>`},
		{SetOf(StringSet, nil), `<<>>`},
		// A set inside a document stays a JSON array: the cell is JSON text.
		{ListOf([]Value{SetOf(StringSet, []Value{Str("a")})}), `[["a"]]`},
	}
	for _, tc := range tests {
		if got := Display(tc.v); got != tc.want {
			t.Errorf("Display(%s) = %q, want %q", show(tc.v), got, tc.want)
		}
	}
}

var jsonBenchStrings = map[string]string{
	"ascii16":   "USER#0001#ORDER1",
	"ascii256":  strings.Repeat("abcdefghijklmnop", 16),
	"escapes64": strings.Repeat("a\"b\\c\nd\t", 8),
	"unicode64": strings.Repeat("日本語テキスト", 3) + "é😀\u2028",
}

func BenchmarkAppendJSONString(b *testing.B) {
	for _, name := range []string{"ascii16", "ascii256", "escapes64", "unicode64"} {
		s := jsonBenchStrings[name]
		b.Run(name+"/direct", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(s)))
			buf := make([]byte, 0, 4*len(s)+2)
			for i := 0; i < b.N; i++ {
				buf = appendJSONString(buf[:0], s)
			}
		})
		b.Run(name+"/encoder", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(s)))
			buf := make([]byte, 0, 4*len(s)+2)
			for i := 0; i < b.N; i++ {
				buf = oldAppendJSONString(buf[:0], s)
			}
		})
	}
}

// oldAppendJSONString is the previous implementation (a json.Encoder per
// string), kept for the benchmark comparison.
func oldAppendJSONString(dst []byte, s string) []byte {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := sb.String()
	return append(dst, out[:len(out)-1]...)
}

func BenchmarkAppendJSON(b *testing.B) {
	g := gen{r: newRand(b), validUTF8: true}
	vals := make([]Value, 256)
	for i := range vals {
		vals[i] = g.value(3)
	}
	b.ReportAllocs()
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = AppendJSON(buf[:0], vals[i%len(vals)])
	}
}
