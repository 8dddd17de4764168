package planner

import "github.com/ddbsql/ddbsql/planner/expr"

// simplifyOuter decides which FROM items are the optional side of a LEFT
// join, after the standard outer-join simplification: a LEFT join whose
// optional side is null-rejected by a filter — a condition that is never
// TRUE when that side's columns are all NULL, as they are in a row the join
// extended with NULLs — returns exactly the rows of an INNER join, so it is
// planned as one (and its optional side may then drive).
//
// Filters are the WHERE conjuncts and the ON conjuncts of INNER joins (an
// INNER join is a cross product filtered by its ON). A LEFT join's own ON
// never rejects anything: it only decides matches. Once a LEFT join becomes
// INNER its ON conditions become filters too, and may in turn null-reject
// the optional side of another LEFT join (A LEFT JOIN B ON … LEFT JOIN C ON
// C.k = B.k WHERE C.x = 1 makes both joins INNER), so this runs to a fixed
// point. What rejects NULLs is decided conservatively (rejectsNull).
func (jp *joinPlanner) simplifyOuter() {
	sp := jp.sp
	n := len(sp.froms)
	jp.kinds = make([]JoinKind, n)
	jp.onStep = make([]int, n)
	jp.asInner = make([]expr.Expr, n)
	jp.onStep[0] = -1
	var filters []expr.Expr
	filters = append(filters, sp.conjuncts...)
	for i, st := range sp.steps {
		jp.kinds[st.item], jp.onStep[st.item] = st.kind, i
		if st.kind == JoinInner {
			filters = append(filters, sp.ons[i]...)
		}
	}
	for changed := true; changed; {
		changed = false
		for item := range n {
			if jp.kinds[item] != JoinLeft {
				continue
			}
			for _, c := range filters {
				if rejectsNull(c, ofSource(item)) {
					jp.kinds[item], jp.asInner[item] = JoinInner, c
					filters = append(filters, sp.ons[jp.onStep[item]]...)
					changed = true
					break
				}
			}
		}
	}
}
