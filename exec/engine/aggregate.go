package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// group is one GROUP BY bucket. It outlives the batches its rows came
// from, so its keys are owned copies, and so is what an accumulator keeps
// of a value once the batch it came from is folded (MIN/MAX).
type group struct {
	keys []value.Value
	accs []accumulator
}

// aggregateOp hashes rows into groups and folds the aggregates. Its output
// columns are the group values, then the aggregate results. Groups come out
// in order of first appearance.
type aggregateOp struct {
	env    *Env
	node   *planner.Aggregate
	input  Operator
	groups groupTable
	order  []*group
	done   bool
	pos    int
	row    batchRow
	buf    []byte
	lent   lentValues // MIN/MAX values read in place from the batch being folded
	// fast is the column-wise plan, computed on the first batch.
	fast      *fastPlan
	rowGroups []*group
	groupSlab []group
	accSlab   []accumulator
	aggNames  []string
	spillState
}

func newAggregateOp(env *Env, n *planner.Aggregate, input Operator) *aggregateOp {
	op := &aggregateOp{env: env, node: n, input: input, row: newBatchRow(aggregateExprs(n)...)}
	op.dspill.env = env
	op.lent.mem = env.Memory
	return op
}

// aggregateExprs are the expressions an aggregation evaluates per row.
func aggregateExprs(n *planner.Aggregate) []expr.Expr {
	exprs := append([]expr.Expr(nil), n.Groups...)
	for _, a := range n.Aggs {
		if a.Arg != nil {
			exprs = append(exprs, a.Arg)
		}
	}
	return exprs
}

// newGroup makes a group, carving groups and their accumulator lists out of
// larger blocks: with many groups, fewer and adjacent allocations keep the
// hot data of a group together in cache.
func (op *aggregateOp) newGroup(keys []value.Value) *group {
	const block = 256
	if len(op.groupSlab) == 0 {
		op.groupSlab = make([]group, block)
	}
	g := &op.groupSlab[0]
	op.groupSlab = op.groupSlab[1:]
	n := len(op.node.Aggs)
	if len(op.accSlab) < n {
		op.accSlab = make([]accumulator, block*max(n, 1))
	}
	g.keys, g.accs, op.accSlab = keys, op.accSlab[:n:n], op.accSlab[n:]
	if op.aggNames == nil {
		for _, a := range op.node.Aggs {
			op.aggNames = append(op.aggNames, a.String())
		}
	}
	for i, a := range op.node.Aggs {
		g.accs[i] = newAccumulator(a, op.aggNames[i], &op.lent)
		if d, ok := g.accs[i].(*distinctAcc); ok {
			op.dspill.track(d, len(op.order), i, op.aggNames[i])
		}
	}
	return g
}

func (op *aggregateOp) consume(ctx context.Context) error {
	op.groups = newGroupTable()
	for {
		in, err := op.input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		err = op.fold(ctx, in)
		op.lent.own() // before the values' batch goes
		in.Release()
		if err != nil {
			return err
		}
	}
	if err := op.dspill.resolve(ctx, op.order, &op.lent); err != nil {
		return err
	}
	// Aggregates without GROUP BY yield one row even over no input.
	if len(op.node.Groups) == 0 && len(op.order) == 0 {
		op.order = append(op.order, op.newGroup(nil))
	}
	op.done = true
	return nil
}

func (op *aggregateOp) fold(ctx context.Context, in arrow.RecordBatch) error {
	if op.fast == nil {
		fp := planFast(op.node.Groups, op.node.Aggs)
		op.fast = &fp
	}
	if op.fast.ok {
		return op.foldFast(ctx, in)
	}
	op.row.reset(in)
	op.spilled = 0
	keys := make([]value.Value, len(op.node.Groups))
	for i := 0; i < int(in.NumRows()); i++ {
		op.row.i = i
		op.buf = op.buf[:0]
		for k, g := range op.node.Groups {
			v, err := eval.Eval(g, &op.row)
			if err != nil {
				return evalError(err)
			}
			keys[k] = v
			op.buf = appendGroupKey(op.buf, v)
		}
		grp := op.groups.find(op.buf)
		if grp == nil {
			ok, err := op.admit(len(op.buf))
			if err != nil {
				return err
			}
			if !ok {
				op.markSpilled(i, int(in.NumRows()))
				continue
			}
			// The keys were read in place; the group outlives the batch.
			grp = op.newGroup(cloneValues(keys))
			op.groups.insert(op.buf, grp)
			op.order = append(op.order, grp)
		}
		for a, agg := range op.node.Aggs {
			v := value.BoolOf(true) // COUNT(*) counts rows
			if agg.Arg != nil {
				var err error
				if v, err = eval.Eval(agg.Arg, &op.row); err != nil {
					return evalError(err)
				}
			}
			if err := grp.accs[a].add(v); err != nil {
				return err
			}
		}
	}
	return op.writeSpilled(ctx, in)
}

func (op *aggregateOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !op.done {
		if err := op.consume(ctx); err != nil {
			return nil, err
		}
	}
	if op.pos >= len(op.order) {
		return op.nextSpilled(ctx)
	}
	names := make([]string, 0, len(op.node.Groups)+len(op.node.Aggs))
	for _, g := range op.node.Groups {
		names = append(names, g.String())
	}
	for _, a := range op.node.Aggs {
		names = append(names, a.String())
	}
	b := columnar.NewRowBuilder(op.env.Mem, names)
	row := make([]value.Value, len(names))
	for op.pos < len(op.order) && b.Len() < op.env.batchRows() {
		g := op.order[op.pos]
		op.order[op.pos] = nil
		op.pos++
		copy(row, g.keys)
		for a, acc := range g.accs {
			v, err := acc.result()
			if err != nil {
				return nil, err
			}
			row[len(g.keys)+a] = v
		}
		b.Append(row)
	}
	return b.Build(), nil
}

func (op *aggregateOp) Close() error {
	op.closeSpill()
	return op.input.Close()
}
