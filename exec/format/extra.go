package format

import (
	"sort"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// ExtraColumn is the name of the last csv/tsv column of a SELECT * result
// whose header was written before the result ended: it holds, per row, a
// compact JSON object of the attributes first seen after the header
// (empty when the row has none), so that no value is dropped and no
// report fails on a schemaless table. If an attribute of the header is
// itself called _extra, the column is _extra_2 (then _extra_3, …).
const ExtraColumn = "_extra"

// extraName picks the extra column's name: one no header column has.
func extraName(header []string) string {
	return uniqueNames(append(append([]string(nil), header...), ExtraColumn))[len(header)]
}

// lateColumn is a batch column the header lacks.
type lateColumn struct {
	col  columnar.Column
	name string // its output name
}

// lateColumns orders the late columns by name, as the JSON object's keys.
func sortLate(late []lateColumn) {
	sort.Slice(late, func(i, j int) bool { return late[i].name < late[j].name })
}

// appendExtra appends one row's late attributes as a compact JSON object,
// values as the json format writes them (read straight from the columns);
// nothing when the row has none.
func appendExtra(dst []byte, late []lateColumn, row int) ([]byte, error) {
	start := len(dst)
	for _, l := range late {
		if absentAt(l.col, row) {
			continue
		}
		if len(dst) == start {
			dst = append(dst, '{')
		} else {
			dst = append(dst, ',')
		}
		dst = value.AppendJSON(dst, value.Str(l.name))
		dst = append(dst, ':')
		var err error
		if dst, err = appendJSONCell(dst, l.col, l.name, row); err != nil {
			return dst[:start], err
		}
	}
	if len(dst) > start {
		dst = append(dst, '}')
	}
	return dst, nil
}
