package value

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestParseDynamoJSON(t *testing.T) {
	n := func(s string) Value { return mustNum(t, s) }
	tests := []struct {
		in   string
		want Value
	}{
		{`{"S":"x"}`, Str("x")},
		{`{"S":""}`, Str("")},
		{`{"S":"\u00e9\n\"\\\ud83d\ude00"}`, Str("é\n\"\\😀")},
		{`{"N":"1.50"}`, n("1.5")},
		{`{"N":"-0"}`, n("0")},
		{`{"N":"1E3"}`, n("1000")},
		{`{"N": 12.0}`, n("12")}, // a bare JSON number is accepted too
		{`{"N":"12345678901234567890123456789012345678"}`, n("12345678901234567890123456789012345678")},
		{`{"B":"AQID"}`, Bin([]byte{1, 2, 3})},
		{`{"B":""}`, Bin(nil)},
		{`{"BOOL":true}`, BoolOf(true)},
		{`{"BOOL":false}`, BoolOf(false)},
		{`{"NULL":true}`, NullValue()},
		{`{"L":[]}`, ListOf([]Value{})},
		{`{"L":[{"S":"a"},{"N":"1"},{"NULL":true}]}`, ListOf([]Value{Str("a"), n("1"), NullValue()})},
		{`{"M":{}}`, MapOf(nil)},
		{`{"M":{"a.b":{"M":{"c":{"BOOL":false}}},"x-y":{"L":[]}}}`, MapOf(map[string]Value{
			"a.b": MapOf(map[string]Value{"c": BoolOf(false)}), "x-y": ListOf([]Value{}),
		})},
		// Sets come out sorted whatever order they arrive in.
		{`{"SS":["b","a","c"]}`, SetOf(StringSet, []Value{Str("a"), Str("b"), Str("c")})},
		{`{"NS":["10","9","-1.5"]}`, SetOf(NumberSet, []Value{n("-1.5"), n("9"), n("10")})},
		{`{"BS":["Ag==","AQ=="]}`, SetOf(BinarySet, []Value{Bin([]byte{1}), Bin([]byte{2})})},
		{` { "S" : "spaces" } `, Str("spaces")},
	}
	for _, tc := range tests {
		got, err := ParseDynamoJSON([]byte(tc.in))
		if err != nil {
			t.Errorf("ParseDynamoJSON(%s): %v", tc.in, err)
			continue
		}
		if !identical(got, tc.want) {
			t.Errorf("ParseDynamoJSON(%s) = %s, want %s", tc.in, show(got), show(tc.want))
		}
	}
}

func TestParseDynamoJSONErrors(t *testing.T) {
	tests := []string{
		``,
		`null`,
		`[]`,
		`"S"`,
		`{}`,
		`{"S":"a","N":"1"}`,
		`{"X":"a"}`,
		`{"s":"a"}`,
		`{"S":1}`,
		`{"N":"abc"}`,
		`{"N":"1E200"}`,
		`{"N":"123456789012345678901234567890123456789"}`,
		`{"N":true}`,
		`{"N":"1" }x`,
		`{"B":"not base64!"}`,
		`{"B":1}`,
		`{"BOOL":"true"}`,
		`{"NULL":false}`,
		`{"NULL":"yes"}`,
		`{"L":{}}`,
		`{"L":[{"S":"a"},{}]}`,
		`{"L":[null]}`,
		`{"L":[{"Q":1}]}`,
		`{"M":[]}`,
		`{"M":{"a":{}}}`,
		`{"M":{"a":{"N":"x"}}}`,
		`{"SS":"a"}`,
		`{"SS":[1]}`,
		`{"SS":[]}`,
		`{"NS":[]}`,
		`{"BS":[]}`,
		`{"SS":["a","a"]}`,
		`{"NS":["1","1.0"]}`,
		`{"BS":["AQ==","AQ=="]}`,
		`{"NS":["x"]}`,
		`{"BS":["!!"]}`,
		`{"S":"a"`,
	}
	for _, in := range tests {
		if v, err := ParseDynamoJSON([]byte(in)); err == nil {
			t.Errorf("ParseDynamoJSON(%s) = %s, want an error", in, show(v))
		}
	}
}

func TestParseItemJSON(t *testing.T) {
	item, err := ParseItemJSON([]byte(`{"PK":{"S":"USER#1"},"n":{"N":"007"},"tags":{"SS":["y","x"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := MapOf(map[string]Value{
		"PK":   Str("USER#1"),
		"n":    mustNum(t, "7"),
		"tags": SetOf(StringSet, []Value{Str("x"), Str("y")}),
	})
	if !identical(item, want) {
		t.Errorf("ParseItemJSON = %s, want %s", show(item), show(want))
	}
	if got := string(AppendItemJSON(nil, item)); got != `{"PK":{"S":"USER#1"},"n":{"N":"7"},"tags":{"SS":["x","y"]}}` {
		t.Errorf("AppendItemJSON = %s", got)
	}
	empty, err := ParseItemJSON([]byte(`{}`))
	if err != nil || empty.Kind() != Map || len(empty.Attrs()) != 0 {
		t.Errorf("ParseItemJSON({}) = %s, %v", show(empty), err)
	}
	for _, bad := range []string{``, `null`, `[]`, `{"a":1}`, `{"a":{}}`, `{"a":{"N":"x"}}`, `{"a":{"S":"x","N":"1"}}`} {
		if v, err := ParseItemJSON([]byte(bad)); err == nil {
			t.Errorf("ParseItemJSON(%s) = %s, want an error", bad, show(v))
		}
	}
	if _, err := ParseItemJSON([]byte(`{"bad":{"N":"x"}}`)); err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("ParseItemJSON error %v does not name the attribute", err)
	}
}

func TestAppendDynamoJSON(t *testing.T) {
	n := func(s string) Value { return mustNum(t, s) }
	tests := []struct {
		v    Value
		want string
	}{
		{MissingValue(), `{"NULL":true}`},
		{NullValue(), `{"NULL":true}`},
		{Str("a\"<b>&\u2028"), `{"S":"a\"<b>&\u2028"}`},
		{n("-1.5"), `{"N":"-1.5"}`},
		{Bin([]byte{0xff, 0}), `{"B":"/wA="}`},
		{Bin(nil), `{"B":""}`},
		{BoolOf(true), `{"BOOL":true}`},
		{BoolOf(false), `{"BOOL":false}`},
		{ListOf(nil), `{"L":[]}`},
		{ListOf([]Value{n("1"), NullValue()}), `{"L":[{"N":"1"},{"NULL":true}]}`},
		{MapOf(nil), `{"M":{}}`},
		{MapOf(map[string]Value{"b": n("2"), "a": Str("x")}), `{"M":{"a":{"S":"x"},"b":{"N":"2"}}}`},
		{SetOf(StringSet, []Value{Str("a"), Str("b\n")}), `{"SS":["a","b\n"]}`},
		{SetOf(NumberSet, []Value{n("1"), n("2.5")}), `{"NS":["1","2.5"]}`},
		{SetOf(BinarySet, []Value{Bin([]byte{1}), Bin([]byte{2, 3})}), `{"BS":["AQ==","AgM="]}`},
	}
	for _, tc := range tests {
		if got := string(AppendDynamoJSON(nil, tc.v)); got != tc.want {
			t.Errorf("AppendDynamoJSON(%s) = %s, want %s", tc.v.kind, got, tc.want)
		}
	}
}

// Every value with valid UTF-8 text survives AppendDynamoJSON → ParseDynamoJSON
// exactly, and the output is valid JSON.
func TestDynamoJSONRoundTrip(t *testing.T) {
	g := gen{r: newRand(t), validUTF8: true}
	for i := 0; i < 3000; i++ {
		v := g.value(3)
		out := AppendDynamoJSON(nil, v)
		if !json.Valid(out) {
			t.Fatalf("AppendDynamoJSON(%s) is not valid JSON: %s", v.kind, out)
		}
		got, err := ParseDynamoJSON(out)
		if err != nil {
			t.Fatalf("ParseDynamoJSON(%s): %v", out, err)
		}
		if !identical(got, v) {
			t.Fatalf("round trip of %s: got %s", out, show(got))
		}
		if v.kind == Map {
			item, err := ParseItemJSON(AppendItemJSON(nil, v))
			if err != nil || !identical(item, v) {
				t.Fatalf("item round trip of %s: %s, %v", out, show(item), err)
			}
		}
	}
}

// Invalid UTF-8 in strings comes out as U+FFFD, never as invalid JSON.
func TestAppendDynamoJSONInvalidUTF8(t *testing.T) {
	out := AppendDynamoJSON(nil, MapOf(map[string]Value{"k\xff": Str("a\xc3")}))
	if !json.Valid(out) {
		t.Fatalf("invalid JSON: %q", out)
	}
	if want := `{"M":{"k\ufffd":{"S":"a\ufffd"}}}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
}

func FuzzParseDynamoJSON(f *testing.F) {
	g := gen{r: newRand(f), validUTF8: true}
	for i := 0; i < 40; i++ {
		f.Add(AppendDynamoJSON(nil, g.value(3)))
	}
	for _, s := range []string{`{"N":"1e5"}`, `{"NS":["1","1.0"]}`, `{"S":"\ud800"}`, `{"M":{"a":{"S":"x"},"a":{"N":"1"}}}`, `{"L":[[]]}`, `{"B":"===="}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseDynamoJSON(data)
		if err != nil {
			return
		}
		out := AppendDynamoJSON(nil, v)
		if !json.Valid(out) {
			t.Fatalf("AppendDynamoJSON output is not valid JSON: %q", out)
		}
		again, err := ParseDynamoJSON(out)
		if err != nil {
			t.Fatalf("re-parsing %s: %v", out, err)
		}
		if !identical(again, v) {
			t.Fatalf("unstable: %s → %s", data, out)
		}
		if out2 := AppendDynamoJSON(nil, again); !bytes.Equal(out, out2) {
			t.Fatalf("not a fixed point: %s then %s", out, out2)
		}
	})
}
