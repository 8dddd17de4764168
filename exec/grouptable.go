package exec

import (
	"bytes"
	"hash/maphash"
)

// groupTable finds groups by their encoded key with open addressing over
// flat arrays: a slot holds the key's hash and the group's number, and keys
// live back to back in one arena. With many groups this touches far fewer
// cache lines per row than a map of pointers to groups.
type groupTable struct {
	seed   maphash.Seed
	hashes []uint64 // per slot; 0 marks an empty slot
	slots  []int32  // per slot: group number
	groups []*group // by number
	arena  []byte   // every key, back to back
	ends   []int    // ends[n] is where key n ends in arena
	mask   uint64
}

func newGroupTable() groupTable {
	t := groupTable{seed: maphash.MakeSeed()}
	t.resize(64)
	return t
}

func (t *groupTable) key(n int32) []byte {
	start := 0
	if n > 0 {
		start = t.ends[n-1]
	}
	return t.arena[start:t.ends[n]]
}

func (t *groupTable) hash(key []byte) uint64 { return maphash.Bytes(t.seed, key) | 1 }

func (t *groupTable) find(key []byte) *group {
	h := t.hash(key)
	for i := h & t.mask; t.hashes[i] != 0; i = (i + 1) & t.mask {
		if t.hashes[i] == h && bytes.Equal(t.key(t.slots[i]), key) {
			return t.groups[t.slots[i]]
		}
	}
	return nil
}

func (t *groupTable) insert(key []byte, g *group) {
	if 2*(len(t.groups)+1) > len(t.hashes) {
		t.resize(2 * len(t.hashes))
	}
	n := int32(len(t.groups))
	t.groups = append(t.groups, g)
	t.arena = append(t.arena, key...)
	t.ends = append(t.ends, len(t.arena))
	t.place(t.hash(key), n)
}

func (t *groupTable) place(h uint64, n int32) {
	i := h & t.mask
	for t.hashes[i] != 0 {
		i = (i + 1) & t.mask
	}
	t.hashes[i], t.slots[i] = h, n
}

// resize rehashes into size slots (a power of two).
func (t *groupTable) resize(size int) {
	t.hashes = make([]uint64, size)
	t.slots = make([]int32, size)
	t.mask = uint64(size - 1)
	for n := range t.groups {
		t.place(t.hash(t.key(int32(n))), int32(n))
	}
}
