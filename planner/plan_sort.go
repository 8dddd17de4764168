package planner

import (
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// SortKey is one ORDER BY key.
type SortKey struct {
	Expr expr.Expr
	Desc bool
}

// Sort orders rows on the client. TopN > 0 means only the first TopN rows are
// needed (ORDER BY … LIMIT), so it keeps a bounded heap instead of sorting all.
type Sort struct {
	Input Node
	Keys  []SortKey
	TopN  int64
}

// Inputs implements Node.
func (n *Sort) Inputs() []Node { return []Node{n.Input} }

func (n *Sort) describe() explainLine {
	keys := make([]string, len(n.Keys))
	for i, k := range n.Keys {
		keys[i] = k.Expr.String() + " " + order(k.Desc)
	}
	title := "Sort (client): " + strings.Join(keys, ", ")
	if n.TopN > 0 {
		title += fmt.Sprintf(" (top %d)", n.TopN)
	}
	return explainLine{kind: "Sort", title: title, client: true}
}

func (n *Sort) jsonFields(_ *jsonWriter, o *object) error {
	var keys []any
	for _, k := range n.Keys {
		keys = append(keys, object{{"expr", k.Expr.String()}, {"order", order(k.Desc)}})
	}
	o.add("keys", keys)
	if n.TopN > 0 {
		o.add("top_n", n.TopN)
	}
	return nil
}
