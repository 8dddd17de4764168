package format

import (
	"sort"
	"strconv"
)

// uniqueNames makes output column names unique, the same way for every
// format (JSON object keys must be unique, and a header that says SK twice
// cannot be told apart). The first occurrence of a name keeps it; a later
// duplicate becomes name_2, name_3, …, skipping any candidate that is
// already a column name.
func uniqueNames(names []string) []string {
	taken := make(map[string]bool, len(names))
	for _, n := range names {
		taken[n] = true
	}
	seen := make(map[string]bool, len(names))
	out := make([]string, len(names))
	for i, n := range names {
		if !seen[n] {
			seen[n] = true
			out[i] = n
			continue
		}
		for k := 2; ; k++ {
			c := n + "_" + strconv.Itoa(k)
			if !taken[c] {
				taken[c], seen[c] = true, true
				out[i] = c
				break
			}
		}
	}
	return out
}

// dynamicNames names the fields of a SELECT * batch for output. A batch
// of joined items can hold one attribute name twice (both tables have a
// status); the later one in output order (dynamicOrder) becomes status_2,
// as JSON names its keys, so that no format merges the two columns.
func dynamicNames(names, keys []string) []string {
	seen := make(map[string]bool, len(names))
	dup := false
	for _, n := range names {
		dup = dup || seen[n]
		seen[n] = true
	}
	if !dup {
		return names
	}
	order := dynamicOrder(names, keys)
	ordered := make([]string, len(order))
	for i, c := range order {
		ordered[i] = names[c]
	}
	out := make([]string, len(names))
	for i, n := range uniqueNames(ordered) {
		out[order[i]] = n
	}
	return out
}

// dynamicOrder orders a batch's fields for SELECT * output: the key
// attributes present, in key order, then every other field by name in byte
// order. It returns indices into names.
func dynamicOrder(names, keys []string) []int {
	used := make([]bool, len(names))
	order := make([]int, 0, len(names))
	for _, k := range keys {
		for i, n := range names {
			if n == k && !used[i] {
				used[i] = true
				order = append(order, i)
				break
			}
		}
	}
	rest := make([]int, 0, len(names)-len(order))
	for i := range names {
		if !used[i] {
			rest = append(rest, i)
		}
	}
	sort.SliceStable(rest, func(a, b int) bool { return names[rest[a]] < names[rest[b]] })
	return append(order, rest...)
}
