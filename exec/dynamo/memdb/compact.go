package memdb

import (
	"encoding/binary"
	"sync"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Stored items are compact: one byte slice per item holding its top-level
// attributes in name order, each as uvarint(len name) ‖ name ‖
// uvarint(len enc) ‖ enc, where enc is value.AppendBinary's encoding. A
// tree of value.Values costs several times the item's own size (each
// Value, map and string is a separate allocation); the bytes cost little
// more than the item, and the GC has one pointer-free object to skip
// instead of a tree to trace. Reads decode on demand: a whole item, or only
// the attributes a projection and filter name (the rest are skipped by
// their lengths).

// encodeBuffers are the buffers an item is encoded in before its exact
// copy is made, reused so that loading a million items grows no buffer
// per item.
type encodeBuffers struct{ item, val []byte }

var encodePool = sync.Pool{New: func() any { return new(encodeBuffers) }}

// encodeAttrs serialises name-sorted attributes.
func encodeAttrs(a attrs) []byte {
	b := encodePool.Get().(*encodeBuffers)
	dst := b.item[:0]
	for _, at := range a {
		b.val = value.AppendBinary(b.val[:0], at.val)
		dst = binary.AppendUvarint(dst, uint64(len(at.name)))
		dst = append(dst, at.name...)
		dst = binary.AppendUvarint(dst, uint64(len(b.val)))
		dst = append(dst, b.val...)
	}
	// One exact allocation: append's growth slack would stay for the item's life.
	out := append(make([]byte, 0, len(dst)), dst...)
	b.item = dst
	encodePool.Put(b)
	return out
}

// compactEntry is one attribute's place in an encoded item.
type compactEntry struct {
	name []byte // in the item: a string is made only for attributes kept
	enc  []byte
}

// next reads the attribute at the start of b; ok is false at the end (or
// on bytes encodeAttrs did not write, which cannot be stored).
func nextEntry(b []byte) (e compactEntry, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return e, nil, false
	}
	b = b[k:]
	name := b[:n]
	b = b[n:]
	m, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < m {
		return e, nil, false
	}
	b = b[k:]
	return compactEntry{name: name, enc: b[:m]}, b[m:], true
}

// decodeAttrs decodes the attributes of an encoded item; with names set,
// only those (name-sorted, as the item's own order).
func decodeAttrs(b []byte, names map[string]bool) attrs {
	var out attrs
	if names == nil {
		out = make(attrs, 0, 16)
	}
	for len(b) > 0 {
		e, rest, ok := nextEntry(b)
		if !ok {
			break
		}
		b = rest
		if names != nil && !names[string(e.name)] {
			continue
		}
		v, err := value.DecodeBinary(e.enc)
		if err != nil {
			// encodeAttrs wrote these bytes; they cannot be corrupt.
			panic("memdb: corrupt stored item: " + err.Error())
		}
		out = append(out, attr{name: string(e.name), val: v})
	}
	return out
}

// topNames is the set of top-level attributes that paths start at; nil
// when paths is empty (meaning: every attribute).
func topNames(paths ...[]value.Path) map[string]bool {
	var out map[string]bool
	for _, ps := range paths {
		for _, p := range ps {
			if out == nil {
				out = map[string]bool{}
			}
			out[p.Attr()] = true
		}
	}
	return out
}
