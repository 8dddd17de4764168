package planner

import (
	"math"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// reader plans the DynamoDB reads of one FROM item: the conjuncts are the
// WHERE (and, in joins, ON) conditions that mention only this item.
type reader struct {
	src       int
	from      fromItem
	conjuncts []expr.Expr
	opts      Options
}

// readPlan is the DynamoDB side of a SELECT on one table.
type readPlan struct {
	node           Node // the Access, or a Fetch above it
	client         []expr.Expr
	orderSatisfied bool
	counted        bool // Access yields one row holding COUNT(*)
	// shape summarises a keyed read (GetItem, BatchGetItem, Query), so a
	// disjunction's branches can be compared with it.
	shape readShape
}

// readRequest is what the rest of the statement asks of the read.
type readRequest struct {
	need      needs     // attributes used above the read (select, group, order…)
	order     []SortKey // ORDER BY the read may satisfy (nil when aggregated)
	limit     int64     // rows needed after OFFSET+LIMIT, or -1
	countOnly bool      // SELECT COUNT(*) and nothing else
}

func (r *reader) plan(req readRequest) (*readPlan, error) {
	if r.from.derived != nil {
		return r.planDerived(), nil
	}
	var rp *readPlan
	var err error
	if hasOr(r.conjuncts) {
		rp, err = r.planDisjunction(req)
	} else {
		rp, err = r.planAccess(req)
	}
	if err != nil {
		return nil, err
	}
	// Reads first: a Fetch's estimate follows from the read below it.
	Walk(rp.node, func(n Node, _ int) bool {
		if a, ok := n.(*Access); ok {
			a.Estimate = estimateAccess(a, r.from.table, r.opts.Consistent && !r.global(a))
		}
		return true
	})
	Walk(rp.node, func(n Node, _ int) bool {
		if f, ok := n.(*Fetch); ok {
			if a, ok := f.Input.(*Access); ok {
				f.Estimate = estimateFetch(f, r.from.table, a.Estimate, len(a.Filters) > 0, "if the read below returns a row: one key per row")
			}
		}
		return true
	})
	return rp, nil
}

func (r *reader) global(a *Access) bool {
	ix := r.from.table.Index(a.Index)
	return ix != nil && ix.Global
}

func (r *reader) planAccess(req readRequest) (*readPlan, error) {
	t, src := r.from.table, r.src
	var conds []keyCond
	for i, c := range r.conjuncts {
		if kc, ok := asKeyCond(c, src); ok {
			kc.conjunct = i
			conds = append(conds, kc)
		}
	}
	if err := checkKeyTypes(t, conds); err != nil {
		return nil, err
	}
	paths := t.paths(r.from.hint)
	coverNeed := req.need.with(r.conjuncts, src)

	if len(paths) > 0 && paths[0].index == nil {
		if keys, used, ok := getKeys(t, conds); ok {
			return r.planGet(req, keys, used)
		}
	}
	choices := chooseQuery(t, paths, conds, coverNeed)
	if r.from.hint.bindsResult() {
		var err error
		if choices, err = r.wholeChoices(choices); err != nil {
			return nil, err
		}
	}
	if r.opts.Consistent {
		var strong []queryChoice
		for _, c := range choices {
			if !c.path.global() {
				strong = append(strong, c)
			}
		}
		if len(strong) == 0 && len(choices) > 0 {
			return nil, consistentError(t, choices[0].path.index)
		}
		choices = strong
	}
	if len(choices) > 0 {
		return r.planQuery(req, choices[0])
	}
	p := r.scanPath()
	if r.from.hint.bindsResult() {
		// Before the Scan check: allowing the Scan would not help.
		if missing := r.scanMisses(p); len(missing) > 0 {
			return nil, r.sparseHintError(p, missing)
		}
	}
	if !r.opts.AllowScan {
		return nil, scanError(t, p)
	}
	if r.opts.Consistent && p.global() {
		return nil, consistentError(t, p.index)
	}
	return r.planScan(req, p, coverNeed)
}

// wholeChoices keeps the Query choices that read every matching item
// (sparsehint.go); when a hint leaves only ones that could miss items, the
// statement fails.
func (r *reader) wholeChoices(choices []queryChoice) ([]queryChoice, error) {
	var whole []queryChoice
	var sparse *diag.Error
	for _, c := range choices {
		if missing := r.queryMisses(c.path); len(missing) > 0 {
			if sparse == nil {
				sparse = r.sparseHintError(c.path, missing)
			}
			continue
		}
		whole = append(whole, c)
	}
	if len(whole) == 0 && sparse != nil {
		return nil, sparse
	}
	return whole, nil
}

// scanPath is what a Scan reads: the base table unless the statement named
// one index.
func (r *reader) scanPath() path {
	t := r.from.table
	if paths := t.paths(r.from.hint); r.from.hint.kind == hintUse && len(paths) == 1 {
		return paths[0]
	}
	return path{pk: t.PK, sk: t.SK}
}

func consistentError(t *TableDef, ix *IndexDef) *diag.Error {
	return errorf(diag.CodeConsistentIndex, "--consistent asks for a strongly consistent read, but this statement reads global secondary index %s of %s, and GSIs are only eventually consistent (DynamoDB copies writes to them asynchronously)", ix.Name, t.Name).
		Hintf("drop --consistent for this statement, or query the base table or a local secondary index")
}

// unused lists the WHERE conjuncts the key does not use, in order: with no
// FilterExpression (GetItem, BatchGetItem) they all run on the client.
func (r *reader) unused(used map[int]bool) []expr.Expr {
	var client []expr.Expr
	for i, c := range r.conjuncts {
		if !used[i] {
			client = append(client, c)
		}
	}
	return client
}

// split assigns each remaining WHERE conjunct to the FilterExpression or the
// client. keyAttrs are attributes a Query's FilterExpression may not use;
// when fetch is set, conjuncts over attributes the index does not project
// must wait for the fetched items.
func (r *reader) split(used map[int]bool, keyAttrs []string, fetch bool, p path) (filters, client []expr.Expr, cond *expression.ConditionBuilder) {
	t, src := r.from.table, r.src
	var budget filterBudget
	for i, c := range r.conjuncts {
		if used[i] {
			continue
		}
		if conjunctUsesAny(c, src, keyAttrs) || (fetch && !conjunctProjected(c, src, t, p)) {
			client = append(client, c)
			continue
		}
		if dc, ok := ddbexpr.Condition(c, src); ok && budget.admit(c, dc) {
			filters = append(filters, c)
			continue
		}
		client = append(client, c)
	}
	return filters, client, budget.condition()
}

func (r *reader) planGet(req readRequest, keys []map[string]value.Value, usedIdx []int) (*readPlan, error) {
	t := r.from.table
	used := map[int]bool{}
	for _, i := range usedIdx {
		used[i] = true
	}
	client := r.unused(used)
	spec := readSpec{table: t.Name, consistent: r.opts.Consistent, projection: req.need.projection(client, t, r.src)}
	if len(keys) > 1 && spec.projection != nil {
		// BatchGetItem answers in any order; exec matches items to the
		// requested keys (to keep the IN-list order), so it needs them.
		spec.projection = ddbexpr.ReducePaths(append(spec.projection, keyPaths(t.KeyNames(), nil)...))
	}
	a := &Access{Table: t.Name, Source: r.src, KeyAttrs: t.KeyNames(), KeyConditions: r.pick(usedIdx)}
	var err error
	if len(keys) == 1 {
		a.Op = OpGetItem
		var g *dynamodb.GetItemInput
		g, err = spec.getItem(keys[0])
		a.Gets = []*dynamodb.GetItemInput{g}
	} else {
		a.Op = OpBatchGetItem
		a.Batches, err = spec.batchGets(keys)
	}
	if err != nil {
		return nil, err
	}
	satisfied := len(keys) == 1 || len(stripFixed(req.order, fixedAttrs(t.PK.Name, t.SK, keys), r.src)) == 0
	return &readPlan{node: a, client: client, orderSatisfied: satisfied,
		shape: readShape{get: true, keys: keys, keyConds: a.KeyConditions}}, nil
}

// fixedAttrs lists key attributes that have one value across all keys.
func fixedAttrs(pk string, sk *KeyAttr, keys []map[string]value.Value) []string {
	names := []string{pk}
	if sk != nil {
		names = append(names, sk.Name)
	}
	var out []string
	for _, n := range names {
		same := true
		for _, k := range keys[1:] {
			if !value.Equal(k[n], keys[0][n]) {
				same = false
			}
		}
		if same {
			out = append(out, n)
		}
	}
	return out
}

func (r *reader) pick(idx []int) []expr.Expr {
	out := make([]expr.Expr, len(idx))
	for i, n := range idx {
		out[i] = r.conjuncts[n]
	}
	return out
}

func (r *reader) planQuery(req readRequest, qc queryChoice) (*readPlan, error) {
	t := r.from.table
	used := map[int]bool{qc.pkCond.conjunct: true}
	usedIdx := []int{qc.pkCond.conjunct}
	if qc.skCond != nil {
		used[qc.skCond.conjunct] = true
		usedIdx = append(usedIdx, qc.skCond.conjunct)
	}
	fetch := !qc.covers
	filters, client, cond := r.split(used, qc.path.keyAttrs(), fetch, qc.path)
	pkValues := distinct(qc.pkCond.values)

	fixed := []string{qc.path.pk.Name}
	if len(pkValues) > 1 {
		fixed = nil
	}
	if qc.skCond != nil && qc.skCond.op == keyEq {
		fixed = append(fixed, qc.path.sk.Name)
	}
	rest := stripFixed(req.order, fixed, r.src)
	rp := &readPlan{client: client,
		shape: readShape{pkAttr: qc.path.pk.Name, pkValues: pkValues, sortCond: qc.skCond != nil}}
	var forward *bool
	var merge *MergeOrder
	switch {
	case len(rest) == 0:
		rp.orderSatisfied = true
	case len(rest) == 1 && qc.path.sk != nil && topAttr(rest[0].Expr, r.src) == qc.path.sk.Name:
		rp.orderSatisfied = true
		fwd := !rest[0].Desc
		forward = &fwd
		if len(pkValues) > 1 {
			merge = &MergeOrder{Attr: qc.path.sk.Name, Desc: rest[0].Desc}
		}
	}
	rp.counted = req.countOnly && len(client) == 0
	spec := readSpec{table: t.Name, index: qc.path.name(), filter: cond, forward: forward,
		consistent: r.opts.Consistent && !qc.path.global(), count: rp.counted}
	if req.limit > 0 && rp.orderSatisfied && len(filters) == 0 && len(client) == 0 && !rp.counted {
		spec.limit = int32(min(req.limit, math.MaxInt32))
	}
	switch {
	case rp.counted:
	case fetch:
		spec.projection = keyPaths(t.KeyNames(), merge)
	default:
		spec.projection = req.need.projection(client, t, r.src)
		if spec.projection != nil && merge != nil {
			spec.projection = ddbexpr.ReducePaths(append(spec.projection, value.Path{{Name: merge.Attr}}))
		}
	}
	a := &Access{Op: OpQuery, Table: t.Name, Source: r.src, Index: qc.path.name(), KeyAttrs: t.KeyNames(),
		Merge: merge, Count: rp.counted, KeyConditions: r.pick(usedIdx), Filters: filters,
		singleItem: qc.skCond != nil && qc.skCond.op == keyEq}
	for _, pv := range pkValues {
		q, err := spec.query(qc.path.pk, pv, qc.path.sk, qc.skCond)
		if err != nil {
			return nil, err
		}
		a.Queries = append(a.Queries, q)
	}
	rp.node = a
	if fetch && !rp.counted {
		rp.node = r.fetchNode(a, req.need, client)
	}
	return rp, nil
}

func (r *reader) planScan(req readRequest, p path, coverNeed needs) (*readPlan, error) {
	t := r.from.table
	fetch := !p.covers(t, coverNeed)
	filters, client, cond := r.split(nil, nil, fetch, p)
	rp := &readPlan{client: client, orderSatisfied: len(req.order) == 0}
	rp.counted = req.countOnly && len(client) == 0
	spec := readSpec{table: t.Name, index: p.name(), filter: cond,
		consistent: r.opts.Consistent && !p.global(), count: rp.counted}
	if req.limit > 0 && rp.orderSatisfied && len(filters) == 0 && len(client) == 0 && !rp.counted {
		spec.limit = int32(min(req.limit, math.MaxInt32))
	}
	switch {
	case rp.counted:
	case fetch:
		spec.projection = keyPaths(t.KeyNames(), nil)
	default:
		spec.projection = req.need.projection(client, t, r.src)
	}
	segments := r.segments(p)
	a := &Access{Op: OpScan, Table: t.Name, Source: r.src, Index: p.name(), KeyAttrs: t.KeyNames(),
		Count: rp.counted, Filters: filters}
	for seg := 0; seg < segments; seg++ {
		in, err := spec.scan(int32(seg), int32(segments))
		if err != nil {
			return nil, err
		}
		a.Scans = append(a.Scans, in)
	}
	rp.node = a
	if fetch && !rp.counted {
		rp.node = r.fetchNode(a, req.need, client)
	}
	return rp, nil
}

func (r *reader) fetchNode(a *Access, need needs, client []expr.Expr) Node {
	t := r.from.table
	spec := readSpec{table: t.Name, consistent: r.opts.Consistent, projection: need.projection(client, t, r.src)}
	if spec.projection != nil {
		spec.projection = ddbexpr.ReducePaths(append(spec.projection, keyPaths(t.KeyNames(), nil)...))
	}
	proj, names, _ := spec.projectionOnly()
	return &Fetch{Input: a, Source: r.src, Table: t.Name, KeyAttrs: t.KeyNames(), Projection: proj, Names: names, Consistent: r.opts.Consistent}
}

func keyPaths(keys []string, merge *MergeOrder) []value.Path {
	var out []value.Path
	for _, k := range keys {
		out = append(out, value.Path{{Name: k}})
	}
	if merge != nil && !contains(keys, merge.Attr) {
		out = append(out, value.Path{{Name: merge.Attr}})
	}
	return out
}

// stripFixed drops ORDER BY keys on attributes that have one value in every
// row read: ordering by a constant changes nothing.
func stripFixed(order []SortKey, fixed []string, src int) []SortKey {
	var out []SortKey
	for _, k := range order {
		if a := topAttr(k.Expr, src); a != "" && contains(fixed, a) {
			continue
		}
		out = append(out, k)
	}
	return out
}

// segments is the parallel Scan segment count: as asked, or about one per
// GiB of data, between 1 and 8 per unit of Options.Parallelism (DynamoDB
// allows up to 1,000,000).
func (r *reader) segments(p path) int {
	maxSegments := 8 * max(1, r.opts.Parallelism)
	if n := r.opts.Segments; n > 0 {
		return min(n, ddblimits.ScanSegments)
	}
	bytes := r.from.table.SizeBytes
	if p.index != nil {
		bytes = p.index.SizeBytes
	}
	n := int((bytes + (1<<30 - 1)) >> 30)
	return max(1, min(n, maxSegments))
}
