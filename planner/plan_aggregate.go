package planner

import (
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// Aggregate groups its input by Groups and computes Aggs; its output columns
// are the group values followed by the aggregate values (addressed by Ref).
type Aggregate struct {
	Input  Node
	Groups []expr.Expr
	Aggs   []expr.Aggregate
}

// Inputs implements Node.
func (n *Aggregate) Inputs() []Node { return []Node{n.Input} }

func (n *Aggregate) describe() explainLine {
	parts := make([]string, 0, len(n.Aggs))
	for _, a := range n.Aggs {
		parts = append(parts, a.String())
	}
	title := "Aggregate (client): " + strings.Join(parts, ", ")
	if len(n.Groups) > 0 {
		groups := make([]string, len(n.Groups))
		for i, g := range n.Groups {
			groups[i] = g.String()
		}
		title += " GROUP BY " + strings.Join(groups, ", ")
	}
	return explainLine{kind: "Aggregate", title: title, client: true}
}

func (n *Aggregate) jsonFields(_ *jsonWriter, o *object) error {
	var aggs, groups []string
	for _, a := range n.Aggs {
		aggs = append(aggs, a.String())
	}
	for _, g := range n.Groups {
		groups = append(groups, g.String())
	}
	o.add("aggregates", aggs)
	o.add("group_by", groups)
	return nil
}
