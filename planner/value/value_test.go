package value

import (
	"bytes"
	"testing"
	"unsafe"
)

func TestConstructorsAndAccessors(t *testing.T) {
	if v := MissingValue(); v.Kind() != Missing || !v.IsNull() {
		t.Error("MissingValue")
	}
	if v := NullValue(); v.Kind() != Null || !v.IsNull() {
		t.Error("NullValue")
	}
	if v := Str("x"); v.Kind() != String || v.Text() != "x" || v.IsNull() {
		t.Error("Str")
	}
	if v := BoolOf(true); v.Kind() != Bool || !v.Bool() {
		t.Error("BoolOf")
	}
	b := []byte{1, 2}
	v := Bin(b)
	b[0] = 7
	if v.Kind() != Binary || string(v.Bytes()) != "\x01\x02" {
		t.Error("Bin must not alias its argument")
	}
	if _, err := Num("x"); err == nil {
		t.Error("Num(x) succeeded")
	}
	if v := NumTrusted("1.50"); v.Text() != "1.50" {
		t.Error("NumTrusted must keep its text")
	}
	l := ListOf([]Value{Str("a"), Str("b")})
	if l.Kind() != List || len(l.Elems()) != 2 || l.Index(1).Text() != "b" || l.Index(2).Kind() != Missing || l.Index(-1).Kind() != Missing {
		t.Error("ListOf / Index")
	}
	if Str("a").Index(0).Kind() != Missing {
		t.Error("Index on a non-list")
	}
	m := MapOf(nil)
	if m.Kind() != Map || m.Attrs() == nil || len(m.SortedKeys()) != 0 {
		t.Error("MapOf(nil) must be an empty map")
	}
	m = MapOf(map[string]Value{"b": Str("2"), "a": Str("1"), "B": Str("0")})
	if keys := m.SortedKeys(); len(keys) != 3 || keys[0] != "B" || keys[1] != "a" || keys[2] != "b" {
		t.Errorf("SortedKeys = %v", keys)
	}
	if m.Attr("a").Text() != "1" || m.Attr("z").Kind() != Missing || Str("a").Attr("a").Kind() != Missing {
		t.Error("Attr")
	}
	for _, k := range []Kind{StringSet, NumberSet, BinarySet} {
		if !SetOf(k, nil).IsSet() {
			t.Errorf("%s.IsSet", k)
		}
	}
	if l.IsSet() || m.IsSet() {
		t.Error("IsSet on a document")
	}
	memberKinds := map[Kind]Kind{StringSet: String, NumberSet: Number, BinarySet: Binary, List: Missing, String: Missing}
	for set, want := range memberKinds {
		if got := MemberKind(set); got != want {
			t.Errorf("MemberKind(%s) = %s, want %s", set, got, want)
		}
	}
	names := map[Kind]string{Missing: "MISSING", Null: "NULL", Bool: "BOOL", Number: "N", String: "S", Binary: "B",
		NumberSet: "NS", StringSet: "SS", BinarySet: "BS", List: "L", Map: "M"}
	for k, want := range names {
		if k.String() != want {
			t.Errorf("Kind %d = %s, want %s", k, k, want)
		}
	}
}

// Clone copies every byte a value points to, however deep: a value built
// over a buffer that is then overwritten (as an Arrow batch's is when it is
// released) keeps its clone intact.
func TestCloneSharesNoMemory(t *testing.T) {
	buf := []byte("abc12xyzk")
	view := func(from, to int) string { return unsafe.String(&buf[from], to-from) }
	s, n, b := Str(view(0, 3)), NumTrusted(view(3, 5)), Value{kind: Binary, text: view(5, 8)}
	orig := MapOf(map[string]Value{
		view(8, 9): s, // a member name in the buffer too
		"l":        ListOf([]Value{s, n, ListOf([]Value{b})}),
		"ss":       SetOf(StringSet, []Value{s}),
		"n":        n,
		"b":        b,
		"t":        BoolOf(true),
		"z":        NullValue(),
	})
	want := string(AppendBinary(nil, orig))
	clone := orig.Clone()
	for i := range buf {
		buf[i] = 0xA5
	}
	if string(AppendBinary(nil, orig)) == want {
		t.Fatal("overwriting the buffer did not change the original; the test shows nothing")
	}
	if got := string(AppendBinary(nil, clone)); got != want {
		t.Errorf("the clone changed with the buffer it was cloned from:\n got %q\nwant %q", got, want)
	}
	for _, v := range []Value{MissingValue(), NullValue(), BoolOf(false), ListOf(nil), SetOf(NumberSet, nil)} {
		if c := v.Clone(); !bytes.Equal(AppendBinary(nil, c), AppendBinary(nil, v)) || c.Kind() != v.Kind() {
			t.Errorf("Clone(%s) = %s", v.Kind(), c.Kind())
		}
	}
}
