package value

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func TestBinaryRoundTrip(t *testing.T) {
	g := gen{r: newRand(t)}
	fixed := []Value{
		MissingValue(), NullValue(), BoolOf(true), BoolOf(false), Str(""), Str("\xff\x00"),
		NumTrusted("-9223372036854775808"), Bin(nil), Bin([]byte{0}), ListOf(nil), MapOf(nil),
		MapOf(map[string]Value{"": Str(""), "a.b": ListOf([]Value{NullValue(), MissingValue()})}),
	}
	for i := 0; i < 3000+len(fixed); i++ {
		var v Value
		if i < len(fixed) {
			v = fixed[i]
		} else {
			v = g.value(3)
		}
		enc := AppendBinary(nil, v)
		got, err := DecodeBinary(enc)
		if err != nil {
			t.Fatalf("DecodeBinary(AppendBinary(%s)): %v", show(v), err)
		}
		if !identical(got, v) {
			t.Fatalf("round trip: got %s, want %s", show(got), show(v))
		}
		// Appending to a non-empty buffer leaves the prefix alone.
		prefixed := AppendBinary([]byte("xyz"), v)
		if !bytes.Equal(prefixed[:3], []byte("xyz")) || !bytes.Equal(prefixed[3:], enc) {
			t.Fatalf("AppendBinary with a prefix differs for %s", show(v))
		}
		// Equal values encode equally (maps are written in key order).
		if again := AppendBinary(nil, got); !bytes.Equal(again, enc) {
			t.Fatalf("re-encoding %s differs", show(v))
		}
		// Every strict prefix is corrupt: the encoding is self-delimiting.
		if len(enc) > 1 {
			cut := 1 + g.r.IntN(len(enc)-1)
			if _, err := DecodeBinary(enc[:cut]); err == nil {
				t.Fatalf("DecodeBinary of a %d/%d-byte prefix of %s succeeded", cut, len(enc), show(v))
			}
		}
		if _, err := DecodeBinary(append(enc[:len(enc):len(enc)], 0)); err == nil {
			t.Fatalf("DecodeBinary with a trailing byte after %s succeeded", show(v))
		}
	}
}

func TestDecodeBinaryCorrupt(t *testing.T) {
	huge := binary.AppendUvarint(nil, 1<<62)
	tests := map[string][]byte{
		"empty":                     nil,
		"unknown kind":              {byte(Map) + 1},
		"kind 255":                  {255},
		"bool without byte":         {byte(Bool)},
		"bool byte 2":               {byte(Bool), 2},
		"string without length":     {byte(String)},
		"string too short":          {byte(String), 3, 'a', 'b'},
		"string huge length":        append([]byte{byte(String)}, huge...),
		"string overlong varint":    {byte(String), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
		"number truncated":          {byte(Number), 2, '1'},
		"list without count":        {byte(List)},
		"list count beyond input":   {byte(List), 5, byte(Null)},
		"list huge count":           append([]byte{byte(List)}, huge...),
		"list element corrupt":      {byte(List), 1, 99},
		"set member missing":        {byte(StringSet), 2, byte(String), 1, 'a'},
		"map without count":         {byte(Map)},
		"map huge count":            append([]byte{byte(Map)}, huge...),
		"map key truncated":         {byte(Map), 1, 5, 'a'},
		"map key huge":              append(append([]byte{byte(Map), 1}, huge...), 'a'),
		"map value missing":         {byte(Map), 1, 1, 'k'},
		"map value corrupt":         {byte(Map), 1, 1, 'k', 77},
		"trailing bytes":            {byte(Null), 0},
		"nested list truncated":     {byte(List), 1, byte(List), 1},
		"map key varint incomplete": {byte(Map), 1, 0x80},
	}
	for name, b := range tests {
		if v, err := DecodeBinary(b); err == nil {
			t.Errorf("%s: DecodeBinary(%x) = %s, want an error", name, b, show(v))
		}
	}
}

func FuzzDecodeBinary(f *testing.F) {
	g := gen{r: newRand(f)}
	for i := 0; i < 50; i++ {
		f.Add(AppendBinary(nil, g.value(3)))
	}
	f.Add([]byte{})
	f.Add([]byte{byte(List), 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{byte(Map), 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := DecodeBinary(b)
		if err != nil {
			return
		}
		// Whatever decodes re-encodes to something that decodes to the same value.
		enc := AppendBinary(nil, v)
		again, err := DecodeBinary(enc)
		if err != nil {
			t.Fatalf("DecodeBinary(AppendBinary(DecodeBinary(%x))): %v", b, err)
		}
		if !identical(again, v) {
			t.Fatalf("unstable round trip for %x", b)
		}
	})
}

func TestEncodedKind(t *testing.T) {
	for _, v := range []Value{NullValue(), Str("a"), NumTrusted("1"), Bin([]byte{1}), BoolOf(true),
		ListOf(nil), MapOf(nil), SetOf(StringSet, []Value{Str("a")}), SetOf(NumberSet, nil), SetOf(BinarySet, nil)} {
		if k, ok := EncodedKind(AppendBinary(nil, v)); !ok || k != v.Kind() {
			t.Errorf("EncodedKind(%v) = %v, %v", v, k, ok)
		}
	}
	for _, b := range [][]byte{nil, {255}} {
		if _, ok := EncodedKind(b); ok {
			t.Errorf("EncodedKind(%v) is ok", b)
		}
	}
}
