package planner

import (
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner/value"
)

// documentPaths turns the paths the parser recorded for its synthetic
// column names (syntax: names and indexes as written) into the value
// model's paths, which the binder resolves against the FROM items and exec
// navigates items with.
func documentPaths(in map[string]parser.Path) map[string]value.Path {
	out := make(map[string]value.Path, len(in))
	for synthetic, p := range in {
		out[synthetic] = documentPath(p)
	}
	return out
}

func documentPath(p parser.Path) value.Path {
	out := make(value.Path, len(p))
	for i, e := range p {
		out[i] = value.PathElem{Name: e.Name, Index: e.Index, IsIndex: e.IsIndex}
	}
	return out
}
