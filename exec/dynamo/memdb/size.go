package memdb

import (
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Item sizes, in bytes.
//
// itemSize is DynamoDB's documented item size (attribute names plus values;
// strings and binaries by length, numbers by ~2 digits a byte, 1 byte for
// BOOL and NULL, 3 bytes of overhead plus 1 a member for lists and maps). It
// bills reads (per 4 KB) and bounds items (400 KB).
//
// pageSize is the size a Query or Scan page counts against its 1 MB limit:
// DynamoDB's internal storage size, which dynalite reproduces empirically
// (attribute names cost 1 byte, values carry a small type header, plus a
// per-item overhead that includes the table's sort key). Using it keeps page
// boundaries identical to dynalite's.

func itemSize(a attrs) int {
	n := 0
	for _, at := range a {
		n += len(at.name) + valSize(at.val, false)
	}
	return n
}

func mapSize(m map[string]value.Value) int {
	n := 0
	for name, v := range m {
		n += len(name) + valSize(v, false)
	}
	return n
}

func pageSize(a attrs, rangeKey string) int { return pageSizeWith(a, rangeKey, 0) }

// pageSizeWith is pageSize of an item that also has attributes not in a,
// which add extra to its compressed size (each one's compressed size plus
// one; none of them the sort key).
func pageSizeWith(a attrs, rangeKey string, extra int) int {
	size, rangeSize := extra, 0
	for _, at := range a {
		if at.name == rangeKey {
			rangeSize = storedSize(at.val, false)
			continue
		}
		size += storedSize(at.val, true) + 1
	}
	return 2 + size + (1+(1+size)/3072)*(18+rangeSize)
}

func compressedMapSize(attrs map[string]value.Value) int {
	n := 0
	for _, v := range attrs {
		n += storedSize(v, true) + 1
	}
	return n
}

func storedSize(v value.Value, compress bool) int {
	n := valSize(v, compress)
	if !compress {
		return n
	}
	switch v.Kind() {
	case value.String:
		switch {
		case n < 128:
			return n + 1
		case n < 16384:
			return n + 2
		}
		return n + 3
	case value.Binary, value.Number:
		return n + 1
	case value.StringSet, value.NumberSet, value.BinarySet:
		return n + len(v.Elems()) + 1
	case value.Null:
		return 0
	case value.Bool:
		return 1
	}
	return n
}

func valSize(v value.Value, compress bool) int {
	switch v.Kind() {
	case value.String, value.Binary:
		return len(v.Text())
	case value.Number:
		return numberSize(v.Text())
	case value.StringSet, value.NumberSet, value.BinarySet:
		n := 0
		for _, m := range v.Elems() {
			n += valSize(m, false)
		}
		return n
	case value.Null, value.Bool:
		return 1
	case value.List:
		n := 3
		for _, e := range v.Elems() {
			n += 1 + storedSize(e, compress)
		}
		return n
	case value.Map:
		attrs := v.Attrs()
		if compress {
			return 3 + len(attrs) + compressedMapSize(attrs)
		}
		return 3 + len(attrs) + mapSize(attrs)
	}
	return 0
}

// numberSize is DynamoDB's size of a number: about one byte per two
// significant digits plus one.
func numberSize(text string) int {
	neg, digits, exp := decimalParts(text)
	if digits == "" {
		return 1
	}
	n := 1 + (len(digits)+1)/2
	if len(digits)%2 == 0 && exp%2 == 0 {
		n++
	}
	if neg {
		n++
	}
	return n
}

// readUnits is the read capacity for reading size bytes: 4 KB units
// rounded up, halved for eventually consistent reads.
func readUnits(size int, consistent bool) float64 {
	return unitsCost(units4KB(size), consistent)
}

// units4KB is the number of 4 KB read units size bytes take, rounded up.
func units4KB(size int) int {
	return (size + ddblimits.ReadUnitBytes - 1) / ddblimits.ReadUnitBytes
}

// unitsCost is the capacity of n read units: one each strongly
// consistent, half eventually consistent.
func unitsCost(n int, consistent bool) float64 {
	if consistent {
		return float64(n)
	}
	return float64(n) / 2
}

// writeUnits is the write capacity for an item of the given size (1 KB units).
func writeUnits(size int) float64 {
	if size == 0 {
		return 1
	}
	return float64((size + ddblimits.WriteUnitBytes - 1) / ddblimits.WriteUnitBytes)
}
