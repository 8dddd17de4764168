package planner

import (
	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// bindJoinConditions binds each join's ON clause (USING becomes equalities)
// into conjuncts.
func (sp *selectPlanner) bindJoinConditions() error {
	b := sp.b
	sp.ons = make([][]expr.Expr, len(sp.steps))
	for i, st := range sp.steps {
		if st.on != nil {
			b.clause = "ON"
			e, err := b.bind(st.on)
			if err != nil {
				return err
			}
			for _, c := range expr.Conjuncts(e) {
				if err := sp.checkJoinSources(c, st.item); err != nil {
					return err
				}
			}
			sp.ons[i] = expr.Conjuncts(e)
		}
		for _, col := range st.using {
			left := sp.usingSource(col, st.item)
			sp.ons[i] = append(sp.ons[i], expr.Binary{Op: expr.OpEq,
				L: b.col(left, value.Path{{Name: col}}),
				R: b.col(st.item, value.Path{{Name: col}})})
		}
	}
	return nil
}

// checkJoinSources rejects ON conditions that mention tables joined later.
func (sp *selectPlanner) checkJoinSources(e expr.Expr, item int) error {
	for _, c := range expr.Columns(e) {
		if c.Source > item {
			return errorf(CodeInvalid, "ON %s refers to %s, which is joined later; move the condition to that join or to WHERE", e, sp.froms[c.Source].alias)
		}
	}
	return nil
}

// usingSource picks the earlier FROM item that USING (col) refers to: the
// one whose table has col as a key attribute, else the item just before.
func (sp *selectPlanner) usingSource(col string, item int) int {
	for s := item - 1; s >= 0; s-- {
		if sp.froms[s].table.IsKeyAttr(col) {
			return s
		}
	}
	return item - 1
}

// sourcesOf lists the FROM items an expression reads.
func sourcesOf(e expr.Expr) []int {
	var out []int
	for _, c := range expr.Columns(e) {
		dup := false
		for _, s := range out {
			if s == c.Source {
				dup = true
			}
		}
		if !dup {
			out = append(out, c.Source)
		}
	}
	return out
}

func subset(srcs []int, set map[int]bool) bool {
	for _, s := range srcs {
		if !set[s] {
			return false
		}
	}
	return true
}
