package planner

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// join adds one item to the joined rows: a hash join when the item has key
// conditions of its own (both sides are read by key), a lookup by key when
// the join attribute is its partition key or a GSI partition key, and with
// --allow-scan a Scan and hash join; otherwise it fails before any request.
func (jp *joinPlanner) join(probe Node, st plannedStep) (Node, error) {
	n, err := jp.joinBy(probe, st)
	if err != nil {
		return nil, err
	}
	switch t := n.(type) {
	case *LookupJoin:
		t.AsInner = jp.asInner[st.item]
	case *HashJoin:
		t.AsInner = jp.asInner[st.item]
	}
	return n, nil
}

func (jp *joinPlanner) joinBy(probe Node, st plannedStep) (Node, error) {
	if err := jp.checkKeyTypes(st); err != nil {
		return nil, err
	}
	if jp.keyed[st.item] {
		reason := "both sides are read by key"
		switch {
		case jp.sp.froms[st.item].derived != nil:
			reason = jp.sp.froms[st.item].alias + " is a query whose rows are computed, so it cannot be looked up by key"
		case jp.scanDriven:
			reason = jp.sp.froms[st.item].alias + " is read by its own key condition; the driving table is scanned (--allow-scan)"
		}
		return jp.hashJoin(probe, st, reason)
	}
	if n, ok, err := jp.lookup(probe, st); ok || err != nil {
		return n, err
	}
	if jp.sp.opts.AllowScan {
		return jp.hashJoin(probe, st, "no key path: --allow-scan reads "+jp.sp.froms[st.item].alias+" with a Scan")
	}
	return nil, jp.noKeyPath(st)
}

func (jp *joinPlanner) hashJoin(probe Node, st plannedStep, reason string) (Node, error) {
	rp, err := jp.reader(st.item, jp.sp.opts).plan(readRequest{need: jp.need[st.item], limit: -1})
	if err != nil {
		return nil, err
	}
	hj := &HashJoin{Probe: probe, Build: withFilter(rp.node, rp.client), Kind: st.kind, Reason: reason}
	for _, k := range st.keys {
		hj.ProbeKeys = append(hj.ProbeKeys, k.probe)
		hj.BuildKeys = append(hj.BuildKeys, k.build)
	}
	hj.Residual = expr.And(st.residual)
	return hj, nil
}

// lookupTarget is how the joined item can be reached from a probe value.
type lookupTarget struct {
	key      joinKey
	index    *IndexDef // nil: the table
	op       Op
	lookupPK KeyAttr // the key attribute the value fills, or the fixed partition key
	lookupSK *KeyAttr
	fixed    *keyCond // partition key fixed by the WHERE (lookup by sort key)
	attrType value.Kind
}

// target finds the best way to reach the item by one of the step's keys:
// its table partition key, a GSI partition key, or — with the partition key
// fixed by the WHERE — the table sort key or an LSI sort key.
func (jp *joinPlanner) target(st plannedStep) (*lookupTarget, bool) {
	t := jp.sp.froms[st.item].table
	var conds []keyCond
	for i, c := range jp.perSource[st.item] {
		if kc, ok := asKeyCond(c, st.item); ok {
			kc.conjunct = i
			conds = append(conds, kc)
		}
	}
	pkFixed := firstKeyCond(conds, t.PK.Name)
	if pkFixed != nil && !(pkFixed.op == keyEq || len(distinct(pkFixed.values)) == 1) {
		pkFixed = nil
	}
	var best *lookupTarget
	rank := 99
	consider := func(r int, lt *lookupTarget) {
		if r < rank {
			best, rank = lt, r
		}
	}
	for _, k := range st.keys {
		if _, ok := k.probe.(expr.Column); !ok || !k.plain || len(k.col.Path) != 1 {
			continue // DynamoDB can only look up a key equal to a plain attribute value
		}
		a := k.col.Path[0].Name
		if a == t.PK.Name {
			op := OpQuery
			if t.SK == nil {
				op = OpBatchGetItem
			}
			consider(0, &lookupTarget{key: k, op: op, lookupPK: t.PK, lookupSK: t.SK, attrType: t.PK.Type})
		}
		for i := range t.Indexes {
			ix := &t.Indexes[i]
			if ix.Global && ix.PK.Name == a && !jp.sp.opts.Consistent {
				consider(1, &lookupTarget{key: k, index: ix, op: OpQuery, lookupPK: ix.PK, lookupSK: ix.SK, attrType: ix.PK.Type})
			}
			if !ix.Global && ix.SK != nil && ix.SK.Name == a && pkFixed != nil {
				consider(3, &lookupTarget{key: k, index: ix, op: OpQuery, lookupPK: t.PK, lookupSK: ix.SK, fixed: pkFixed, attrType: ix.SK.Type})
			}
		}
		if t.SK != nil && a == t.SK.Name && pkFixed != nil {
			consider(2, &lookupTarget{key: k, op: OpBatchGetItem, lookupPK: t.PK, lookupSK: t.SK, fixed: pkFixed, attrType: t.SK.Type})
		}
	}
	return best, best != nil
}

func (jp *joinPlanner) lookup(probe Node, st plannedStep) (Node, bool, error) {
	lt, ok := jp.target(st)
	if !ok {
		return nil, false, nil
	}
	sp := jp.sp
	from := sp.froms[st.item]
	t := from.table
	lj := &LookupJoin{Input: probe, Kind: st.kind, Source: st.item, Alias: from.alias, Table: t.Name, Op: lt.op,
		Probe: lt.key.probe, Attr: lt.key.col.Path[0].Name, KeyType: lt.attrType, KeyAttrs: t.KeyNames()}
	switch {
	case lt.index != nil && lt.index.Global:
		lj.Index, lj.Via = lt.index.Name, "GSI "+lt.index.Name+" partition key "+lj.Attr
	case lt.index != nil:
		lj.Index, lj.Via = lt.index.Name, "LSI "+lt.index.Name+" sort key "+lj.Attr+" (partition key fixed by WHERE)"
	case lt.fixed != nil:
		lj.Via = "table sort key " + lj.Attr + " (partition key fixed by WHERE)"
	default:
		lj.Via = "table partition key " + lj.Attr
	}
	var residual []expr.Expr
	for _, k := range st.keys {
		if k.cond.String() != lt.key.cond.String() {
			residual = append(residual, k.cond)
		}
	}
	residual = append(residual, st.residual...)
	lj.Conditions = []expr.Expr{lt.key.cond}

	p := path{index: lt.index, pk: t.PK, sk: t.SK}
	if lt.index != nil {
		p = path{index: lt.index, pk: lt.index.PK, sk: lt.index.SK}
	}
	covers := p.covers(t, jp.need[st.item].with(jp.perSource[st.item], st.item))
	used := map[int]bool{}
	if lt.fixed != nil {
		used[lt.fixed.conjunct] = true
		lj.Conditions = append(lj.Conditions, jp.perSource[st.item][lt.fixed.conjunct])
	}
	var skCond *keyCond
	if lt.op == OpQuery && lt.fixed == nil {
		var conds []keyCond
		for i, c := range jp.perSource[st.item] {
			if kc, ok := asKeyCond(c, st.item); ok {
				kc.conjunct = i
				conds = append(conds, kc)
			}
		}
		if skCond = bestSortCond(p, conds); skCond != nil {
			used[skCond.conjunct] = true
			lj.Conditions = append(lj.Conditions, jp.perSource[st.item][skCond.conjunct])
		}
	}
	r := jp.reader(st.item, sp.opts)
	var filters, client []expr.Expr
	var cond *expression.ConditionBuilder
	if lt.op == OpQuery {
		filters, client, cond = r.split(used, p.keyAttrs(), !covers, p)
	} else {
		client = r.unused(used) // key lookups take no FilterExpression
	}
	lj.Filters = filters
	residual = append(residual, client...)
	lj.Residual = expr.And(residual)

	need := jp.need[st.item]
	spec := readSpec{table: t.Name, index: lj.Index, filter: cond, consistent: sp.opts.Consistent && !p.global()}
	switch {
	case !covers:
		spec.projection = keyPaths(t.KeyNames(), nil)
	default:
		spec.projection = need.projection(client, t, st.item)
		if spec.projection != nil {
			spec.projection = ddbexpr.ReducePaths(append(spec.projection, keyPaths(t.KeyNames(), nil)...))
		}
	}
	if lt.op == OpBatchGetItem {
		proj, names, err := spec.projectionOnly()
		if err != nil {
			return nil, true, err
		}
		lj.Batch = &types.KeysAndAttributes{ProjectionExpression: proj, ExpressionAttributeNames: names}
		if spec.consistent {
			lj.Batch.ConsistentRead = aws.Bool(true)
		}
		if lt.fixed != nil {
			lj.FixedKey = map[string]value.Value{t.PK.Name: lt.fixed.values[0]}
		}
		lj.Estimate = estimateLookup(lj, t)
		return lj, true, nil
	}
	dummy := lookupSentinel(lt.attrType)
	var err error
	if lt.fixed != nil {
		lj.Query, err = spec.query(lt.lookupPK, lt.fixed.values[0], lt.lookupSK, &keyCond{op: keyEq, values: []value.Value{dummy}})
	} else {
		lj.Query, err = spec.query(lt.lookupPK, dummy, lt.lookupSK, skCond)
	}
	if err != nil {
		return nil, true, err
	}
	for name, av := range lj.Query.ExpressionAttributeValues {
		if v, err := value.FromAttributeValue(av); err == nil && value.Equal(v, dummy) {
			lj.ValuePlaceholder = name
		}
	}
	lj.Estimate = estimateLookup(lj, t)
	if !covers {
		f := jp.reader(st.item, sp.opts).fetchNode(nil, need, client)
		lj.Fetch = f.(*Fetch)
		lj.Fetch.Estimate = estimateFetch(lj.Fetch, t, lookupFound, len(lj.Filters) > 0, "if a lookup finds an item: one key per item")
	}
	return lj, true, nil
}

// lookupSentinel is a value no user data contains, put in the Query
// template where each lookup value goes.
func lookupSentinel(k value.Kind) value.Value {
	switch k {
	case value.Number:
		return value.NumTrusted("-9.8765432109876543210987654321098765E+125")
	case value.Binary:
		return value.Bin([]byte("\x00ddbsql-lookup-value\x00"))
	}
	return value.Str("\x00ddbsql-lookup-value\x00")
}

// checkKeyTypes rejects join keys whose declared key types differ: such
// values can never be equal, so the join is certainly a mistake.
func (jp *joinPlanner) checkKeyTypes(st plannedStep) error {
	for _, k := range st.keys {
		pc, ok := k.probe.(expr.Column)
		if !ok || !k.plain || len(pc.Path) != 1 || len(k.col.Path) != 1 {
			continue
		}
		pt, pok := keyTypeOf(jp.sp.froms[pc.Source].table, pc.Path[0].Name)
		ct, cok := keyTypeOf(jp.sp.froms[k.col.Source].table, k.col.Path[0].Name)
		if pok && cok && pt != ct {
			pa, ca := jp.sp.froms[pc.Source].alias, jp.sp.froms[k.col.Source].alias
			return errorf(diag.CodeJoin, "join keys have different types: %s.%s is a %s (%s) key and %s.%s a %s (%s) key, so no values can ever match",
				pa, pc.Path[0].Name, typeWord(pt), pt, ca, k.col.Path[0].Name, typeWord(ct), ct).
				Hintf("DynamoDB compares keys by type; join attributes that hold the same type")
		}
	}
	return nil
}

func keyTypeOf(t *TableDef, attr string) (value.Kind, bool) {
	if attr == t.PK.Name {
		return t.PK.Type, true
	}
	if t.SK != nil && attr == t.SK.Name {
		return t.SK.Type, true
	}
	for _, ix := range t.Indexes {
		if attr == ix.PK.Name {
			return ix.PK.Type, true
		}
		if ix.SK != nil && attr == ix.SK.Name {
			return ix.SK.Type, true
		}
	}
	return 0, false
}

// noKeyPath explains why the item cannot be joined by key.
func (jp *joinPlanner) noKeyPath(st plannedStep) error {
	from := jp.sp.froms[st.item]
	t := from.table
	var conds []string
	for _, k := range st.keys {
		conds = append(conds, k.cond.String())
	}
	on := strings.Join(conds, " AND ")
	// An attribute DynamoDB could look the item up by, equal to something
	// that is not a plain attribute, or behind a GSI --consistent rules out.
	for _, k := range st.keys {
		if !k.plain || len(k.col.Path) != 1 {
			continue
		}
		a := k.col.Path[0].Name
		if _, ok := k.probe.(expr.Column); !ok && jp.keyPathAttr(t, a) != "" {
			return errorf(diag.CodeJoin, "cannot join %s (table %s) on %s: %s is the %s of %s, but DynamoDB keys can only match a plain attribute value, not %s, so ddbsql could only find matches by scanning %s",
				from.alias, t.Name, on, a, jp.keyPathAttr(t, a), t.Name, k.probe, t.Name).
				Hintf("join %s.%s to a plain attribute of the other table, or rerun with --allow-scan to scan %s and join on the client", from.alias, a, t.Name)
		}
		if ix := gsiByPK(t, a); ix != "" && jp.sp.opts.Consistent {
			return errorf(diag.CodeJoin, "cannot join %s (table %s) on %s: %s is the partition key of the global secondary index %s, which is eventually consistent only, so it cannot be read with --consistent",
				from.alias, t.Name, on, a, ix).
				Hintf("drop --consistent to look %s up through %s, or rerun with --allow-scan to scan %s and join on the client", from.alias, ix, t.Name)
		}
	}
	var attrs, exprs []string
	for _, k := range st.keys {
		if k.plain {
			attrs = append(attrs, k.col.Path.String())
		} else {
			exprs = append(exprs, k.build.String())
		}
	}
	var why []string
	if len(attrs) > 0 {
		why = append(why, fmt.Sprintf("%s is not the partition key of %s nor of any of its GSIs", strings.Join(attrs, ", "), t.Name))
	}
	if len(exprs) > 0 {
		why = append(why, "DynamoDB keys can only match a plain attribute value, not "+strings.Join(exprs, ", "))
	}
	e := errorf(diag.CodeJoin, "cannot join %s (table %s) on %s: %s, so ddbsql could only find matches by scanning %s (%s)",
		from.alias, t.Name, on, strings.Join(why, "; "), t.Name, t.KeySummary())
	if len(attrs) == 0 {
		return e.Hintf("rerun with --allow-scan to scan %s and join on the client", t.Name)
	}
	return e.Hintf("add a GSI to %s with partition key %s, or rerun with --allow-scan to scan %s and join on the client", t.Name, attrs[0], t.Name)
}

// keyPathAttr says which key of t attribute a is that a lookup could use
// ("" when none): the table partition key or a usable GSI partition key.
func (jp *joinPlanner) keyPathAttr(t *TableDef, a string) string {
	if a == t.PK.Name {
		return "partition key"
	}
	if ix := gsiByPK(t, a); ix != "" && !jp.sp.opts.Consistent {
		return "partition key of GSI " + ix
	}
	return ""
}

func gsiByPK(t *TableDef, a string) string {
	for _, ix := range t.Indexes {
		if ix.Global && ix.PK.Name == a {
			return ix.Name
		}
	}
	return ""
}
