package engine

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeyRefsOrdersAsBytes: the radix sort puts keys in bytes.Compare
// order for every shape that stresses it: keys that are prefixes of
// others, zero bytes where padding would be, long shared prefixes, runs
// above and below the cutoff, and many equal keys.
func TestSortKeyRefsOrdersAsBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	shapes := map[string]func() []byte{
		"short": func() []byte { return randBytes(r, r.IntN(10), 4) },
		"zeros": func() []byte { return randBytes(r, r.IntN(20), 2) }, // bytes 0 and 1 only
		"shared prefix": func() []byte {
			return append(bytes.Repeat([]byte{7}, 8+r.IntN(17)), randBytes(r, r.IntN(12), 256)...)
		},
		"wide":  func() []byte { return randBytes(r, 1+r.IntN(40), 256) },
		"equal": func() []byte { return randBytes(r, 9, 1+r.IntN(2)) },
	}
	for name, gen := range shapes {
		for _, n := range []int{0, 1, 5, radixCutoff - 1, radixCutoff, 1000, 20000} {
			in := &sortInput{}
			es := make([]sortEntry, n)
			refs := make([]sortRef, n)
			for i := range es {
				start := len(in.keys)
				in.keys = append(in.keys, gen()...)
				es[i] = sortEntry{row: int32(i), start: uint32(start), end: uint32(len(in.keys))}
			}
			keys := keyTable{es: es, inputs: []*sortInput{in}}
			for i := range es {
				refs[i] = sortRef{prefix: keyPrefix(keys.key(int32(i))), i: int32(i)}
			}
			sortKeyRefs(refs, keys)
			want := make([][]byte, n)
			for i := range es {
				want[i] = keys.key(int32(i))
			}
			slices.SortFunc(want, bytes.Compare)
			seen := make([]bool, n)
			for k, ref := range refs {
				if seen[ref.i] {
					t.Fatalf("%s, %d keys: entry %d appears twice", name, n, ref.i)
				}
				seen[ref.i] = true
				if !bytes.Equal(keys.key(ref.i), want[k]) {
					t.Fatalf("%s, %d keys: position %d holds %x, want %x", name, n, k, keys.key(ref.i), want[k])
				}
			}
		}
	}
}

// randBytes is n bytes each below alphabet.
func randBytes(r *rand.Rand, n, alphabet int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(alphabet))
	}
	return b
}
