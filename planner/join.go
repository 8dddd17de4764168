package planner

import (
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// joinPlanner plans the reads and joins of a multi-table FROM. The rules
// that decide which orders keep SQL's meaning are in joinorder.go; the
// outer-join simplification in joinouter.go; how one table is joined in
// joinstrategy.go.
type joinPlanner struct {
	sp *selectPlanner
	// kinds is per FROM item: JoinLeft for the optional side of a LEFT join
	// (after simplification), JoinInner otherwise (item 0 included).
	kinds []JoinKind
	// onStep is per FROM item: the index of the join step that adds it in
	// the written FROM (its ON group), -1 for item 0.
	onStep []int
	// asInner is per FROM item: the condition that turned its LEFT join
	// into an inner join, for EXPLAIN (nil when it was not a LEFT join or
	// still is one).
	asInner   []expr.Expr
	perSource [][]expr.Expr // conditions on one FROM item only: pushed into its read
	need      []needs       // per FROM item
	// pool holds conditions over several items (and WHERE conditions on
	// an optional side), consumed as join keys, residual checks or filters
	// as soon as every item they mention is joined.
	pool []poolCond
	// keyed is per FROM item: whether its own conditions give a read
	// without a Scan. scanErr caches, per item, why it cannot be read with
	// a Scan either (nil: it can).
	keyed   []bool
	scanErr map[int]error
	// scanDriven: the driving table is read with a Scan (--allow-scan).
	scanDriven bool
	// sparse is per item: why its index hint keeps it from being read on
	// its own (nil: it does not).
	sparse []error
	// late are conditions that test a subquery read by a keyed semi-join,
	// which sits above the join: they filter the joined rows at the end.
	late []expr.Expr
}

// poolCond is a multi-item condition; step >= 0 ties an ON condition of a
// LEFT join to that join (it decides matches, it does not filter rows).
type poolCond struct {
	cond expr.Expr
	step int
}

// joinKey is an equality between an expression over joined items (probe)
// and an expression over the item being joined (build). When build is a
// plain column (plain), col is that column: only then can DynamoDB look
// the item up by key; otherwise only a hash join (--allow-scan) can match.
type joinKey struct {
	probe expr.Expr
	build expr.Expr
	col   expr.Column
	plain bool
	cond  expr.Expr
}

// plannedStep is one join in execution order; conds are the pool entries
// it consumes (its keys and residual checks).
type plannedStep struct {
	item     int
	kind     JoinKind
	keys     []joinKey
	residual []expr.Expr
	conds    []int
}

func (sp *selectPlanner) planJoin(req readRequest) (*readPlan, error) {
	jp := &joinPlanner{sp: sp, perSource: make([][]expr.Expr, len(sp.froms)), scanErr: map[int]error{}}
	jp.simplifyOuter()
	jp.classify()
	jp.need = make([]needs, len(sp.froms))
	for s := range sp.froms {
		jp.need[s] = jp.needsOf(s)
	}
	if err := jp.findKeyed(); err != nil {
		return nil, err
	}
	order, err := jp.chooseOrder()
	if err != nil {
		return nil, err
	}
	driving := order[0]
	jp.scanDriven = !jp.keyed[driving]
	var sortedBy []SortKey
	if req.order != nil && ordersOnly(req.order, driving) {
		sortedBy = req.order
	}
	rp, err := jp.reader(driving, jp.sp.opts).plan(readRequest{need: jp.need[driving], order: sortedBy, limit: -1})
	if err != nil {
		return nil, err
	}
	switch d := firstRead(rp.node).(type) {
	case *Derived:
		d.Drives = jp.drivesNote(driving, "its rows are computed by its own query")
	case *CTEScan:
		d.Drives = jp.drivesNote(driving, "its rows are computed by its own query")
	case *Access:
		d.Drives = jp.drivesNote(driving, "key condition "+sqlList(d.KeyConditions))
	case *Union:
		d.Drives = jp.drivesNote(driving, "a key condition in every branch of its OR")
	}
	node := withFilter(rp.node, rp.client)
	joined := map[int]bool{driving: true}
	used := make([]bool, len(jp.pool))
	for _, item := range order[1:] {
		st := jp.stepFor(item, joined, used)
		if node, err = jp.join(node, st); err != nil {
			return nil, err
		}
		markUsed(used, st.conds)
		joined[item] = true
		if st.kind == JoinLeft {
			// WHERE conditions on the optional side see its NULLs: they
			// filter the joined rows, above the join.
			above := jp.available(joined, used)
			node = withFilter(node, jp.conds(above))
			markUsed(used, above)
		}
	}
	post := append([]expr.Expr(nil), jp.late...)
	for i, pc := range jp.pool {
		if !used[i] {
			post = append(post, pc.cond)
		}
	}
	return &readPlan{node: node, client: post, orderSatisfied: sortedBy != nil && rp.orderSatisfied}, nil
}

// classify sends single-item conditions to that item's read — except
// filters on the optional side of a LEFT join, which must see its NULLs —
// and everything else to the pool. WHERE conditions and an INNER join's ON
// conditions are filters alike; a LEFT join's ON conditions belong to it.
func (jp *joinPlanner) classify() {
	sp := jp.sp
	filter := func(c expr.Expr) {
		if sp.b.subq.testsKeyedSemiJoin(c) {
			jp.late = append(jp.late, c)
			return
		}
		if srcs := sourcesOf(c); len(srcs) == 1 && jp.kinds[srcs[0]] != JoinLeft {
			jp.perSource[srcs[0]] = append(jp.perSource[srcs[0]], c)
			return
		}
		jp.pool = append(jp.pool, poolCond{cond: c, step: -1})
	}
	for _, c := range sp.conjuncts {
		filter(c)
	}
	for i, st := range sp.steps {
		for _, c := range sp.ons[i] {
			if jp.kinds[st.item] != JoinLeft {
				filter(c)
				continue
			}
			if srcs := sourcesOf(c); len(srcs) == 1 && srcs[0] == st.item {
				// Narrows the optional side's candidates: the same as
				// deciding them at the join.
				jp.perSource[st.item] = append(jp.perSource[st.item], c)
				continue
			}
			jp.pool = append(jp.pool, poolCond{cond: c, step: i})
		}
	}
}

// needsOf collects the attributes of item s the statement uses anywhere.
func (jp *joinPlanner) needsOf(s int) needs {
	sp := jp.sp
	es := sp.aboveWhere()
	for _, pc := range jp.pool {
		es = append(es, pc.cond)
	}
	es = append(es, jp.late...)
	es = append(es, sp.unnestNeeds...)
	return needs{star: sp.star}.with(es, s)
}

// findKeyed records which items can be read by their own key conditions.
// An index hint that would change the result of an item's own read leaves
// it to be joined by key (lookups find every match whichever key they use);
// the hint's error is kept for when no order works without that read.
func (jp *joinPlanner) findKeyed() error {
	jp.keyed = make([]bool, len(jp.sp.froms))
	jp.sparse = make([]error, len(jp.sp.froms))
	for s := range jp.sp.froms {
		opts := jp.sp.opts
		opts.AllowScan = false
		_, err := jp.reader(s, opts).plan(readRequest{need: jp.need[s], limit: -1})
		var pe *diag.Error
		switch {
		case err == nil:
			jp.keyed[s] = true
		case !asPlanError(err, &pe):
			return err
		case pe.Code == diag.CodeSparseIndexHint:
			// Kept only when the hint is what stands in the way: without
			// it, the item's key conditions would give a read.
			r := jp.reader(s, opts)
			r.from.hint = indexHint{}
			if _, err := r.plan(readRequest{need: jp.need[s], limit: -1}); err == nil {
				jp.sparse[s] = pe
			}
		case pe.Code != diag.CodeScanNotAllowed:
			return err
		}
	}
	return nil
}

// sparseHint is the first item's index-hint error, which explains a
// failed search better than any other: without the hint, that item could
// drive.
func (jp *joinPlanner) sparseHint() error {
	for _, err := range jp.sparse {
		if err != nil {
			return err
		}
	}
	return nil
}

// scanReadError says why item s cannot be read on its own with --allow-scan
// (nil when it can), computed once per item.
func (jp *joinPlanner) scanReadError(s int) error {
	if err, ok := jp.scanErr[s]; ok {
		return err
	}
	_, err := jp.reader(s, jp.sp.opts).plan(readRequest{need: jp.need[s], limit: -1})
	jp.scanErr[s] = err
	return err
}

func (jp *joinPlanner) reader(s int, opts Options) *reader {
	return &reader{src: s, from: jp.sp.froms[s], conjuncts: jp.perSource[s], opts: opts}
}

// stepFor gathers the keys and residual conditions for joining item next:
// unused pool conditions whose items are all joined once item is, taken
// from its own ON when it is the optional side of a LEFT join, else from
// the shared filters.
func (jp *joinPlanner) stepFor(item int, joined map[int]bool, used []bool) plannedStep {
	st := plannedStep{item: item, kind: jp.kinds[item]}
	step := -1
	if st.kind == JoinLeft {
		step = jp.onStep[item]
	}
	after := map[int]bool{item: true}
	for s := range joined {
		after[s] = true
	}
	for i, pc := range jp.pool {
		if used[i] || pc.step != step || !subset(sourcesOf(pc.cond), after) {
			continue
		}
		st.conds = append(st.conds, i)
		if k, ok := asJoinKey(pc.cond, item, joined); ok {
			st.keys = append(st.keys, k)
		} else {
			st.residual = append(st.residual, pc.cond)
		}
	}
	return st
}

// available lists the unused shared filters over joined items only.
func (jp *joinPlanner) available(joined map[int]bool, used []bool) []int {
	var out []int
	for i, pc := range jp.pool {
		if !used[i] && pc.step < 0 && subset(sourcesOf(pc.cond), joined) {
			out = append(out, i)
		}
	}
	return out
}

func (jp *joinPlanner) conds(idx []int) []expr.Expr {
	out := make([]expr.Expr, len(idx))
	for i, n := range idx {
		out[i] = jp.pool[n].cond
	}
	return out
}

func markUsed(used []bool, idx []int) {
	for _, i := range idx {
		used[i] = true
	}
}

// asJoinKey recognises probe = build (either way round), where the probe
// reads only joined items and build only the item being joined (usually
// one of its attributes).
func asJoinKey(c expr.Expr, item int, joined map[int]bool) (joinKey, bool) {
	b, ok := c.(expr.Binary)
	if !ok || b.Op != expr.OpEq {
		return joinKey{}, false
	}
	for _, pair := range [][2]expr.Expr{{b.L, b.R}, {b.R, b.L}} {
		if bs := sourcesOf(pair[1]); len(bs) != 1 || bs[0] != item {
			continue
		}
		srcs := sourcesOf(pair[0])
		if len(srcs) > 0 && subset(srcs, joined) {
			k := joinKey{probe: pair[0], build: pair[1], cond: c}
			k.col, k.plain = pair[1].(expr.Column)
			return k, true
		}
	}
	return joinKey{}, false
}

func withFilter(n Node, preds []expr.Expr) Node {
	if len(preds) == 0 {
		return n
	}
	return &Filter{Input: n, Pred: expr.And(preds)}
}

// firstRead is the read a plan starts from: its first Access, or the Union
// of keyed reads that stands for one.
func firstRead(n Node) Node {
	return Find(n, func(m Node) bool {
		switch m.(type) {
		case *Access, *Union, *Derived, *CTEScan:
			return true
		}
		return false
	})
}

func ordersOnly(order []SortKey, src int) bool {
	for _, k := range order {
		srcs := sourcesOf(k.Expr)
		if len(srcs) != 1 || srcs[0] != src {
			return false
		}
	}
	return true
}
