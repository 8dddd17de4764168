package exec

import "hash/maphash"

// groupTable finds groups by their encoded key. It maps a 64-bit hash of the
// key to a chain of groups (compared by full key), which is faster than a
// string-keyed map for many groups: lookups hash once and compare integers.
type groupTable struct {
	seed  maphash.Seed
	slots map[uint64]*group
}

func newGroupTable() groupTable {
	return groupTable{seed: maphash.MakeSeed(), slots: map[uint64]*group{}}
}

func (t *groupTable) find(key []byte) *group {
	for g := t.slots[maphash.Bytes(t.seed, key)]; g != nil; g = g.next {
		if g.key == string(key) {
			return g
		}
	}
	return nil
}

func (t *groupTable) insert(key []byte, g *group) {
	h := maphash.Bytes(t.seed, key)
	g.key = string(key)
	g.next = t.slots[h]
	t.slots[h] = g
}
