package planner

import (
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

// normalizer rewrites conjuncts in disjunctive normal form.
type normalizer struct {
	max int // the most branches the form may have
	// mergeable says on which columns an OR of equalities becomes an IN
	// list: the key attributes, where it lets the branches be one read.
	mergeable func(expr.Column) bool
}

// form rewrites the AND of conjuncts as an OR of branches, each an AND of
// atoms: nested ORs are flattened and AND is distributed over OR. Only AND
// and OR are rewritten. NOT and everything else stay atoms, so no rewrite
// has to reason about NULLs: SQL's three-valued AND and OR form a
// distributive lattice, so a row makes the WHERE TRUE exactly when it makes
// some branch TRUE. Each step is simplified (see simplify), so an OR of key
// equalities is one IN list before it is multiplied. ok is false when the
// form has more than n.max branches.
func (n normalizer) form(conjuncts []expr.Expr) (bs []branch, ok bool) {
	bs = []branch{{}}
	for _, c := range conjuncts {
		d, ok := n.dnf(c)
		if !ok {
			return nil, false
		}
		if bs, ok = n.product(bs, d); !ok {
			return nil, false
		}
	}
	return bs, true
}

func (n normalizer) dnf(e expr.Expr) ([]branch, bool) {
	b, ok := e.(expr.Binary)
	if !ok || (b.Op != expr.OpAnd && b.Op != expr.OpOr) {
		return []branch{{e}}, true
	}
	if b.Op == expr.OpAnd {
		l, ok := n.dnf(b.L)
		if !ok {
			return nil, false
		}
		r, ok := n.dnf(b.R)
		if !ok {
			return nil, false
		}
		return n.product(l, r)
	}
	// A chain of ORs is one list, simplified as it grows: an OR of
	// thousands of equalities (machine-written SQL) stays one IN list.
	// The threshold for simplifying again grows with the disjuncts seen, so
	// the growing IN list is rebuilt only a logarithmic number of times.
	var out []branch
	limit := n.pairwiseLimit()
	for i, d := range disjuncts(b) {
		bs, ok := n.dnf(d)
		if !ok {
			return nil, false
		}
		out = append(out, bs...)
		if len(out) > limit {
			if out = n.simplify(out); len(out) > n.pairwiseLimit() {
				return nil, false
			}
			limit = len(out) + n.pairwiseLimit() + i
		}
	}
	out = n.simplify(out)
	return out, len(out) <= n.max
}

// disjuncts flattens nested ORs: (a OR b) OR c is a, b, c.
func disjuncts(e expr.Expr) []expr.Expr {
	var out []expr.Expr
	stack := []expr.Expr{e}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b, ok := n.(expr.Binary); ok && b.Op == expr.OpOr {
			stack = append(stack, b.R, b.L)
			continue
		}
		out = append(out, n)
	}
	return out
}

// product distributes AND: every branch of a with every branch of b.
func (n normalizer) product(a, b []branch) ([]branch, bool) {
	if len(a)*len(b) > n.max {
		return nil, false
	}
	out := make([]branch, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, append(append(make(branch, 0, len(x)+len(y)), x...), y...))
		}
	}
	return n.simplify(out), true
}

// factor is the AND of the conjuncts common to every branch and the OR of
// what remains of each: (C AND B1) OR (C AND B2) = C AND (B1 OR B2). With
// several (simplified) branches every remainder is non-empty.
func factor(bs []branch) []expr.Expr {
	cs := make([]cbranch, len(bs))
	for i, b := range bs {
		cs[i] = newCBranch(b)
	}
	var common []expr.Expr
	commonSet := conjunctSet{}
	for i, c := range cs[0].conj {
		in := true
		for _, o := range cs[1:] {
			in = in && o.set[cs[0].keys[i]]
		}
		if in {
			common = append(common, c)
			commonSet[cs[0].keys[i]] = true
		}
	}
	if len(common) == 0 || len(bs) == 1 {
		return common
	}
	var or expr.Expr
	for _, c := range cs {
		var rest []expr.Expr
		for i, e := range c.conj {
			if !commonSet[c.keys[i]] {
				rest = append(rest, e)
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
