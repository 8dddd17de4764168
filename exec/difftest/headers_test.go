package difftest

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Output names. ddbsql names a column as SQL engines do (SQLite, MySQL):
// by its alias; else a column reference by its name (a document path in
// full, m.sub.z, however it was quoted or qualified); else by the
// expression's text as written, tidied (tidyName): keywords and function
// names upper-case in any keyword case, names without quotes they do not
// need. JSON objects need unique keys:
// the first occurrence keeps a name, a later one becomes name_2, name_3, …
// (skipping names another column has).

// unquote reads a name written bare, in double quotes or in backticks.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '`') && s[len(s)-1] == s[0] {
		q := string(s[0])
		return strings.ReplaceAll(s[1:len(s)-1], q+q, q)
	}
	return s
}

// itemName is the output name of select item i.
func (q *query) itemName(i int) string {
	it := q.items[i]
	if it.alias != "" {
		return unquote(it.alias)
	}
	e := it.e
	if e.label == "integer as predicate" { // renders as the bare column
		e = e.kids[0]
	}
	if e.name != "" {
		return e.name
	}
	return tidyName(e.render(false))
}

// headers are the JSON keys ddbsql must write, in select-list order.
func (q *query) headers() []string {
	names := make([]string, len(q.items))
	for i := range q.items {
		names[i] = q.itemName(i)
	}
	return uniqueKeys(names)
}

// uniqueKeys makes names unique the way JSON output must.
func uniqueKeys(names []string) []string {
	taken := map[string]bool{}
	for _, n := range names {
		taken[n] = true
	}
	seen := map[string]bool{}
	out := make([]string, len(names))
	for i, n := range names {
		if !seen[n] {
			seen[n], out[i] = true, n
			continue
		}
		for k := 2; ; k++ {
			if c := n + "_" + strconv.Itoa(k); !taken[c] {
				taken[c], seen[c], out[i] = true, true, c
				break
			}
		}
	}
	return out
}

// checkHeaders compares every row's keys with the expected names.
func checkHeaders(keys [][]string, want []string) string {
	for i, k := range keys {
		if !slices.Equal(k, want) {
			return fmt.Sprintf("row %d: ddbsql named the columns %q, want %q", i, k, want)
		}
	}
	return ""
}

// starAttributes are the attributes of the item with this id, in the
// order SELECT * writes them: the table's keys, then the others by name.
func (ds *dataset) starAttributes(id int64) []string {
	rw := ds.rows[id-1]
	var rest []string
	for _, c := range columns {
		switch {
		case len(c.path) > 1 || c.lite == "pk" || c.lite == "id":
		case rw.cells[c.lite].kind != cMissing:
			rest = append(rest, c.path[0])
		}
	}
	if rw.mKind != cMissing {
		rest = append(rest, "m")
	}
	if rw.lKind != cMissing {
		rest = append(rest, "l")
	}
	sort.Strings(rest)
	return append([]string{"pk", "id"}, rest...)
}

// starRow lays out one SELECT * object as SQLite's columns: document
// paths are looked up in the maps, absent attributes are NULL.
func starRow(keys []string, vals []any) []any {
	obj := map[string]any{}
	for i, k := range keys {
		obj[k] = vals[i]
	}
	out := make([]any, len(columns))
	for i, c := range columns {
		var v any = obj
		for _, p := range c.path {
			if strings.HasPrefix(p, "[") {
				i, _ := strconv.Atoi(strings.Trim(p, "[]"))
				if l, ok := v.([]any); ok && i < len(l) {
					v = l[i]
					continue
				}
				v = nil
				break
			}
			m, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = m[p]
		}
		out[i] = v
	}
	return out
}

// starKinds are the comparison kinds of SQLite's columns.
func starKinds() []outKind {
	ks := make([]outKind, len(columns))
	for i, c := range columns {
		ks[i] = [...]outKind{tBool: kBool, tInt: kExact, tDec: kCents, tStr: kStr}[c.t]
	}
	return ks
}
