package parser

import (
	"strconv"
	"strings"
)

// PathElem is one step of a document path as written: a map member's name
// (quotes removed, case kept) or a list index.
type PathElem struct {
	Name    string
	Index   int
	IsIndex bool
}

// Path is a document path as the statement writes it (info.rating.imdb,
// tags[0]). It is syntax only: the first element may still be a table name
// or alias, which the planner strips when it binds the path to a table and
// turns it into the value model's path.
type Path []PathElem

// String renders the path the way a user writes it in ddbsql: names that
// are not plain identifiers in backticks, indexes in brackets. Two paths
// render alike only if they are equal, so the text also serves as a key.
func (p Path) String() string {
	var sb strings.Builder
	for i, e := range p {
		if e.IsIndex {
			sb.WriteString("[" + strconv.Itoa(e.Index) + "]")
			continue
		}
		if i > 0 {
			sb.WriteByte('.')
		}
		if isBareName(e.Name) {
			sb.WriteString(e.Name)
		} else {
			sb.WriteString(backticked(e.Name))
		}
	}
	return sb.String()
}
