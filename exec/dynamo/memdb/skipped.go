package memdb

// Undecoded attributes: a streamed Scan that projects a few attributes need
// not build values for the others, but the item's size (capacity, the 1 MB
// page) counts them and PutItem's checks still apply to them. A decoder
// that skips an attribute checks it itself, conservatively (anything it is
// not sure of, it decodes instead), and sizes it with the functions below,
// which follow valSize and storedSize rule for rule.

// Sizes is a value's size in an item (valSize) and in a page (its
// compressed stored size, storedSize(v, true)).
type Sizes struct{ Item, Page int }

// Skipped is what the attributes an item was given without add: their
// names' and values' size, and their compressed sizes plus one each.
type Skipped struct{ Size, Page int }

// Add counts a top-level attribute whose name has nameLen bytes.
func (sk *Skipped) Add(nameLen int, s Sizes) {
	sk.Size += nameLen + s.Item
	sk.Page += s.Page + 1
}

// StringSizes sizes an S of n bytes.
func StringSizes(n int) Sizes {
	page := n + 3
	switch {
	case n < 128:
		page = n + 1
	case n < 16384:
		page = n + 2
	}
	return Sizes{Item: n, Page: page}
}

// NumberSizes sizes an N given as canonical text (value.CanonicalNumber's),
// or reports false when PutItem would reject it.
func NumberSizes(canonical string) (Sizes, bool) {
	if checkNumber(canonical) != "" {
		return Sizes{}, false
	}
	n := numberSize(canonical)
	return Sizes{Item: n, Page: n + 1}, true
}

// BoolSizes and NullSizes size a BOOL and a NULL.
func BoolSizes() Sizes { return Sizes{Item: 1, Page: 1} }
func NullSizes() Sizes { return Sizes{Item: 1, Page: 0} }

// ListSizes sizes an L from its elements' sizes, added one by one.
type ListSizes struct{ s Sizes }

func NewListSizes() ListSizes { return ListSizes{Sizes{Item: 3, Page: 3}} }

func (l *ListSizes) Add(e Sizes) {
	l.s.Item += 1 + e.Item
	l.s.Page += 1 + e.Page
}

func (l *ListSizes) Sizes() Sizes { return l.s }

// MapSizes sizes an M from its members (names distinct, of nameLen
// bytes), added one by one.
type MapSizes struct{ s Sizes }

func NewMapSizes() MapSizes { return MapSizes{Sizes{Item: 3, Page: 3}} }

func (m *MapSizes) Add(nameLen int, v Sizes) {
	m.s.Item += 1 + nameLen + v.Item
	m.s.Page += 1 + 1 + v.Page
}

func (m *MapSizes) Sizes() Sizes { return m.s }

// Sizes is the item's size and page size, as a Scan counts them.
func (f FedItem) Sizes() (size, page int) { return f.it.size, f.it.psize }
