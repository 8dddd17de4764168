package planner

import (
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// Window computes window functions that share one PARTITION BY and ORDER
// BY over its input's rows (after WHERE, GROUP BY and HAVING). Its input is
// positional (a Project) and its output is the input's columns followed by
// one column per function, in Funcs order; rows come out ordered by
// partition, then by Order. Funcs' own Partition and Order repeat the
// node's.
type Window struct {
	Input     Node
	Partition []expr.Expr
	Order     []expr.WindowKey
	Funcs     []expr.Window
}

// Inputs implements Node.
func (n *Window) Inputs() []Node { return []Node{n.Input} }

// funcTexts renders each function with its frame where it matters.
func (n *Window) funcTexts() []string {
	out := make([]string, len(n.Funcs))
	for i, f := range n.Funcs {
		out[i] = f.Call()
		if f.UsesFrame() {
			out[i] += " [" + f.Frame.String() + "]"
		}
	}
	return out
}

func (n *Window) describe() explainLine {
	spec := expr.Window{Partition: n.Partition, Order: n.Order}.Spec()
	if spec == "" {
		spec = "all rows as one partition"
	}
	title := "Window (client): " + spec + ": " + strings.Join(n.funcTexts(), ", ")
	return explainLine{kind: "Window", title: title, client: true}
}

func (n *Window) jsonFields(_ *jsonWriter, o *object) error {
	var funcs []any
	for _, f := range n.Funcs {
		fo := object{{"call", f.Call()}}
		if f.UsesFrame() {
			fo = append(fo, field{"frame", f.Frame.String()})
		}
		funcs = append(funcs, fo)
	}
	var parts []string
	for _, p := range n.Partition {
		parts = append(parts, p.String())
	}
	var keys []any
	for _, k := range n.Order {
		nulls := "last"
		if k.NullsFirst {
			nulls = "first"
		}
		keys = append(keys, object{{"expr", k.Expr.String()}, {"order", order(k.Desc)}, {"nulls", nulls}})
	}
	o.add("functions", funcs)
	o.add("partition_by", parts)
	o.add("order_by", keys)
	return nil
}
