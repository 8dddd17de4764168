package memdb

import (
	"slices"
	"strings"

	"github.com/ddbsql/ddbsql/planner/value"
)

// attrs is an item's attributes, sorted by name: about half the memory of
// a map for the small items DynamoDB tables hold, and cheap to scan.
type attrs []attr

type attr struct {
	name string
	val  value.Value
}

// get returns the named attribute.
func (a attrs) get(name string) (value.Value, bool) {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m].name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(a) && a[lo].name == name {
		return a[lo].val, true
	}
	return value.MissingValue(), false
}

// val returns the named attribute, or Missing.
func (a attrs) val(name string) value.Value {
	v, _ := a.get(name)
	return v
}

func (a attrs) has(name string) bool {
	_, ok := a.get(name)
	return ok
}

// sortAttrs orders attributes by name (names are unique).
func sortAttrs(a attrs) attrs {
	slices.SortFunc(a, func(x, y attr) int { return strings.Compare(x.name, y.name) })
	return a
}

// pick returns the attributes with the given names (those present;
// repeated names count once).
func (a attrs) pick(names ...string) attrs {
	out := make(attrs, 0, len(names))
	for _, n := range names {
		if v, ok := a.get(n); ok && !slices.ContainsFunc(out, func(x attr) bool { return x.name == n }) {
			out = append(out, attr{n, v})
		}
	}
	return sortAttrs(out)
}
