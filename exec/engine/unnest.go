package engine

import (
	"context"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// unnestOp is the lateral flatten of planner.Unnest: per input batch it
// works out which input row each output row repeats, takes the input
// columns by those indices (Arrow Take) and adds the element column (and
// the position column WITH ORDINALITY) as columns of the UNNEST's FROM item.
type unnestOp struct {
	env   *Env
	node  *planner.Unnest
	input Operator
	row   batchRow
	// inputFrom is the FROM item of the input's untagged columns (a single
	// table's batch), which the output tags, since it holds two items.
	inputFrom int
	// scratch, reused across batches.
	take  []int64
	elems []value.Value
	ords  []value.Value
}

func newUnnestOp(env *Env, n *planner.Unnest, input Operator) *unnestOp {
	op := &unnestOp{env: env, node: n, input: input, row: newBatchRow(n.X), inputFrom: -1}
	if from := planner.FromItems(n.Input); len(from) == 1 {
		op.inputFrom = from[0]
	}
	return op
}

func (op *unnestOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		in, err := op.input.Next(ctx)
		if err != nil {
			return nil, err
		}
		out, err := op.expand(ctx, in)
		if err != nil || out != nil {
			return out, err
		}
	}
}

func (op *unnestOp) Close() error { return op.input.Close() }

// elements are what UNNEST expands x into: a list's elements, a set's
// members; nothing for any other value.
func elements(x value.Value) []value.Value {
	switch x.Kind() {
	case value.List, value.StringSet, value.NumberSet, value.BinarySet:
		return x.Elems()
	}
	return nil
}

// expand flattens one batch (nil when no row comes out) and releases in.
func (op *unnestOp) expand(ctx context.Context, in arrow.RecordBatch) (arrow.RecordBatch, error) {
	defer in.Release()
	op.take, op.elems, op.ords = op.take[:0], op.elems[:0], op.ords[:0]
	op.row.reset(in)
	for i := 0; i < int(in.NumRows()); i++ {
		op.row.i = i
		x, err := eval.Eval(op.node.X, &op.row)
		if err != nil {
			return nil, evalError(err)
		}
		es := elements(x)
		if len(es) == 0 && op.node.Left {
			op.take = append(op.take, int64(i))
			op.elems = append(op.elems, value.MissingValue())
			op.ords = append(op.ords, value.MissingValue())
		}
		for k, e := range es {
			op.take = append(op.take, int64(i))
			op.elems = append(op.elems, e)
			op.ords = append(op.ords, value.NumTrusted(strconv.Itoa(k+1)))
		}
	}
	if len(op.take) == 0 {
		return nil, nil
	}
	repeated, err := op.repeat(ctx, in)
	if err != nil {
		return nil, err
	}
	defer repeated.Release()
	// The elements may be views of in's buffers: BuildColumn copies them
	// while in is still retained.
	fields := make([]arrow.Field, 0, repeated.NumCols()+2)
	cols := make([]arrow.Array, 0, repeated.NumCols()+2)
	for c, f := range repeated.Schema().Fields() {
		if fromItemOf(f) < 0 && op.inputFrom >= 0 {
			f = withFromItem(f, op.inputFrom)
		}
		fields, cols = append(fields, f), append(cols, repeated.Column(c))
	}
	var built []arrow.Array
	defer func() {
		for _, a := range built {
			a.Release()
		}
	}()
	add := func(name string, vals []value.Value) {
		f, a := columnar.BuildColumn(op.env.Mem, name, vals)
		built = append(built, a)
		fields, cols = append(fields, withFromItem(f, op.node.Source)), append(cols, a)
	}
	add(op.node.Value, op.elems)
	if op.node.Ordinality != "" {
		add(op.node.Ordinality, op.ords)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(len(op.take))), nil
}

// repeat is in's rows in the order of op.take (each as often as it
// appears there).
func (op *unnestOp) repeat(ctx context.Context, in arrow.RecordBatch) (arrow.RecordBatch, error) {
	b := array.NewInt64Builder(op.env.Mem)
	b.AppendValues(op.take, nil)
	idx := b.NewArray()
	b.Release()
	defer idx.Release()
	values, indices := compute.NewDatum(in), compute.NewDatum(idx) // each retains its argument
	defer values.Release()
	defer indices.Release()
	out, err := compute.Take(compute.WithAllocator(ctx, op.env.Mem), *compute.DefaultTakeOptions(), values, indices)
	if err != nil {
		return nil, execErrorf(diag.CodeInternal, "unnest: %v", err)
	}
	return out.(*compute.RecordDatum).Value, nil
}
