package planner

import (
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// KeyedSemiJoin reads the rows of a correlated subquery by key for the
// outer rows that pass through it: for each input batch it looks up the
// distinct values of Probe (an outer column compared with the partition
// key of the subquery's table or GSI) not looked up before, checks Filter
// (the subquery's own WHERE) on each item found, and adds Items (the
// subquery's select list: its correlation columns, then its value) to the
// rows its expression reads (Sub.Result), before it passes the batch on.
// When the value is an aggregate (a correlated COUNT, SUM, MIN, MAX or
// AVG), it is folded over the items of each correlation key, and outer
// values without items get Sub.Empty.
// Filter and Items are the subquery's, in its own columns; the rows of the
// input pass through unchanged.
type KeyedSemiJoin struct {
	Input  Node
	Lookup *LookupJoin // the reads' templates and estimate; its Input is unused
	Probe  expr.Expr
	Filter expr.Expr // nil: none
	Items  []expr.Expr
	Sub    *SubqueryRead
}

// Inputs implements Node.
func (n *KeyedSemiJoin) Inputs() []Node { return []Node{n.Input} }

func (n *KeyedSemiJoin) describe() explainLine {
	lj := n.Lookup
	title := fmt.Sprintf("Keyed semi-join for subquery %d: %s %s by %s", n.Sub.Number, lj.Op, lj.Table, lj.Via)
	d := []string{"subquery " + fmt.Sprint(n.Sub.Number) + ": " + n.Sub.SQL + " — " + n.semiUse(),
		"estimate: " + lj.Estimate.String(),
		"lookup value: " + n.Probe.String() + " of each input row, each distinct value once; NULLs and values that are not " + typeWord(lj.KeyType) + "s never match"}
	if n.Filter != nil {
		d = append(d, "checks on each item found (client): "+n.Filter.String())
	}
	d = append(d, "rows of the subquery: "+exprList(n.Items))
	for _, line := range lj.describe().details {
		if strings.HasPrefix(line, "estimate: ") || strings.HasPrefix(line, "on: ") || strings.HasPrefix(line, "lookup value: ") {
			continue
		}
		d = append(d, line)
	}
	return explainLine{kind: "KeyedSemiJoin", title: title, details: d}
}

func (n *KeyedSemiJoin) jsonFields(w *jsonWriter, o *object) error {
	o.add("subquery", object{{"number", n.Sub.Number}, {"sql", n.Sub.SQL}, {"use", n.semiUse()}})
	if n.Filter != nil {
		o.add("item_filter", n.Filter.String())
	}
	o.add("subquery_rows", exprList(n.Items))
	return lookupFieldsNoJoin(w, o, n.Lookup)
}

// exprList renders expressions separated by commas.
func exprList(es []expr.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// semiUse says how the subquery's rows are read and used, for EXPLAIN.
func (n *KeyedSemiJoin) semiUse() string {
	if n.Sub.Empty != nil {
		return n.Sub.kindText() + fmt.Sprintf("; decorrelated into a grouped join: the items of each outer value are read by key and the aggregate folded per value (%d correlation value(s)); values without items get the aggregate over no rows", n.Sub.Keys)
	}
	return n.Sub.kindText() + fmt.Sprintf("; decorrelated: the rows of each outer value are read by key before the rows that test them pass (%d correlation value(s) lead each row)", n.Sub.Keys)
}
