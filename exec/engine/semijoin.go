package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// keyedSemiJoinOp reads a correlated subquery's rows by key for the outer
// rows passing through: for each input batch it looks up the probe values
// not looked up before (in requests of up to 100 keys or --concurrency
// Queries, through exec/read), tests the subquery's WHERE on each item
// found, and adds the subquery's row (correlation values, then value) to
// the rows its expression reads. Only then is the batch passed on, so every
// row above finds the rows of its own values complete.
type keyedSemiJoinOp struct {
	mem   subqueryMemory
	env   *Env
	node  *planner.KeyedSemiJoin
	input Operator
	row   batchRow // an input batch, bound to the probe's columns
	rows  *eval.SubqueryRows
	seen  map[string]bool
	item  itemRow
	err   error // an evaluation failure of the subquery's WHERE
}

func newKeyedSemiJoinOp(env *Env, n *planner.KeyedSemiJoin, input Operator) *keyedSemiJoinOp {
	rows := eval.NewSubqueryRows(n.Sub.Keys, n.Sub.Empty)
	n.Sub.Result.Store(rows)
	exprs := append([]expr.Expr{n.Filter}, n.Items...)
	return &keyedSemiJoinOp{mem: subqueryMemory{env: env}, env: env, node: n, input: input, row: newBatchRow(n.Probe), rows: rows,
		seen: map[string]bool{}, item: itemRow{uses: usesOf(exprs...)}}
}

func (op *keyedSemiJoinOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	rec, err := op.input.Next(ctx)
	if err != nil {
		return nil, err
	}
	if err := op.lookUp(ctx, rec); err != nil {
		rec.Release()
		return nil, err
	}
	return rec, nil
}

// lookUp reads the subquery's rows for the batch's fresh probe values.
func (op *keyedSemiJoinOp) lookUp(ctx context.Context, rec arrow.RecordBatch) error {
	row := &op.row
	row.reset(rec)
	var fresh []value.Value
	for i := 0; i < int(rec.NumRows()); i++ {
		row.i = i
		v, err := eval.Eval(op.node.Probe, row)
		if err != nil {
			return evalError(err)
		}
		if v.Kind() != op.node.Lookup.KeyType || ((v.Kind() == value.String || v.Kind() == value.Binary) && v.Text() == "") {
			continue
		}
		k := valueKey(v)
		if op.seen[k] {
			continue
		}
		op.seen[k] = true
		fresh = append(fresh, v.Clone())
	}
	round := op.env.concurrency()
	if op.node.Lookup.Op == planner.OpBatchGetItem {
		round = ddblimits.BatchGetKeys
	}
	for start := 0; start < len(fresh); start += round {
		items, err := read.Lookup(ctx, op.reader(), op.node.Lookup, fresh[start:min(start+round, len(fresh))])
		if err != nil {
			return err
		}
		if err := op.add(items); err != nil {
			return err
		}
		if op.err != nil {
			return op.err
		}
		if err := op.mem.grow(op.rows, op.node.Sub.Number); err != nil {
			return err
		}
	}
	return nil
}

// add tests the subquery's WHERE on each item and keeps its row; an
// aggregate value is folded per correlation key over the items of one
// lookup round, which holds every item of the values it looked up.
func (op *keyedSemiJoinOp) add(items []value.Value) error {
	items = op.passing(items)
	n := len(op.node.Items)
	agg, aggregated := op.node.Items[n-1].(expr.Aggregate)
	vals := make([]value.Value, n)
	type group struct {
		keys []value.Value
		acc  accumulator
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, it := range items {
		op.item.item = it
		for i, e := range op.node.Items {
			if aggregated && i == n-1 {
				continue
			}
			v, err := eval.Eval(e, &op.item)
			if err != nil {
				return evalError(err)
			}
			vals[i] = v
		}
		if !aggregated {
			op.rows.Add(vals) // Add copies what it keeps
			continue
		}
		var k []byte
		for _, v := range vals[:n-1] {
			k = value.AppendBinary(k, v)
		}
		g := byKey[string(k)]
		if g == nil {
			g = &group{keys: append([]value.Value(nil), vals[:n-1]...), acc: newAccumulator(agg, agg.String(), &lentValues{})}
			byKey[string(k)] = g
			groups = append(groups, g)
		}
		arg := value.MissingValue()
		if agg.Arg != nil {
			v, err := eval.Eval(agg.Arg, &op.item)
			if err != nil {
				return evalError(err)
			}
			arg = v
		}
		if err := g.acc.add(arg); err != nil {
			return evalError(err)
		}
	}
	for _, g := range groups {
		v, err := g.acc.result()
		if err != nil {
			return evalError(err)
		}
		op.rows.Add(append(g.keys, v))
	}
	return nil
}

// passing keeps the items on which the subquery's WHERE is true.
func (op *keyedSemiJoinOp) passing(items []value.Value) []value.Value {
	if op.node.Filter == nil {
		return items
	}
	kept := items[:0:0]
	for _, it := range items {
		op.item.item = it
		if t, err := eval.Test(op.node.Filter, &op.item); err == nil && t == eval.True {
			kept = append(kept, it)
		} else if err != nil {
			op.err = evalError(err)
			return nil
		}
	}
	return kept
}

// reader counts the lookups' requests as the node's own (see keyedFanoutOp).
func (op *keyedSemiJoinOp) reader() *read.Env {
	r := op.env.reader()
	if nodeStats := r.NodeStats; nodeStats != nil {
		r.NodeStats = func(n planner.Node) *read.Stats {
			if n == op.node.Lookup {
				return nodeStats(op.node)
			}
			return nodeStats(n)
		}
	}
	return r
}

func (op *keyedSemiJoinOp) Close() error {
	op.mem.release()
	return op.input.Close()
}

// itemRow lets the evaluator read an item decoded from a response (an M)
// by the subquery's column IDs.
type itemRow struct {
	uses columnUses
	item value.Value
}

func (r *itemRow) Attr(id expr.ColumnID) value.Value {
	if int(id) < len(r.uses) && r.uses[id].used {
		return r.item.Attr(r.uses[id].attr)
	}
	return value.MissingValue()
}

func (r *itemRow) Item(int) (value.Value, bool) { return r.item, true }

func (r *itemRow) Ref(int) value.Value { return value.MissingValue() }
