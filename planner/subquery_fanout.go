package planner

import (
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// planSingle plans the read of a one-table SELECT. When the WHERE has no
// key condition of its own but a conjunct key IN (SELECT …) on the table's
// partition key (or a GSI's), or key = (SELECT …), the read is a keyed
// fan-out fed by the
// subquery's rows, the same reads as a literal IN list: BatchGetItem of
// full keys, or one Query per value, run concurrently. Otherwise the
// subquery is a client test over the usual read (the Subqueries node).
func (sp *selectPlanner) planSingle(req readRequest, conjuncts []expr.Expr) (*readPlan, error) {
	r := &reader{src: 0, from: sp.from, conjuncts: conjuncts, opts: sp.opts}
	i, target := sp.fanoutCandidate(conjuncts)
	if target == nil {
		return r.plan(req)
	}
	probe := *r
	probe.opts.AllowScan = true
	if rp, err := probe.plan(req); err == nil && !NeedsScan(&Plan{Root: rp.node}) {
		return r.plan(req) // the WHERE has key conditions of its own
	}
	rp, err := sp.fanout(req, conjuncts, i, target)
	if err != nil {
		var de *diag.Error
		if errors.As(err, &de) {
			return nil, err
		}
		return r.plan(req)
	}
	return rp, nil
}

// fanoutTarget is how a fan-out reads: by the table's partition key, or a
// GSI's.
type fanoutTarget struct {
	sub   expr.Subquery
	attr  string
	index *IndexDef
	// scalar: key = (SELECT …), whose subquery must return one row at most.
	scalar bool
}

// fanoutOperand finds key IN (SELECT …) or key = (SELECT …), both
// uncorrelated: the key column and the subquery.
func fanoutOperand(c expr.Expr) (expr.Expr, expr.Subquery, bool) {
	if sq, ok := c.(expr.Subquery); ok && sq.Kind == expr.SubqueryIn && !sq.Not && len(sq.Outer) == 0 {
		return sq.X, sq, true
	}
	b, ok := c.(expr.Binary)
	if !ok || b.Op != expr.OpEq {
		return nil, expr.Subquery{}, false
	}
	for _, side := range [][2]expr.Expr{{b.L, b.R}, {b.R, b.L}} {
		if sq, ok := side[1].(expr.Subquery); ok && sq.Kind == expr.SubqueryScalar && len(sq.Outer) == 0 {
			return side[0], sq, true
		}
	}
	return nil, expr.Subquery{}, false
}

// fanoutCandidate finds the first conjunct pk IN (SELECT …), uncorrelated,
// on a partition key of the table or of one of its GSIs.
func (sp *selectPlanner) fanoutCandidate(conjuncts []expr.Expr) (int, *fanoutTarget) {
	t := sp.from.table
	for i, c := range conjuncts {
		x, sq, ok := fanoutOperand(c)
		if !ok {
			continue
		}
		col, ok := x.(expr.Column)
		if !ok || len(col.Path) != 1 || col.Source != 0 {
			continue
		}
		a := col.Path[0].Name
		scalar := sq.Kind == expr.SubqueryScalar
		if a == t.PK.Name {
			return i, &fanoutTarget{sub: sq, attr: a, scalar: scalar}
		}
		if sp.opts.Consistent {
			continue // GSIs are read eventually consistent only
		}
		for j := range t.Indexes {
			if ix := &t.Indexes[j]; ix.Global && ix.PK.Name == a {
				return i, &fanoutTarget{sub: sq, attr: a, index: ix, scalar: scalar}
			}
		}
	}
	return -1, nil
}

// fanout plans the keyed reads of FROM item 0 fed by the subquery of
// conjuncts[i]; the other conjuncts run on the client above it.
func (sp *selectPlanner) fanout(req readRequest, conjuncts []expr.Expr, i int, ft *fanoutTarget) (*readPlan, error) {
	read := sp.b.subq.take(ft.sub.Number)
	if read == nil {
		return nil, errors.New("subquery already placed")
	}
	var client []expr.Expr
	for j, c := range conjuncts {
		if j != i {
			client = append(client, c)
		}
	}
	lj, err := sp.keyLookup(ft.attr, ft.index, req.need, client)
	if err != nil {
		return nil, err
	}
	lj.Conditions = []expr.Expr{conjuncts[i]}
	lj.Estimate.Note = "one lookup per distinct value the subquery returns"
	node := &KeyedFanout{Sub: read.Root, Lookup: lj, Number: read.Number, SQL: read.SQL, Scalar: ft.scalar}
	return &readPlan{node: node, client: client}, nil
}

// take removes subquery number from those read before the statement's
// rows: a keyed fan-out reads it itself.
func (s *subqueries) take(number int) *SubqueryRead {
	for i, r := range s.planned {
		if r.Number == number {
			s.planned = append(s.planned[:i:i], s.planned[i+1:]...)
			return r
		}
	}
	return nil
}

// keyLookup is the template of reads of FROM item 0 by one key attribute:
// the table's partition key (BatchGetItem without a sort key, else a Query
// per value) or a GSI's (a Query per value, with a fetch from the table
// when the index lacks attributes of need or of the client conjuncts).
func (sp *selectPlanner) keyLookup(attr string, index *IndexDef, need needs, client []expr.Expr) (*LookupJoin, error) {
	t := sp.from.table
	lj := &LookupJoin{Kind: JoinInner, Source: 0, Alias: sp.from.alias, Table: t.Name, Attr: attr, KeyAttrs: t.KeyNames(),
		Probe: expr.Ref{Index: 0, Name: "subquery value"}}
	p := path{pk: t.PK, sk: t.SK}
	lj.KeyType = t.PK.Type
	switch {
	case index != nil:
		p = path{index: index, pk: index.PK, sk: index.SK}
		lj.Op, lj.Index, lj.KeyType = OpQuery, index.Name, index.PK.Type
		lj.Via = "GSI " + index.Name + " partition key " + attr
	case t.SK == nil:
		lj.Op, lj.Via = OpBatchGetItem, "table key "+attr+" (BatchGetItem of full keys)"
	default:
		lj.Op, lj.Via = OpQuery, "table partition key "+attr
	}
	covers := p.covers(t, need.with(client, 0))
	spec := readSpec{table: t.Name, index: lj.Index, consistent: sp.opts.Consistent && !p.global()}
	if covers {
		spec.projection = need.projection(client, t, 0)
		if spec.projection != nil {
			spec.projection = ddbexpr.ReducePaths(append(spec.projection, keyPaths(t.KeyNames(), nil)...))
		}
	} else {
		spec.projection = keyPaths(t.KeyNames(), nil)
	}
	if lj.Op == OpBatchGetItem {
		proj, names, err := spec.projectionOnly()
		if err != nil {
			return nil, err
		}
		lj.Batch = &types.KeysAndAttributes{ProjectionExpression: proj, ExpressionAttributeNames: names}
		if spec.consistent {
			lj.Batch.ConsistentRead = aws.Bool(true)
		}
	} else {
		dummy := lookupSentinel(lj.KeyType)
		q, err := spec.query(p.pk, dummy, p.sk, nil)
		if err != nil {
			return nil, err
		}
		lj.Query = q
		for name, av := range q.ExpressionAttributeValues {
			if v, err := value.FromAttributeValue(av); err == nil && value.Equal(v, dummy) {
				lj.ValuePlaceholder = name
			}
		}
	}
	lj.Estimate = estimateLookup(lj, t)
	if !covers {
		r := &reader{src: 0, from: sp.from, conjuncts: sp.conjuncts, opts: sp.opts}
		lj.Fetch = r.fetchNode(nil, need, client).(*Fetch)
		lj.Fetch.Estimate = estimateFetch(lj.Fetch, t, lookupFound, false, "if a lookup finds an item: one key per item")
	}
	return lj, nil
}
