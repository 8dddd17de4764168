package planner

import (
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// Project computes output columns. With Star it passes the items through.
type Project struct {
	Input Node
	Exprs []expr.Expr
	Names []string
	Star  bool
	// StarSources restricts a join's SELECT alias.* to the attributes of
	// those FROM items (their indexes, aliases in StarAliases); nil keeps
	// every item's.
	StarSources []int
	StarAliases []string
}

// Inputs implements Node.
func (n *Project) Inputs() []Node { return []Node{n.Input} }

func (n *Project) describe() explainLine {
	line := explainLine{kind: "Project", client: true}
	switch {
	case n.Star && len(n.StarAliases) > 0:
		line.title = "Project: " + strings.Join(n.StarAliases, ".*, ") + ".* (every attribute of " +
			strings.Join(n.StarAliases, "'s and ") + "'s items)"
	case n.Star:
		line.title = "Project: * (every attribute of each item)"
	default:
		cols := make([]string, 0, len(n.Exprs))
		for i, e := range n.Exprs {
			name := n.Names[i]
			switch {
			case name == "":
				cols = append(cols, e.String()+" (for ORDER BY)")
			case name == e.String() || isRefNamed(e, name):
				cols = append(cols, name)
			default:
				cols = append(cols, e.String()+" AS "+name)
			}
		}
		line.title = "Project: " + strings.Join(cols, ", ")
	}
	return line
}

func isRefNamed(e expr.Expr, name string) bool {
	r, ok := e.(expr.Ref)
	return ok && r.Name == name
}

func (n *Project) jsonFields(_ *jsonWriter, o *object) error {
	if n.Star {
		o.add("star", true)
		o.add("star_aliases", n.StarAliases)
		return nil
	}
	var cols []any
	for i, e := range n.Exprs {
		c := object{{"expr", e.String()}}
		if n.Names[i] == "" {
			c = append(c, field{"for_order_by", true})
		} else {
			c = append(c, field{"name", n.Names[i]})
		}
		cols = append(cols, c)
	}
	o.add("columns", cols)
	return nil
}
