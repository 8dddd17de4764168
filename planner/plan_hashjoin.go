package planner

import (
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// HashJoin reads Build completely into a hash table on BuildKeys and streams
// Probe through it (Probe is the preserved side of a LEFT join).
type HashJoin struct {
	Probe, Build         Node
	Kind                 JoinKind
	ProbeKeys, BuildKeys []expr.Expr
	Residual             expr.Expr
	Reason               string
	AsInner              expr.Expr // as in LookupJoin
}

// Inputs implements Node.
func (n *HashJoin) Inputs() []Node { return []Node{n.Probe, n.Build} }

func (n *HashJoin) describe() explainLine {
	keys := make([]string, len(n.ProbeKeys))
	for i := range n.ProbeKeys {
		keys[i] = n.ProbeKeys[i].String() + " = " + n.BuildKeys[i].String()
	}
	d := []string{"strategy: hash join on the client; the first input streams, the second is read into a hash table",
		"why: " + n.Reason}
	if n.AsInner != nil {
		d = append(d, asInnerLine(n.AsInner))
	}
	if n.Residual != nil {
		d = append(d, "also checks (client): "+n.Residual.String())
	}
	return explainLine{kind: "HashJoin", title: fmt.Sprintf("Hash Join (%s) on %s", n.Kind, strings.Join(keys, " AND ")),
		client: true, details: d}
}

func (n *HashJoin) jsonFields(_ *jsonWriter, o *object) error {
	o.add("join", n.Kind.String())
	var on []any
	for i := range n.ProbeKeys {
		on = append(on, object{{"probe", n.ProbeKeys[i].String()}, {"build", n.BuildKeys[i].String()}})
	}
	o.add("on", on)
	o.add("reason", n.Reason)
	if n.AsInner != nil {
		o.add("runs_as_inner", asInnerLine(n.AsInner))
	}
	if n.Residual != nil {
		o.add("residual", n.Residual.String())
	}
	return nil
}
