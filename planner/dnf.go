package planner

import (
	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// maxOrBranches caps the disjunctive normal form of a WHERE. Distributing
// AND over OR multiplies branches ((a OR b) AND (c OR d) has four), so a
// few ORs can expand into thousands of reads; beyond the cap the statement
// is planned as written.
const maxOrBranches = 100

// branch is one conjunction of a disjunctive normal form.
type branch []expr.Expr

// hasOr reports whether any conjunct is an OR (conjuncts are already split
// on AND, so only a top-level OR can make the WHERE a disjunction).
func hasOr(conjuncts []expr.Expr) bool {
	for _, c := range conjuncts {
		if b, ok := c.(expr.Binary); ok && b.Op == expr.OpOr {
			return true
		}
	}
	return false
}

// disjunctiveForm rewrites the AND of conjuncts as an OR of branches, each
// an AND of atoms: nested ORs are flattened and AND is distributed over OR.
// Only AND and OR are rewritten. NOT and everything else stay atoms, so no
// rewrite has to reason about NULLs: SQL's three-valued AND and OR form a
// distributive lattice, so a row makes the WHERE TRUE exactly when it makes
// some branch TRUE. Each step is simplified (see simplify), so an OR of
// equalities is one IN list before it is multiplied. ok is false when the
// form has more than max branches.
func disjunctiveForm(conjuncts []expr.Expr, max int) (bs []branch, ok bool) {
	bs = []branch{{}}
	for _, c := range conjuncts {
		d, ok := dnf(c, max)
		if !ok {
			return nil, false
		}
		if bs, ok = product(bs, d, max); !ok {
			return nil, false
		}
	}
	return bs, true
}

func dnf(e expr.Expr, max int) ([]branch, bool) {
	b, ok := e.(expr.Binary)
	if !ok || (b.Op != expr.OpAnd && b.Op != expr.OpOr) {
		return []branch{{e}}, true
	}
	l, ok := dnf(b.L, max)
	if !ok {
		return nil, false
	}
	r, ok := dnf(b.R, max)
	if !ok {
		return nil, false
	}
	if b.Op == expr.OpAnd {
		return product(l, r, max)
	}
	if len(l)+len(r) > max {
		return nil, false
	}
	return simplify(append(append(make([]branch, 0, len(l)+len(r)), l...), r...)), true
}

// product distributes AND: every branch of a with every branch of b.
func product(a, b []branch, max int) ([]branch, bool) {
	if len(a)*len(b) > max {
		return nil, false
	}
	out := make([]branch, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, append(append(make(branch, 0, len(x)+len(y)), x...), y...))
		}
	}
	return simplify(out), true
}

// simplify applies identities that hold in three-valued logic and only
// shrink the form: a repeated conjunct counts once (A AND A = A), a branch
// that contains another branch's conjuncts is dropped (A OR (A AND B) = A),
// and two branches that differ only in x = v or x IN (…) on one column
// become one IN list ((C AND x = 1) OR (C AND x IN (2, 3)) =
// C AND x IN (1, 2, 3)), as `x IN (l)` is defined to be the OR of
// the equalities.
func simplify(bs []branch) []branch {
	sets := make([]conjunctSet, len(bs))
	for i := range bs {
		bs[i], sets[i] = dedupConjuncts(bs[i])
	}
	for changed := true; changed; {
		changed = false
		bs, sets = dropAbsorbed(bs, sets)
		for i := 0; i < len(bs) && !changed; i++ {
			for j := i + 1; j < len(bs) && !changed; j++ {
				if m, ok := mergeBranches(bs[i], sets[i], bs[j], sets[j]); ok {
					bs[i], sets[i] = dedupConjuncts(m)
					bs = append(bs[:j], bs[j+1:]...)
					sets = append(sets[:j], sets[j+1:]...)
					changed = true
				}
			}
		}
	}
	return bs
}

// conjunctSet holds a branch's conjuncts by their SQL text.
type conjunctSet map[string]bool

// includes reports whether every conjunct of small is in the set.
func (s conjunctSet) includes(small branch) bool {
	for _, c := range small {
		if !s[c.String()] {
			return false
		}
	}
	return true
}

func setOf(b branch) conjunctSet {
	s := make(conjunctSet, len(b))
	for _, c := range b {
		s[c.String()] = true
	}
	return s
}

func dedupConjuncts(b branch) (branch, conjunctSet) {
	out := make(branch, 0, len(b))
	seen := make(conjunctSet, len(b))
	for _, c := range b {
		if s := c.String(); !seen[s] {
			seen[s] = true
			out = append(out, c)
		}
	}
	return out, seen
}

// dropAbsorbed removes every branch whose conjuncts include all of another
// kept branch's (of equal branches, the first is kept).
func dropAbsorbed(bs []branch, sets []conjunctSet) ([]branch, []conjunctSet) {
	var out []branch
	var outSets []conjunctSet
	for i, b := range bs {
		absorbed := false
		for j, o := range bs {
			if i != j && sets[i].includes(o) && (len(o) < len(b) || j < i) {
				absorbed = true
				break
			}
		}
		if !absorbed {
			out = append(out, b)
			outSets = append(outSets, sets[i])
		}
	}
	return out, outSets
}

// mergeBranches joins two branches that are equal but for one equality or
// IN list on the same column into one branch with the combined IN list, in
// the position a had it.
func mergeBranches(a branch, aSet conjunctSet, b branch, bSet conjunctSet) (branch, bool) {
	if len(a) != len(b) {
		return nil, false
	}
	ai, bi := onlyDifference(a, bSet), onlyDifference(b, aSet)
	if ai < 0 || bi < 0 {
		return nil, false
	}
	ac, av, ok := eqList(a[ai])
	if !ok {
		return nil, false
	}
	bc, bv, ok := eqList(b[bi])
	if !ok || ac.String() != bc.String() {
		return nil, false
	}
	vals := distinct(append(av, bv...))
	list := make([]expr.Expr, len(vals))
	for i, v := range vals {
		list[i] = expr.Literal{Value: v}
	}
	out := append(branch(nil), a...)
	out[ai] = expr.In{X: ac, List: list}
	return out, true
}

// onlyDifference returns the index of the one conjunct of a that other
// lacks, or -1 when a has none or several such conjuncts.
func onlyDifference(a branch, other conjunctSet) int {
	found := -1
	for i, c := range a {
		if other[c.String()] {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = i
	}
	return found
}

// eqList recognises column = literal (either way round) and column IN
// (literals), with no NULL literal: the shapes whose OR is an IN list.
func eqList(e expr.Expr) (expr.Column, []value.Value, bool) {
	switch n := e.(type) {
	case expr.Binary:
		if n.Op != expr.OpEq {
			break
		}
		c, ok := n.L.(expr.Column)
		lit := literalOf(n.R)
		if !ok {
			c, ok = n.R.(expr.Column)
			lit = literalOf(n.L)
		}
		if ok && lit != nil {
			return c, []value.Value{*lit}, true
		}
	case expr.In:
		c, ok := n.X.(expr.Column)
		if !ok || n.Not || len(n.List) == 0 {
			break
		}
		vals := make([]value.Value, 0, len(n.List))
		for _, item := range n.List {
			lit := literalOf(item)
			if lit == nil {
				return expr.Column{}, nil, false
			}
			vals = append(vals, *lit)
		}
		return c, vals, true
	}
	return expr.Column{}, nil, false
}

// factor is the AND of the conjuncts common to every branch and the OR of
// what remains of each: (C AND B1) OR (C AND B2) = C AND (B1 OR B2). With
// several (simplified) branches every remainder is non-empty.
func factor(bs []branch) []expr.Expr {
	sets := make([]conjunctSet, len(bs))
	for i, b := range bs {
		sets[i] = setOf(b)
	}
	var common []expr.Expr
	for _, c := range bs[0] {
		in := true
		for _, s := range sets[1:] {
			in = in && s[c.String()]
		}
		if in {
			common = append(common, c)
		}
	}
	if len(common) == 0 || len(bs) == 1 {
		return common
	}
	commonSet := setOf(common)
	var or expr.Expr
	for _, b := range bs {
		var rest []expr.Expr
		for _, c := range b {
			if !commonSet[c.String()] {
				rest = append(rest, c)
			}
		}
		if or == nil {
			or = expr.And(rest)
		} else {
			or = expr.Binary{Op: expr.OpOr, L: or, R: expr.And(rest)}
		}
	}
	return append(common, or)
}
