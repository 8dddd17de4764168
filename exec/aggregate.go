package exec

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner"
)

// group is one GROUP BY bucket.
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
	groups map[string]*group
	order  []*group
	done   bool
	pos    int
	row    batchRow
	buf    []byte
}

func (op *aggregateOp) newGroup(keys []value.Value) *group {
	g := &group{keys: keys, accs: make([]accumulator, len(op.node.Aggs))}
	for i, a := range op.node.Aggs {
		g.accs[i] = newAccumulator(a)
	}
	return g
}

func (op *aggregateOp) consume(ctx context.Context) error {
	op.groups = map[string]*group{}
	for {
		in, err := op.input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		err = op.fold(in)
		in.Release()
		if err != nil {
			return err
		}
	}
	// Aggregates without GROUP BY yield one row even over no input.
	if len(op.node.Groups) == 0 && len(op.order) == 0 {
		op.order = append(op.order, op.newGroup(nil))
	}
	op.done = true
	return nil
}

func (op *aggregateOp) fold(in arrow.RecordBatch) error {
	op.row.reset(in)
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
		grp, ok := op.groups[string(op.buf)]
		if !ok {
			grp = op.newGroup(append([]value.Value(nil), keys...))
			op.groups[string(op.buf)] = grp
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
	return nil
}

func (op *aggregateOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !op.done {
		if err := op.consume(ctx); err != nil {
			return nil, err
		}
	}
	if op.pos >= len(op.order) {
		return nil, io.EOF
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

func (op *aggregateOp) Close() error { return op.input.Close() }
