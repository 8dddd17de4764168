package engine

import (
	"bytes"
	"hash/maphash"
)

// groupTable finds groups by their encoded key with open addressing: a slot
// holds the key's hash, where the key sits in one shared arena, and the
// group's number, so a lookup touches the slot and the key bytes and little
// else. With many groups this beats a map of pointers to groups, whose
// lookups chase several pointers into scattered memory.
type groupTable struct {
	seed   maphash.Seed
	slots  []groupSlot
	groups []*group // by number
	arena  []byte   // every key, back to back
	mask   uint64
}

type groupSlot struct {
	hash     uint64 // 0 marks an empty slot
	off, len uint32 // the key in the arena
	group    int32
}

func newGroupTable() groupTable {
	t := groupTable{seed: maphash.MakeSeed()}
	t.resize(64)
	return t
}

func (t *groupTable) hash(key []byte) uint64 { return maphash.Bytes(t.seed, key) | 1 }

func (t *groupTable) find(key []byte) *group {
	h := t.hash(key)
	for i := h & t.mask; t.slots[i].hash != 0; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.hash == h && int(s.len) == len(key) && bytes.Equal(t.arena[s.off:s.off+s.len], key) {
			return t.groups[s.group]
		}
	}
	return nil
}

func (t *groupTable) insert(key []byte, g *group) {
	if 2*(len(t.groups)+1) > len(t.slots) {
		t.resize(2 * len(t.slots))
	}
	s := groupSlot{hash: t.hash(key), off: uint32(len(t.arena)), len: uint32(len(key)), group: int32(len(t.groups))}
	t.groups = append(t.groups, g)
	t.arena = append(t.arena, key...)
	t.place(s)
}

func (t *groupTable) place(s groupSlot) {
	i := s.hash & t.mask
	for t.slots[i].hash != 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = s
}

// resize rehashes into size slots (a power of two).
func (t *groupTable) resize(size int) {
	old := t.slots
	t.slots = make([]groupSlot, size)
	t.mask = uint64(size - 1)
	for _, s := range old {
		if s.hash != 0 {
			t.place(s)
		}
	}
}
