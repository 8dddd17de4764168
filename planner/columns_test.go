package planner_test

import (
	"fmt"
	"testing"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// checkColumnIDs verifies the numbering of a plan's columns (every golden
// plan goes through it): every column a node evaluates on the client has
// an ID, the same FROM item and attribute always have the same one, and no
// two of them share one.
func checkColumnIDs(p *planner.Plan) error {
	return checkColumnSpace(p.Root)
}

// checkColumnSpace checks the columns of one SELECT, from node root down
// to the queries it reads, which number their columns on their own: a
// subquery's plan (a Subqueries read, a KeyedFanout's input), a set
// operation's members, a derived table's or WITH query's SELECT.
func checkColumnSpace(root planner.Node) error {
	type attr struct {
		source int
		name   string
	}
	ids := map[attr]expr.ColumnID{}
	of := map[expr.ColumnID]attr{}
	var bad error
	planner.Walk(root, func(n planner.Node, _ int) bool {
		var nested []planner.Node
		switch t := n.(type) {
		case *planner.Subqueries:
			nested = t.Reads
			if bad = checkColumnSpace(t.Input); bad != nil {
				return false
			}
		case *planner.KeyedFanout:
			nested = []planner.Node{t.Sub}
		case *planner.SetOp, *planner.Derived, *planner.Materialize, *planner.With:
			nested = n.Inputs()
		}
		if nested != nil {
			for _, sub := range nested {
				if bad = checkColumnSpace(sub); bad != nil {
					return false
				}
			}
			return false
		}
		for _, e := range planner.ClientExprs(n) {
			for _, c := range expr.Columns(e) {
				if c.ID <= expr.NoColumn {
					bad = fmt.Errorf("%s in %T has no ID", c, n)
					return false
				}
				a := attr{c.Source, c.Path[0].Name}
				if id, ok := ids[a]; ok && id != c.ID {
					bad = fmt.Errorf("%s has IDs %d and %d", c, id, c.ID)
					return false
				}
				if o, ok := of[c.ID]; ok && o != a {
					bad = fmt.Errorf("ID %d is both %v and %v", c.ID, o, a)
					return false
				}
				ids[a], of[c.ID] = c.ID, a
			}
		}
		return bad == nil
	})
	return bad
}

// TestFromItemsAndUses: a join's rows carry its inputs' FROM items in
// column order; Uses lists each column a node reads once.
func TestFromItemsAndUses(t *testing.T) {
	a := &planner.Access{Op: planner.OpQuery, Source: 0}
	b := &planner.Access{Op: planner.OpScan, Source: 1}
	k0 := expr.Column{Source: 0, Path: value.Path{{Name: "k"}}, ID: 1}
	k1 := expr.Column{Source: 1, Path: value.Path{{Name: "k"}}, ID: 2}
	v1 := expr.Column{Source: 1, Path: value.Path{{Name: "v"}, {Name: "x"}}, ID: 3}
	join := &planner.HashJoin{Probe: &planner.Filter{Input: a}, Build: b,
		ProbeKeys: []expr.Expr{k0}, BuildKeys: []expr.Expr{k1},
		Residual: expr.Binary{Op: expr.OpGt, L: v1, R: k0}}
	lookup := &planner.LookupJoin{Input: join, Source: 2, Probe: v1}
	if got := fmt.Sprint(planner.FromItems(&planner.Sort{Input: lookup})); got != "[0 1 2]" {
		t.Errorf("FromItems = %s, want [0 1 2]", got)
	}
	if got := planner.FromItems(&planner.Project{Input: lookup}); got != nil {
		t.Errorf("a projection's columns are positions, got FROM items %v", got)
	}
	var ids []expr.ColumnID
	for _, c := range planner.Uses(join) {
		ids = append(ids, c.ID)
	}
	if fmt.Sprint(ids) != "[1 2 3]" {
		t.Errorf("Uses(join) = %v, want [1 2 3]", ids)
	}
}
