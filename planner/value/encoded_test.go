package value

import (
	"bytes"
	"testing"
)

// The walkers over the encoding write exactly what AppendJSON and Display
// write for the decoded value.
func TestEncodedMatchesDecoded(t *testing.T) {
	g := gen{r: newRand(t)}
	for i := 0; i < 5000; i++ {
		v := g.value(3)
		enc := AppendBinary(nil, v)
		gotJSON, err := AppendEncodedJSON([]byte("x"), enc)
		if err != nil || string(gotJSON) != "x"+v.JSON() {
			t.Fatalf("%s: AppendEncodedJSON = %q, %v; want %q", show(v), gotJSON, err, v.JSON())
		}
		gotText, err := AppendEncodedDisplay([]byte("x"), enc)
		if err != nil || string(gotText) != "x"+Display(v) {
			t.Fatalf("%s: AppendEncodedDisplay = %q, %v; want %q", show(v), gotText, err, Display(v))
		}
	}
}

// A map whose keys another writer left unsorted or repeated renders as its
// decoded value does: sorted, one entry per key.
func TestEncodedUnsortedMap(t *testing.T) {
	entry := func(dst []byte, k string, v Value) []byte {
		dst = append(dst, byte(len(k)))
		dst = append(dst, k...)
		return AppendBinary(dst, v)
	}
	enc := []byte{byte(Map), 3}
	enc = entry(enc, "b", Str("1"))
	enc = entry(enc, "a", Str("2"))
	enc = entry(enc, "b", Str("3"))
	v, err := DecodeBinary(enc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := AppendEncodedJSON(nil, enc)
	if err != nil || string(got) != v.JSON() {
		t.Fatalf("got %q, %v; want %q", got, err, v.JSON())
	}
}

// A corrupt encoding is an error wherever DecodeBinary fails, and dst is
// left as it was.
func TestEncodedCorrupt(t *testing.T) {
	g := gen{r: newRand(t)}
	for i := 0; i < 2000; i++ {
		enc := AppendBinary(nil, g.value(2))
		for cut := 0; cut < len(enc); cut++ {
			bad := enc[:cut]
			if _, err := DecodeBinary(bad); err == nil {
				continue
			}
			for name, f := range map[string]func([]byte, []byte) ([]byte, error){"json": AppendEncodedJSON, "display": AppendEncodedDisplay} {
				out, err := f([]byte("x"), bad)
				if err == nil || !bytes.Equal(out, []byte("x")) {
					t.Fatalf("%s of %x: %q, %v; want an error and dst unchanged", name, bad, out, err)
				}
			}
		}
	}
}
