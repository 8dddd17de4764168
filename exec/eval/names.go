package eval

import "sort"

// FunctionNames lists the scalar function names, sorted, for error hints
// and completion.
func FunctionNames() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
