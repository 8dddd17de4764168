package memdb

import (
	"math"
	"strings"

	"github.com/google/btree"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Storage: a space is a table's base data or one of its indexes. It maps
// each partition key to a partition (hash map: a Query finds its partition
// in O(1)) whose entries sit in a B-tree ordered by sort key, so a Query
// reads only its own partition. The partitions are also kept in a B-tree
// ordered by (placement hash, partition key) for Scan, which walks the table
// in DynamoDB's hash order and splits it into segments by placement hash.

// item is a stored item (for an index, the projected item), encoded
// compactly (compact.go), with its sizes.
type item struct {
	enc   []byte
	size  int // itemSize: billing
	psize int // pageSize: the 1 MB page limit
}

func newItem(a attrs, rangeAttr string) *item {
	return makeItem(a, itemSize(a), rangeAttr)
}

func makeItem(a attrs, size int, rangeAttr string) *item {
	return &item{enc: encodeAttrs(a), size: size, psize: pageSize(a, rangeAttr)}
}

// attrs decodes the whole item.
func (it *item) attrs() attrs { return decodeAttrs(it.enc, nil) }

// only decodes the attributes in names (all of them when names is nil).
func (it *item) only(names map[string]bool) attrs { return decodeAttrs(it.enc, names) }

// entry is an item's position in a partition. In the base table rk alone is
// unique; in an index, entries with equal index sort keys are ordered by
// the placement hash of their table key, then by the table key itself.
type entry struct {
	rk     string // encoded sort key of this space ("" when it has none)
	tp     uint32 // index spaces: placement hash of the table key
	th, tr string // index spaces: encoded table key
	it     *item
}

func entryLess(a, b *entry) bool { return compareEntries(a, b) < 0 }

func compareEntries(a, b *entry) int {
	if c := strings.Compare(a.rk, b.rk); c != 0 {
		return c
	}
	switch {
	case a.tp < b.tp:
		return -1
	case a.tp > b.tp:
		return 1
	}
	if c := strings.Compare(a.th, b.th); c != 0 {
		return c
	}
	return strings.Compare(a.tr, b.tr)
}

// probes for the first and past the last entry with sort key rk.
func firstWith(rk string) *entry { return &entry{rk: rk} }
func afterAll(rk string) *entry  { return &entry{rk: rk, tp: math.MaxUint32} }

type partition struct {
	prefix uint32 // placement hash of the partition key
	hk     string // encoded partition key
	items  *btree.BTreeG[*entry]
}

func partitionLess(a, b *partition) bool {
	if a.prefix != b.prefix {
		return a.prefix < b.prefix
	}
	return a.hk < b.hk
}

type space struct {
	hashAttr, rangeAttr string
	parts               map[string]*partition
	order               *btree.BTreeG[*partition]
	free                *btree.FreeListG[*entry]
	count, bytes        int
}

const btreeDegree = 16

func newSpace(hashAttr, rangeAttr string) *space {
	return &space{
		hashAttr:  hashAttr,
		rangeAttr: rangeAttr,
		parts:     map[string]*partition{},
		order:     btree.NewG(btreeDegree, partitionLess),
		free:      btree.NewFreeListG[*entry](64),
	}
}

// put inserts or replaces the entry e in the partition of hash.
func (s *space) put(hash value.Value, e *entry) {
	hk := encodeKey(hash)
	p := s.parts[hk]
	if p == nil {
		p = &partition{prefix: hashPrefix(hash, value.MissingValue()), hk: hk,
			items: btree.NewWithFreeListG(btreeDegree, entryLess, s.free)}
		s.parts[hk] = p
		s.order.ReplaceOrInsert(p)
	}
	if old, replaced := p.items.ReplaceOrInsert(e); replaced {
		s.count--
		s.bytes -= old.it.size
	}
	s.count++
	s.bytes += e.it.size
}

// remove deletes the entry matching probe from partition hk.
func (s *space) remove(hk string, probe *entry) {
	p := s.parts[hk]
	if p == nil {
		return
	}
	old, ok := p.items.Delete(probe)
	if !ok {
		return
	}
	s.count--
	s.bytes -= old.it.size
	if p.items.Len() == 0 {
		delete(s.parts, hk)
		s.order.Delete(p)
	}
}

// get returns the entry matching probe in partition hk.
func (s *space) get(hk string, probe *entry) *entry {
	p := s.parts[hk]
	if p == nil {
		return nil
	}
	e, _ := p.items.Get(probe)
	return e
}
