package planner

import (
	"errors"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// joinPlanner plans the reads and joins of a multi-table FROM.
type joinPlanner struct {
	sp        *selectPlanner
	perSource [][]expr.Expr // conditions on one FROM item only: pushed into its read
	need      []needs       // per FROM item
	hasLeft   bool
	// pool holds conditions over several items, consumed as join keys or
	// residual checks as soon as every item they mention is joined.
	pool []poolCond
}

// poolCond is a multi-item condition; step >= 0 ties an ON condition of a
// LEFT join to that join (it decides matches, it does not filter rows).
type poolCond struct {
	cond expr.Expr
	step int
	used bool
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

// joinStep is one join in execution order.
type plannedStep struct {
	item     int
	kind     JoinKind
	keys     []joinKey
	residual []expr.Expr
}

func (sp *selectPlanner) planJoin(req readRequest) (*readPlan, error) {
	jp := &joinPlanner{sp: sp, perSource: make([][]expr.Expr, len(sp.froms))}
	jp.classify()
	jp.need = make([]needs, len(sp.froms))
	for s := range sp.froms {
		jp.need[s] = jp.needsOf(s)
	}
	driving, err := jp.chooseDriving()
	if err != nil {
		return nil, err
	}
	var order []SortKey
	if req.order != nil && ordersOnly(req.order, driving) {
		order = req.order
	}
	rp, err := jp.reader(driving, jp.sp.opts).plan(readRequest{need: jp.need[driving], order: order, limit: -1})
	if err != nil {
		return nil, err
	}
	node := withFilter(rp.node, rp.client)
	joined := map[int]bool{driving: true}
	for len(joined) < len(sp.froms) {
		st, err := jp.next(joined)
		if err != nil {
			return nil, err
		}
		if node, err = jp.join(node, st, joined); err != nil {
			return nil, err
		}
		joined[st.item] = true
	}
	var post []expr.Expr
	for _, pc := range jp.pool {
		if !pc.used {
			post = append(post, pc.cond)
		}
	}
	return &readPlan{node: node, client: post, orderSatisfied: order != nil && rp.orderSatisfied}, nil
}

// classify sends single-item conditions to that item's read — except WHERE
// conditions on the optional side of a LEFT join, which must see its NULLs —
// and everything else to the pool.
func (jp *joinPlanner) classify() {
	sp := jp.sp
	optional := map[int]bool{}
	for _, st := range sp.steps {
		if st.kind == JoinLeft {
			optional[st.item] = true
			jp.hasLeft = true
		}
	}
	for _, c := range sp.conjuncts {
		srcs := sourcesOf(c)
		if len(srcs) == 1 && !optional[srcs[0]] {
			jp.perSource[srcs[0]] = append(jp.perSource[srcs[0]], c)
			continue
		}
		jp.pool = append(jp.pool, poolCond{cond: c, step: -1})
	}
	for i, st := range sp.steps {
		for _, c := range sp.ons[i] {
			srcs := sourcesOf(c)
			if len(srcs) == 1 && srcs[0] == st.item {
				jp.perSource[st.item] = append(jp.perSource[st.item], c)
				continue
			}
			step := -1
			if st.kind == JoinLeft {
				step = i
			}
			jp.pool = append(jp.pool, poolCond{cond: c, step: step})
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
	return needs{star: sp.star}.with(es, s)
}

// hasKeyAccess reports whether item s can be read without a Scan. An index
// hint that would change the result of its own read leaves s to be joined
// by key (lookups find every match whichever key they use).
func (jp *joinPlanner) hasKeyAccess(s int) (bool, error) {
	opts := jp.sp.opts
	opts.AllowScan = false
	_, err := jp.reader(s, opts).plan(readRequest{need: jp.need[s], limit: -1})
	if err == nil {
		return true, nil
	}
	var pe *Error
	if errors.As(err, &pe) && (pe.Code == CodeScanNotAllowed || pe.Code == CodeSparseIndexHint) {
		return false, nil
	}
	return false, err
}

func (jp *joinPlanner) reader(s int, opts Options) *reader {
	return &reader{src: s, from: jp.sp.froms[s], conjuncts: jp.perSource[s], opts: opts, qualify: true}
}

// chooseDriving picks the item whose read starts the join: the first item
// when a LEFT join must preserve it; otherwise the first item (in FROM
// order) with a key condition; with --allow-scan and none, the smallest.
func (jp *joinPlanner) chooseDriving() (int, error) {
	sp := jp.sp
	if jp.hasLeft {
		return 0, nil
	}
	for s := range sp.froms {
		ok, err := jp.hasKeyAccess(s)
		if err != nil {
			return 0, err
		}
		if ok {
			return s, nil
		}
	}
	if !sp.opts.AllowScan {
		t := sp.froms[0].table
		e := scanError(t, path{pk: t.PK, sk: t.SK})
		e.Msg = "no table in this join has a key condition (= or IN on a partition key) in WHERE, so the join would start with a Scan: " + e.Msg
		return 0, e
	}
	best := 0
	for s, f := range sp.froms {
		if f.table.ItemCount < sp.froms[best].table.ItemCount {
			best = s
		}
	}
	return best, nil
}

// next picks the next item to join. With LEFT joins the written order is
// kept; with only INNER joins, the first item (in FROM order) linked to the
// joined ones by an equality.
func (jp *joinPlanner) next(joined map[int]bool) (plannedStep, error) {
	sp := jp.sp
	if jp.hasLeft {
		for i, st := range sp.steps {
			if joined[st.item] {
				continue
			}
			// A LEFT join's ON conditions are tied to its step; an INNER
			// join's (and WHERE conditions) are in the shared pool (-1).
			step := -1
			if st.kind == JoinLeft {
				step = i
			}
			ps := jp.stepFor(st.item, st.kind, step, joined)
			if len(ps.keys) == 0 {
				return plannedStep{}, jp.notLinked(st.item)
			}
			return ps, nil
		}
	}
	for item := range sp.froms {
		if joined[item] {
			continue
		}
		st := jp.stepFor(item, JoinInner, -1, joined)
		if len(st.keys) > 0 {
			return st, nil
		}
	}
	for item := range sp.froms {
		if !joined[item] {
			return plannedStep{}, jp.notLinked(item)
		}
	}
	return plannedStep{}, errorf(CodeJoin, "internal: nothing left to join")
}

func (jp *joinPlanner) notLinked(item int) error {
	alias := jp.sp.froms[item].alias
	return errorf(CodeJoin, "%s is not linked to the other tables by an equality; ddbsql joins by key, so add ON %s.<key> = <other table>.<attribute>",
		alias, alias)
}

// stepFor gathers the keys and residual conditions for joining item next:
// pool conditions whose items are all joined once item is, taken from the
// given LEFT join step's ON (step >= 0) or from the shared pool.
func (jp *joinPlanner) stepFor(item int, kind JoinKind, step int, joined map[int]bool) plannedStep {
	st := plannedStep{item: item, kind: kind}
	after := map[int]bool{item: true}
	for s := range joined {
		after[s] = true
	}
	for i := range jp.pool {
		pc := &jp.pool[i]
		if pc.used || pc.step != step || !subset(sourcesOf(pc.cond), after) {
			continue
		}
		if k, ok := asJoinKey(pc.cond, item, joined); ok {
			st.keys = append(st.keys, k)
		} else {
			st.residual = append(st.residual, pc.cond)
		}
	}
	return st
}

// consume marks the conditions a planned step uses.
func (jp *joinPlanner) consume(st plannedStep) {
	for i := range jp.pool {
		pc := &jp.pool[i]
		for _, k := range st.keys {
			if pc.cond.String() == k.cond.String() {
				pc.used = true
			}
		}
		for _, r := range st.residual {
			if pc.cond.String() == r.String() {
				pc.used = true
			}
		}
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

func ordersOnly(order []SortKey, src int) bool {
	for _, k := range order {
		srcs := sourcesOf(k.Expr)
		if len(srcs) != 1 || srcs[0] != src {
			return false
		}
	}
	return true
}
