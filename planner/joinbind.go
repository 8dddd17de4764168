package planner

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
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
			left, err := sp.usingSource(col, st.item)
			if err != nil {
				return err
			}
			sp.ons[i] = append(sp.ons[i], expr.Binary{Op: expr.OpEq,
				L: b.col(left, value.Path{{Name: col}}),
				R: b.col(st.item, value.Path{{Name: col}})})
			if b.using == nil {
				b.using = map[string]int{}
			}
			if _, seen := b.using[col]; !seen {
				b.using[col] = left
			}
		}
	}
	return nil
}

// checkJoinSources rejects ON conditions that mention tables joined later.
func (sp *selectPlanner) checkJoinSources(e expr.Expr, item int) error {
	for _, c := range expr.Columns(e) {
		if c.Source > item {
			return errorf(diag.CodeInvalid, "ON %s refers to %s, which is joined later; move the condition to that join or to WHERE", e, sp.b.sources[c.Source].alias)
		}
	}
	return nil
}

// usingSource picks the earlier FROM item that USING (col) refers to: the
// one whose table has col as a key attribute, else the only earlier item.
// With several earlier items and none keyed by col, SQL would take the one
// that has the column, which schemaless items cannot tell: that is an error
// rather than a guess.
func (sp *selectPlanner) usingSource(col string, item int) (int, error) {
	for s := item - 1; s >= 0; s-- {
		if sp.froms[s].table.IsKeyAttr(col) {
			return s, nil
		}
	}
	if item == 1 {
		return 0, nil
	}
	aliases := make([]string, item)
	for s := range aliases {
		aliases[s] = sp.froms[s].alias
	}
	right := sp.froms[item].alias
	return 0, errorf(diag.CodeAmbiguous, "USING (%s) is ambiguous: items are schemaless, so ddbsql cannot tell which of %s has %s (it is a key attribute of none of them)",
		col, strings.Join(aliases, ", "), col).
		Hintf("write the join with ON, e.g. ON %s.%s = %s.%s", aliases[0], col, right, col)
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
