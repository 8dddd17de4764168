package planner

import (
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// hasWindows reports whether the select list or ORDER BY calls a window
// function.
func (sp *selectPlanner) hasWindows() bool {
	for _, it := range sp.items {
		if expr.HasWindow(it.expr) {
			return true
		}
	}
	for _, k := range sp.order {
		if expr.HasWindow(k.Expr) {
			return true
		}
	}
	return false
}

// checkWindowPlaces rejects a window function that reached GROUP BY or
// HAVING through a select alias, and one in a SELECT * statement's ORDER BY.
func (sp *selectPlanner) checkWindowPlaces() error {
	for _, g := range sp.groups {
		if expr.HasWindow(g) {
			return errorf(diag.CodeInvalid, "window functions are not allowed in GROUP BY (%s)", g).Hintf("%s", windowClauseHint)
		}
	}
	if sp.having != nil && expr.HasWindow(sp.having) {
		return errorf(diag.CodeInvalid, "window functions are not allowed in HAVING").Hintf("%s", windowClauseHint)
	}
	if sp.star && sp.hasWindows() {
		return errorf(diag.CodeUnsupported, "a window function in ORDER BY needs an explicit select list, not SELECT *")
	}
	return nil
}

// windowPlanner lays out the columns the window operators read and add.
type windowPlanner struct {
	pre   []expr.Expr    // the Project below the windows
	byPre map[string]int // pre's expressions by rendering
	wins  []expr.Window  // the distinct window calls, as written
	byWin map[string]int
}

// ref is the column of pre that computes e (a literal stays inline).
func (wp *windowPlanner) ref(e expr.Expr) expr.Expr {
	if _, ok := e.(expr.Literal); ok {
		return e
	}
	s := e.String()
	i, ok := wp.byPre[s]
	if !ok {
		i = len(wp.pre)
		wp.pre = append(wp.pre, e)
		wp.byPre[s] = i
	}
	return expr.Ref{Index: i, Name: s}
}

// split replaces in e each window call with its column (windowColumn) and
// each largest part without one with a column of pre.
func (wp *windowPlanner) split(e expr.Expr, windowColumn func(expr.Window) expr.Expr) expr.Expr {
	out, _ := expr.Transform(e, func(x expr.Expr) (expr.Expr, bool, error) {
		if w, ok := x.(expr.Window); ok {
			return windowColumn(w), true, nil
		}
		if !expr.HasWindow(x) {
			return wp.ref(x), true, nil
		}
		return nil, false, nil
	})
	return out
}

// planWindows puts the window operators above node (the rows after WHERE,
// GROUP BY and HAVING): a Project computing every expression they and the
// statement's items and ORDER BY need, then one Window per distinct
// PARTITION BY and ORDER BY, each adding its functions' columns. Items and
// order come back reading those columns.
func (sp *selectPlanner) planWindows(node Node, items []expr.Expr, order []SortKey) (Node, []expr.Expr, []SortKey) {
	wp := &windowPlanner{byPre: map[string]int{}, byWin: map[string]int{}}
	collect := func(w expr.Window) expr.Expr {
		if _, ok := wp.byWin[w.String()]; !ok {
			wp.byWin[w.String()] = len(wp.wins)
			wp.wins = append(wp.wins, w)
		}
		return w
	}
	for _, it := range items {
		wp.split(it, collect)
	}
	for _, k := range order {
		wp.split(k.Expr, collect)
	}
	// One Window per specification, in order of first appearance; each
	// function's column follows the ones of the Windows below it.
	var specs []string
	bySpec := map[string][]int{}
	for i, w := range wp.wins {
		s := w.Spec()
		if _, ok := bySpec[s]; !ok {
			specs = append(specs, s)
		}
		bySpec[s] = append(bySpec[s], i)
	}
	bound := make([]expr.Window, len(wp.wins))
	for i, w := range wp.wins {
		b := w
		b.Args, b.Partition, b.Order = nil, nil, nil
		for _, a := range w.Args {
			b.Args = append(b.Args, wp.ref(a))
		}
		for _, p := range w.Partition {
			b.Partition = append(b.Partition, wp.ref(p))
		}
		for _, k := range w.Order {
			k.Expr = wp.ref(k.Expr)
			b.Order = append(b.Order, k)
		}
		bound[i] = b
	}
	column := make([]int, len(wp.wins))
	next := len(wp.pre)
	for _, s := range specs {
		for _, i := range bySpec[s] {
			column[i] = next
			next++
		}
	}
	names := make([]string, len(wp.pre))
	for i, e := range wp.pre {
		names[i] = e.String()
	}
	node = &Project{Input: node, Exprs: wp.pre, Names: names}
	for _, s := range specs {
		first := bound[bySpec[s][0]]
		win := &Window{Input: node, Partition: first.Partition, Order: first.Order}
		for _, i := range bySpec[s] {
			win.Funcs = append(win.Funcs, bound[i])
		}
		node = win
	}
	windowColumn := func(w expr.Window) expr.Expr {
		s := w.String()
		return expr.Ref{Index: column[wp.byWin[s]], Name: s}
	}
	outItems := make([]expr.Expr, len(items))
	for i, it := range items {
		outItems[i] = wp.split(it, windowColumn)
	}
	outOrder := make([]SortKey, len(order))
	for i, k := range order {
		outOrder[i] = SortKey{Expr: wp.split(k.Expr, windowColumn), Desc: k.Desc}
	}
	return node, outItems, outOrder
}
