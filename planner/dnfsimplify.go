package planner

import (
	"sort"
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// pairwiseLimit bounds the branches compared pair by pair (absorption and
// merges that hashing does not find); beyond it the form is too large to
// plan by key anyway.
func (n normalizer) pairwiseLimit() int { return 4 * n.max }

// simplify applies identities that hold in three-valued logic and only
// shrink the form: a repeated conjunct counts once (A AND A = A), a branch
// that contains another branch's conjuncts is dropped (A OR (A AND B) = A),
// and branches that differ only in x = v or x IN (…) on one mergeable column become
// one IN list ((C AND x = 1) OR (C AND x IN (2, 3)) = C AND x IN (1, 2, 3)),
// as `x IN (l)` is defined to be the OR of the equalities.
//
// Merges are first found by hashing (linear in the branches), then, when
// few branches are left, pair by pair until nothing changes.
func (n normalizer) simplify(bs []branch) []branch {
	cs := make([]cbranch, len(bs))
	for i, b := range bs {
		cs[i] = newCBranch(b)
	}
	cs = n.mergeByHash(cs)
	if len(cs) <= n.pairwiseLimit() {
		cs = n.mergePairwise(cs)
	}
	out := make([]branch, len(cs))
	for i, c := range cs {
		out[i] = c.conj
	}
	return out
}

// cbranch is a branch with its conjuncts' SQL text, computed once: the
// text of a long IN list is long.
type cbranch struct {
	conj branch
	keys []string
	set  conjunctSet
}

// newCBranch drops repeated conjuncts.
func newCBranch(b branch) cbranch {
	c := cbranch{conj: make(branch, 0, len(b)), set: make(conjunctSet, len(b))}
	for _, e := range b {
		if k := e.String(); !c.set[k] {
			c.set[k] = true
			c.conj = append(c.conj, e)
			c.keys = append(c.keys, k)
		}
	}
	return c
}

// conjunctSet holds a branch's conjuncts by their SQL text.
type conjunctSet map[string]bool

// includes reports whether every conjunct of o is in the set.
func (s conjunctSet) includes(o cbranch) bool {
	for _, k := range o.keys {
		if !s[k] {
			return false
		}
	}
	return true
}

// mergeKey says that a branch is "column = value or IN list at pos, and
// these other conjuncts": branches with equal keys merge into one IN list.
type mergeKey struct {
	key  string
	pos  int
	col  expr.Column
	vals []value.Value
}

func (n normalizer) mergeKeys(b cbranch) []mergeKey {
	var out []mergeKey
	for p, c := range b.conj {
		col, vals, ok := n.eqList(c)
		if !ok {
			continue
		}
		others := make([]string, 0, len(b.keys)-1)
		others = append(append(others, b.keys[:p]...), b.keys[p+1:]...)
		sort.Strings(others)
		out = append(out, mergeKey{key: col.String() + "\x01" + strings.Join(others, "\x00"), pos: p, col: col, vals: vals})
	}
	return out
}

// mergeGroup is a branch collecting the values of the branches merged into
// it. Once it has merged under one key it grows only there: its other keys
// named its conjunct before the IN list grew.
type mergeGroup struct {
	b    cbranch
	keys []mergeKey
	lock string
	at   mergeKey
	vals []value.Value
	seen map[string]bool
	grew bool
}

func (g *mergeGroup) accepts(key string) bool { return g.lock == "" || g.lock == key }

// mergeByHash merges, in one pass, every branch into the first earlier
// branch it has a merge key in common with.
func (n normalizer) mergeByHash(cs []cbranch) []cbranch {
	var groups []*mergeGroup
	byKey := map[string]*mergeGroup{}
	for _, b := range cs {
		keys := n.mergeKeys(b)
		var g *mergeGroup
		var via mergeKey
		for _, k := range keys {
			if cand := byKey[k.key]; cand != nil && cand.accepts(k.key) {
				g, via = cand, k
				break
			}
		}
		if g == nil {
			g = &mergeGroup{b: b, keys: keys}
			groups = append(groups, g)
			for _, k := range keys {
				if cand := byKey[k.key]; cand == nil || !cand.accepts(k.key) {
					byKey[k.key] = g
				}
			}
			continue
		}
		if g.lock == "" {
			g.lock = via.key
			for _, k := range g.keys {
				if k.key == via.key {
					g.at = k
				}
			}
			g.seen = map[string]bool{}
			for _, v := range g.at.vals {
				if vk := valueKey(v); !g.seen[vk] {
					g.seen[vk] = true
					g.vals = append(g.vals, v)
				}
			}
		}
		for _, v := range via.vals {
			if vk := valueKey(v); !g.seen[vk] {
				g.seen[vk], g.grew = true, true
				g.vals = append(g.vals, v)
			}
		}
	}
	out := make([]cbranch, len(groups))
	for i, g := range groups {
		out[i] = g.b
		if g.grew {
			conj := append(branch(nil), g.b.conj...)
			conj[g.at.pos] = inList(g.at.col, g.vals)
			out[i] = newCBranch(conj)
		}
	}
	return out
}

// mergePairwise drops absorbed branches and merges pairs until nothing
// changes.
func (n normalizer) mergePairwise(cs []cbranch) []cbranch {
	for changed := true; changed; {
		changed = false
		cs = dropAbsorbed(cs)
		for i := 0; i < len(cs); i++ {
			for j := i + 1; j < len(cs); {
				m, ok := n.mergeBranches(cs[i], cs[j])
				if !ok {
					j++
					continue
				}
				cs[i] = m
				cs = append(cs[:j], cs[j+1:]...)
				changed = true
				j = i + 1
			}
		}
	}
	return cs
}

// dropAbsorbed removes every branch whose conjuncts include all of another
// branch's (of equal branches, the first is kept).
func dropAbsorbed(cs []cbranch) []cbranch {
	var out []cbranch
	for i, b := range cs {
		absorbed := false
		for j, o := range cs {
			if i != j && len(o.keys) <= len(b.keys) && b.set.includes(o) && (len(o.keys) < len(b.keys) || j < i) {
				absorbed = true
				break
			}
		}
		if !absorbed {
			out = append(out, b)
		}
	}
	return out
}

// mergeBranches joins two branches that are equal but for one equality or
// IN list on the same column into one branch with the combined IN list, in
// the position a had it.
func (n normalizer) mergeBranches(a, b cbranch) (cbranch, bool) {
	if len(a.keys) != len(b.keys) {
		return cbranch{}, false
	}
	ai, bi := onlyDifference(a, b.set), onlyDifference(b, a.set)
	if ai < 0 || bi < 0 {
		return cbranch{}, false
	}
	ac, av, ok := n.eqList(a.conj[ai])
	if !ok {
		return cbranch{}, false
	}
	bc, bv, ok := n.eqList(b.conj[bi])
	if !ok || ac.String() != bc.String() {
		return cbranch{}, false
	}
	var vals []value.Value
	seen := map[string]bool{}
	for _, v := range append(av, bv...) {
		if k := valueKey(v); !seen[k] {
			seen[k] = true
			vals = append(vals, v)
		}
	}
	conj := append(branch(nil), a.conj...)
	conj[ai] = inList(ac, vals)
	return newCBranch(conj), true
}

// onlyDifference returns the index of the one conjunct of a that other
// lacks, or -1 when a has none or several such conjuncts.
func onlyDifference(a cbranch, other conjunctSet) int {
	found := -1
	for i, k := range a.keys {
		if other[k] {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = i
	}
	return found
}

func inList(col expr.Column, vals []value.Value) expr.Expr {
	list := make([]expr.Expr, len(vals))
	for i, v := range vals {
		list[i] = expr.Literal{Value: v}
	}
	return expr.In{X: col, List: list}
}

// valueKey identifies a literal value: numbers by their canonical text, so
// 1.0 and 1 are one value (as value.Equal says).
func valueKey(v value.Value) string {
	if v.Kind() == value.Number {
		if c, err := value.CanonicalNumber(v.Text()); err == nil {
			return "N" + c
		}
	}
	return string(value.AppendBinary(nil, v))
}

// eqList recognises column = literal (either way round) and column IN
// (literals), with no NULL literal, on a mergeable column: the shapes whose
// OR is an IN list.
func (n normalizer) eqList(e expr.Expr) (expr.Column, []value.Value, bool) {
	c, vals, ok := eqListOf(e)
	if !ok || !n.mergeable(c) {
		return expr.Column{}, nil, false
	}
	return c, vals, true
}

func eqListOf(e expr.Expr) (expr.Column, []value.Value, bool) {
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
