package ddbexpr

import (
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Name builds the SDK name for a document path without splitting names on
// dots: `a.b` is one attribute, a.b is a path. ok is false for names the SDK
// builder cannot express (brackets inside an attribute name).
func Name(p value.Path) (expression.NameBuilder, bool) {
	if len(p) == 0 || p[0].IsIndex || strings.ContainsAny(p[0].Name, "[]") || p[0].Name == "" {
		return expression.NameBuilder{}, false
	}
	nb := expression.NameNoDotSplit(p[0].Name)
	for _, e := range p[1:] {
		if e.IsIndex {
			nb = nb.AppendName(expression.NameNoDotSplit("[" + strconv.Itoa(e.Index) + "]"))
			continue
		}
		if strings.ContainsAny(e.Name, "[]") || e.Name == "" {
			return expression.NameBuilder{}, false
		}
		nb = nb.AppendName(expression.NameNoDotSplit(e.Name))
	}
	return nb, true
}

// Projection builds a ProjectionExpression for the given paths. Callers pass
// paths already reduced so that none covers another (DynamoDB rejects
// overlapping paths).
func Projection(paths []value.Path) (expression.ProjectionBuilder, bool) {
	var pb expression.ProjectionBuilder
	for _, p := range paths {
		nb, ok := Name(p)
		if !ok {
			return pb, false
		}
		pb = pb.AddNames(nb)
	}
	return pb, len(paths) > 0
}

// ReducePaths drops paths covered by another path in the list and
// duplicates, keeping first-seen order.
func ReducePaths(paths []value.Path) []value.Path {
	var out []value.Path
	for i, p := range paths {
		covered := false
		for j, q := range paths {
			if i == j {
				continue
			}
			if q.Covers(p) && (len(q) < len(p) || j < i) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out
}
