package engine

import (
	"bytes"
	"slices"
)

// Full-sort keys are unique (each ends in the row's arrival number), so
// any correct sort gives the one order, and keys are compared as bytes.
// sortKeyRefs orders refs by their keys with a most-significant-first
// radix sort over 8-byte chunks: each chunk is one uint64 sorted by LSD
// radix passes of one byte (passes where every ref has the same byte are
// skipped, which for big-endian prefixes is most of them), and each run of
// refs whose chunk is equal goes on to the next chunk. Small runs, and runs
// where a key ends inside the chunk (zero padding would tie it with a
// longer key), are sorted by comparing the rest of the keys.

// radixCutoff is the run length below which comparing keys beats another
// radix level.
const radixCutoff = 96

// keyTable finds an entry's key.
type keyTable struct {
	es     []sortEntry
	inputs []*sortInput
}

func (t keyTable) key(i int32) []byte {
	e := t.es[i]
	return t.inputs[e.in].keys[e.start:e.end]
}

// sortKeyRefs sorts refs by the keys of the entries they name; refs'
// prefixes must hold the keys' first 8 bytes (keyPrefix).
func sortKeyRefs(refs []sortRef, es keyTable) {
	scratch := make([]sortRef, len(refs))
	sortChunk(refs, scratch, es, 0)
}

// sortChunk sorts refs, whose keys are equal before byte depth and whose
// prefixes hold the chunk at depth, by the rest of their keys.
func sortChunk(refs, scratch []sortRef, es keyTable, depth int) {
	if len(refs) < radixCutoff {
		sortByRest(refs, es, depth)
		return
	}
	radixByPrefix(refs, scratch[:len(refs)])
	for start := 0; start < len(refs); {
		end := start + 1
		for end < len(refs) && refs[end].prefix == refs[start].prefix {
			end++
		}
		if end-start > 1 {
			run := refs[start:end]
			if endsWithin(run, es, depth+8) {
				sortByRest(run, es, depth)
			} else {
				for k := range run {
					run[k].prefix = chunkAt(es.key(run[k].i), depth+8)
				}
				sortChunk(run, scratch[start:end], es, depth+8)
			}
		}
		start = end
	}
}

// endsWithin reports whether some key of the run has no bytes past limit.
func endsWithin(run []sortRef, es keyTable, limit int) bool {
	for _, r := range run {
		if len(es.key(r.i)) <= limit {
			return true
		}
	}
	return false
}

// sortByRest sorts refs by their keys from byte depth on (the bytes before
// it are equal).
func sortByRest(refs []sortRef, es keyTable, depth int) {
	slices.SortFunc(refs, func(a, b sortRef) int {
		return bytes.Compare(es.key(a.i)[depth:], es.key(b.i)[depth:])
	})
}

// radixByPrefix sorts refs by prefix, stably, one byte per pass from the
// least significant, skipping the bytes all refs share.
func radixByPrefix(refs, scratch []sortRef) {
	var counts [8][256]int
	for _, r := range refs {
		p := r.prefix
		for b := 0; b < 8; b++ {
			counts[b][byte(p>>(8*b))]++
		}
	}
	src, dst := refs, scratch
	for b := 0; b < 8; b++ {
		c := &counts[b]
		if c[byte(src[0].prefix>>(8*b))] == len(src) {
			continue // every ref has this byte
		}
		var offsets [256]int
		sum := 0
		for v := 0; v < 256; v++ {
			offsets[v] = sum
			sum += c[v]
		}
		shift := 8 * b
		for _, r := range src {
			v := byte(r.prefix >> shift)
			dst[offsets[v]] = r
			offsets[v]++
		}
		src, dst = dst, src
	}
	if &src[0] != &refs[0] {
		copy(refs, src)
	}
}

// chunkAt is the 8 bytes of key from depth on, big-endian, zero-padded.
func chunkAt(key []byte, depth int) uint64 {
	if depth >= len(key) {
		return 0
	}
	return keyPrefix(key[depth:])
}
