package planner

import (
	"fmt"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// readShape summarises a keyed read, to compare what a union of branches
// reads with what one read of the whole WHERE would.
type readShape struct {
	get      bool                     // GetItem/BatchGetItem of these keys
	keys     []map[string]value.Value // get
	keyConds []expr.Expr              // get: the conditions that fix the keys
	pkAttr   string                   // Query: the path's partition key attribute
	pkValues []value.Value            // Query: one Query per value
	sortCond bool                     // Query: with a sort-key condition
}

// narrower reports whether a read of shape b certainly reads less than one
// of shape p: keys read less than any Query, and a Query of some of the
// same partitions with a sort-key condition less than one without.
// Anything else may read more (two Queries of one partition read it twice),
// so it is not narrower.
func (b readShape) narrower(p readShape) bool {
	switch {
	case p.get:
		return false
	case b.get:
		return true
	}
	if !b.sortCond || p.sortCond || b.pkAttr != p.pkAttr {
		return false
	}
	for _, v := range b.pkValues {
		if !containsValue(p.pkValues, v) {
			return false
		}
	}
	return true
}

func containsValue(vals []value.Value, v value.Value) bool {
	for _, o := range vals {
		if value.Equal(o, v) {
			return true
		}
	}
	return false
}

// planDisjunction plans conjuncts that contain OR. It rewrites them in
// disjunctive normal form (dnf.go) and, when every branch has a key
// condition of its own, reads the branches by key instead of scanning:
// branches that merge into one (an IN list) are one read; branches that
// are all full primary keys are one BatchGetItem; otherwise a Union of the
// branches' reads, deduplicated by primary key.
//
// When the conjuncts already give a keyed read (a key condition outside
// the OR), the rewrite is used only when every branch reads less than that
// read (narrower), so an OR never makes a statement read more than before.
// When some branch cannot be read by key (it has no key condition, compares
// a key with a value of another type, or needs a GSI under --consistent)
// the statement is planned as written: with --allow-scan a Scan with the OR
// in the FilterExpression, as before; otherwise an error that names the
// branch (or says what is wrong with it).
func (r *reader) planDisjunction(req readRequest) (*readPlan, error) {
	keyed := r.noScan()
	plain, plainErr := keyed.planAccess(req)
	if plainErr != nil {
		plain = nil
		if !hasCode(plainErr, diag.CodeScanNotAllowed) && !hasCode(plainErr, diag.CodeConsistentIndex) {
			return nil, plainErr
		}
	}
	if plain != nil && plain.shape.get {
		return plain, nil // nothing reads less than the keys themselves
	}
	branches, ok := normalizer{max: maxOrBranches, mergeable: r.keyColumn}.form(r.conjuncts)
	if !ok {
		why := fmt.Sprintf("the WHERE has too many OR branches to plan by key (more than %d once written as an OR of ANDs)", maxOrBranches)
		return r.fallback(req, plain, plainErr, why, "")
	}
	if len(branches) == 1 {
		rp, err := keyed.with(branches[0]).planAccess(req)
		switch {
		case err == nil && (plain == nil || rp.shape.narrower(plain.shape)):
			return rp, nil
		case err != nil && plain == nil && !hasCode(err, diag.CodeScanNotAllowed):
			return nil, err
		}
		return r.fallback(req, plain, plainErr, "", "")
	}
	if plain == nil {
		if fp, err := keyed.with(factor(branches)).planAccess(req); err == nil {
			plain = fp
			if plain.shape.get {
				return plain, nil
			}
		}
	}

	plans, missing, branchErr := keyed.planBranches(branchRequest(req, r.from.table), branches)
	if plain != nil && (missing >= 0 || branchErr != nil || !allNarrower(plans, plain.shape)) {
		return plain, nil
	}
	// A branch that cannot be read by key: as written (a Scan when allowed),
	// else the error that says why.
	switch {
	case (missing >= 0 || branchErr != nil) && r.opts.AllowScan:
		return r.planAccess(req)
	case missing >= 0:
		why := fmt.Sprintf("the WHERE is an OR of %d branches and branch %d (%s) has no key condition of its own, but every branch needs one to be read by key",
			len(branches), missing+1, expr.And(branches[missing]))
		return r.fallback(req, nil, plainErr, why, "to that branch")
	case branchErr != nil:
		return nil, branchErr
	}
	if rp, ok, err := r.combineGets(req, plans); ok {
		return rp, err
	}
	return r.union(branches, plans), nil
}

// planBranches plans each branch by key alone. missing is the first branch
// without a key condition (-1: none); err is the first other failure.
func (r *reader) planBranches(req readRequest, branches []branch) (plans []*readPlan, missing int, err error) {
	plans = make([]*readPlan, len(branches))
	missing = -1
	for i, b := range branches {
		rp, berr := r.with(b).planAccess(req)
		switch {
		case berr == nil:
			plans[i] = rp
		case hasCode(berr, diag.CodeScanNotAllowed):
			if missing < 0 {
				missing = i
			}
		case err == nil:
			err = berr
		}
	}
	return plans, missing, err
}

// fallback is the plan of the conjuncts as written when the disjunction
// cannot be read by key: the keyed plan if there is one, else a Scan when
// allowed, else the Scan error, with why (when set) as its reason.
func (r *reader) fallback(req readRequest, plain *readPlan, plainErr error, why, where string) (*readPlan, error) {
	switch {
	case plain != nil:
		return plain, nil
	case r.opts.AllowScan:
		return r.planAccess(req)
	case why != "" && hasCode(plainErr, diag.CodeScanNotAllowed):
		return nil, scanErrorBecause(r.from.table, r.scanPath(), why, where)
	}
	return nil, plainErr
}

// branchRequest is what a union asks of each branch: the table's key
// attributes besides what the statement needs (the union deduplicates by
// them), no Select=COUNT (the union must see the items), no order (the
// union does not keep one) and, without ORDER BY, the rows LIMIT needs: if
// one branch has that many they are enough, otherwise every branch is read.
func branchRequest(req readRequest, t *TableDef) readRequest {
	b := readRequest{need: req.need.withKeys(t), limit: -1}
	if len(req.order) == 0 {
		b.limit = req.limit
	}
	return b
}

// withKeys adds the table's key attributes to what is read.
func (n needs) withKeys(t *TableDef) needs {
	if n.star {
		return n
	}
	out := needs{paths: append([]value.Path(nil), n.paths...)}
	out.paths = append(out.paths, keyPaths(t.KeyNames(), nil)...)
	out.paths = ddbexpr.ReducePaths(out.paths)
	return out
}

func allNarrower(plans []*readPlan, p readShape) bool {
	for _, rp := range plans {
		if rp == nil || !rp.shape.narrower(p) {
			return false
		}
	}
	return true
}

// combineGets reads branches that are all full primary keys of the base
// table, with the same other conditions, as one GetItem or BatchGetItem of
// their distinct keys, exactly as a WHERE listing those keys would. ok is
// false when the branches are not all of that kind.
func (r *reader) combineGets(req readRequest, plans []*readPlan) (rp *readPlan, ok bool, err error) {
	rest := newCBranch(plans[0].client)
	var keys []map[string]value.Value
	var cond expr.Expr
	for _, p := range plans {
		if c := newCBranch(p.client); !p.shape.get || len(c.keys) != len(rest.keys) || !rest.set.includes(c) {
			return nil, false, nil
		}
		for _, k := range p.shape.keys {
			if !containsKey(keys, k) {
				keys = append(keys, k)
			}
		}
		c := expr.And(p.shape.keyConds)
		if cond == nil {
			cond = c
		} else {
			cond = expr.Binary{Op: expr.OpOr, L: cond, R: c}
		}
	}
	rr := r.with(append([]expr.Expr{cond}, plans[0].client...))
	rp, err = rr.planGet(req, keys, []int{0})
	return rp, true, err
}

func containsKey(keys []map[string]value.Value, k map[string]value.Value) bool {
	for _, o := range keys {
		same := len(o) == len(k)
		for name, v := range k {
			same = same && value.Equal(o[name], v)
		}
		if same {
			return true
		}
	}
	return false
}

// union reads every branch with its own key condition, FilterExpression
// and client filter; the Union passes each item once.
func (r *reader) union(branches []branch, plans []*readPlan) *readPlan {
	t := r.from.table
	u := &Union{Table: t.Name, Source: r.src, KeyAttrs: t.KeyNames()}
	for i, rp := range plans {
		u.Branches = append(u.Branches, withFilter(rp.node, rp.client))
		u.Conditions = append(u.Conditions, expr.And(branches[i]))
	}
	return &readPlan{node: u}
}

// keyColumn reports whether c is a key attribute of this FROM item's table
// or of one of its indexes.
func (r *reader) keyColumn(c expr.Column) bool {
	if c.Source != r.src || len(c.Path) != 1 || c.Path[0].IsIndex {
		return false
	}
	_, ok := keyTypeOf(r.from.table, c.Path[0].Name)
	return ok
}

// with is the reader of other conjuncts of the same FROM item.
func (r *reader) with(conjuncts []expr.Expr) *reader {
	c := *r
	c.conjuncts = conjuncts
	return &c
}

// noScan is the reader that fails rather than scan.
func (r *reader) noScan() *reader {
	c := *r
	c.opts.AllowScan = false
	return &c
}

func hasCode(err error, code diag.Code) bool {
	var pe *diag.Error
	return asPlanError(err, &pe) && pe.Code == code
}
