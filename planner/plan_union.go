package planner

import (
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// Union reads the branches of a WHERE written as an OR of key conditions,
// each with its own keyed read (and FilterExpression, client filter and
// fetch of full items), and passes every item once: an item several
// branches return comes out the first time, recognised by the table's
// primary key. Items are unique by primary key, so this is exactly the
// rows the OR selects. Branches are read one after another, each only when
// the one before it has ended, so a LIMIT that is met early sends no
// request for the later branches. The output has no particular order.
type Union struct {
	Branches []Node
	// Conditions are the WHERE conditions of each branch, for EXPLAIN.
	Conditions []expr.Expr
	Table      string
	Source     int
	// KeyAttrs are the table's key attributes: every branch reads them.
	KeyAttrs []string
	// Drives, when the union starts a join, says why (for EXPLAIN).
	Drives string
}

// Inputs implements Node.
func (n *Union) Inputs() []Node { return n.Branches }

func (n *Union) describe() explainLine {
	title := fmt.Sprintf("Union (client): %d OR branches, each item once (deduplicated by %s)", len(n.Branches), strings.Join(n.KeyAttrs, ", "))
	d := []string{
		"estimate (all branches): " + TotalEstimate(&Plan{Root: n}).String(),
		"why: every branch of the WHERE's OR has a key condition of its own",
		"branches are read one after another; a LIMIT that is met stops before the next",
	}
	if n.Drives != "" {
		d = append(d, "drives the join: "+n.Drives)
	}
	for i, c := range n.Conditions {
		d = append(d, fmt.Sprintf("branch %d: %s", i+1, c))
	}
	return explainLine{kind: "Union", title: title, client: true, details: d}
}

func (n *Union) jsonFields(_ *jsonWriter, o *object) error {
	o.add("table", n.Table)
	o.add("key_attributes", n.KeyAttrs)
	o.add("drives", n.Drives)
	var branches []string
	for _, c := range n.Conditions {
		branches = append(branches, c.String())
	}
	o.add("branch_conditions", branches)
	o.add("estimate", estimateJSON(TotalEstimate(&Plan{Root: n}), false))
	return nil
}
