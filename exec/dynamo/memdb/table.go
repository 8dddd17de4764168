package memdb

import (
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// table is one table: its schema, its base space and its indexes. Its own
// RWMutex guards the data; the schema is immutable after creation.
type table struct {
	mu sync.RWMutex

	name      string
	hashAttr  string
	rangeAttr string // "" when the table has no sort key
	attrTypes map[string]types.ScalarAttributeType
	keySchema []types.KeySchemaElement
	attrDefs  []types.AttributeDefinition
	billing   types.BillingMode
	rcu, wcu  int64
	created   time.Time
	// stream is the CreateTable StreamSpecification, reported back by
	// DescribeTable (the backend keeps no stream records).
	stream *types.StreamSpecification

	base    *space
	indexes []*index

	// reported are the counts DescribeTable shows with WithLaggingCounts
	// (nil: never refreshed, so zero).
	reported *reportedCounts
}

// index is a GSI or LSI with its own space of projected items.
type index struct {
	name       string
	global     bool
	hashAttr   string
	rangeAttr  string
	keySchema  []types.KeySchemaElement
	projection types.Projection
	projected  []string // KEYS_ONLY/INCLUDE: table and index keys, NonKeyAttributes
	space      *space
}

func (t *table) index(name string) *index {
	for _, ix := range t.indexes {
		if ix.name == name {
			return ix
		}
	}
	return nil
}

// keyNames lists the table's key attributes, partition key first.
func (t *table) keyNames() []string {
	if t.rangeAttr == "" {
		return []string{t.hashAttr}
	}
	return []string{t.hashAttr, t.rangeAttr}
}

// baseEntry is the base-table position of an item (or key).
func (t *table) baseEntry(attrs attrs) (hk string, e *entry) {
	e = &entry{}
	if t.rangeAttr != "" {
		e.rk = encodeKey(attrs.val(t.rangeAttr))
	}
	return encodeKey(attrs.val(t.hashAttr)), e
}

// lookup returns the stored item with the given key, or nil.
func (t *table) lookup(key attrs) *item {
	hk, probe := t.baseEntry(key)
	if e := t.base.get(hk, probe); e != nil {
		return e.it
	}
	return nil
}

// indexed reports whether an item has all of an index's key attributes.
func (ix *index) indexed(attrs attrs) bool {
	if _, ok := attrs.get(ix.hashAttr); !ok {
		return false
	}
	if ix.rangeAttr != "" {
		if _, ok := attrs.get(ix.rangeAttr); !ok {
			return false
		}
	}
	return true
}

// indexEntry is an item's position in an index; it is only meaningful for
// indexed items.
func (t *table) indexEntry(ix *index, attrs attrs) (hk string, e *entry) {
	th, tr := value.MissingValue(), value.MissingValue()
	th = attrs.val(t.hashAttr)
	e = &entry{th: encodeKey(th)}
	if t.rangeAttr != "" {
		tr = attrs.val(t.rangeAttr)
		e.tr = encodeKey(tr)
	}
	e.tp = hashPrefix(th, tr)
	if ix.rangeAttr != "" {
		e.rk = encodeKey(attrs.val(ix.rangeAttr))
	}
	return encodeKey(attrs.val(ix.hashAttr)), e
}

// project keeps the attributes an index stores: everything for ALL, else
// the table and index keys plus INCLUDE's non-key attributes.
func (t *table) project(ix *index, a attrs) attrs {
	if ix.projection.ProjectionType == types.ProjectionTypeAll {
		return a
	}
	return a.pick(ix.projected...)
}

// store writes an item of the given itemSize (replacing any item with its
// key) and maintains the indexes; it returns the replaced item, if any.
// Callers hold t.mu and have validated the item.
func (t *table) store(attrs attrs, size int) *item {
	hk, e := t.baseEntry(attrs)
	var old *item
	if prev := t.base.get(hk, e); prev != nil {
		old = prev.it
	}
	t.unindex(old)
	e.it = makeItem(attrs, size, t.rangeAttr)
	t.base.put(attrs.val(t.hashAttr), e)
	for _, ix := range t.indexes {
		if !ix.indexed(attrs) {
			continue
		}
		_, ie := t.indexEntry(ix, attrs)
		ie.it = e.it
		if ix.projection.ProjectionType != types.ProjectionTypeAll {
			ie.it = newItem(t.project(ix, attrs), t.rangeAttr)
		}
		ix.space.put(attrs.val(ix.hashAttr), ie)
	}
	return old
}

// delete removes the item with the given key; it returns the removed item.
func (t *table) delete(key attrs) *item {
	hk, probe := t.baseEntry(key)
	prev := t.base.get(hk, probe)
	if prev == nil {
		return nil
	}
	t.unindex(prev.it)
	t.base.remove(hk, probe)
	return prev.it
}

func (t *table) unindex(old *item) {
	if old == nil {
		return
	}
	var oldAttrs attrs
	for _, ix := range t.indexes {
		if oldAttrs == nil {
			oldAttrs = old.attrs()
		}
		if ix.indexed(oldAttrs) {
			hk, probe := t.indexEntry(ix, oldAttrs)
			ix.space.remove(hk, probe)
		}
	}
}
