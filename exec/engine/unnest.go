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

// unnestOp is the lateral flatten of planner.Unnest: it works out which
// input row each output row repeats, takes the input columns by those
// indices (Arrow Take) and adds the element column (and the position
// column WITH ORDINALITY) as columns of the UNNEST's FROM item. Output
// batches hold at most Env.BatchRows rows, so a long list is spread over
// several; the input batch is kept until its last row is expanded.
type unnestOp struct {
	env   *Env
	node  *planner.Unnest
	input Operator
	row   batchRow
	// inputFrom is the FROM item of the input's untagged columns (a single
	// table's batch), which the output tags, since it holds two items.
	inputFrom int
	// cur is the input batch being expanded; at its row being expanded,
	// whose elements are es (nil until evaluated), from element k on.
	cur       arrow.RecordBatch
	at, k     int
	es        []value.Value
	evaluated bool
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
		if op.cur == nil || op.at >= int(op.cur.NumRows()) {
			op.release()
			in, err := op.input.Next(ctx)
			if err != nil {
				return nil, err
			}
			op.cur, op.at, op.evaluated = in, 0, false
			op.row.reset(in)
		}
		out, err := op.expand(ctx)
		if err != nil || out != nil {
			return out, err
		}
	}
}

func (op *unnestOp) release() {
	if op.cur != nil {
		op.cur.Release()
		op.cur = nil
	}
}

func (op *unnestOp) Close() error {
	op.release()
	return op.input.Close()
}

// elements are what UNNEST expands x into: a list's elements, a set's
// members; nothing for any other value.
func elements(x value.Value) []value.Value {
	switch x.Kind() {
	case value.List, value.StringSet, value.NumberSet, value.BinarySet:
		return x.Elems()
	}
	return nil
}

// expand flattens the current batch from where it stopped into at most
// batchRows rows (nil when none came out of the rest of the batch).
func (op *unnestOp) expand(ctx context.Context) (arrow.RecordBatch, error) {
	op.take, op.elems, op.ords = op.take[:0], op.elems[:0], op.ords[:0]
	limit := op.env.batchRows()
	for n := int(op.cur.NumRows()); op.at < n && len(op.take) < limit; {
		if !op.evaluated {
			op.row.i = op.at
			x, err := eval.Eval(op.node.X, &op.row)
			if err != nil {
				return nil, evalError(err)
			}
			op.es, op.k, op.evaluated = elements(x), 0, true
			if len(op.es) == 0 && op.node.Left {
				op.take = append(op.take, int64(op.at))
				op.elems = append(op.elems, value.MissingValue())
				op.ords = append(op.ords, value.MissingValue())
			}
		}
		for ; op.k < len(op.es) && len(op.take) < limit; op.k++ {
			op.take = append(op.take, int64(op.at))
			op.elems = append(op.elems, op.es[op.k])
			if op.node.Ordinality != "" {
				op.ords = append(op.ords, value.NumTrusted(strconv.Itoa(op.k+1)))
			}
		}
		if op.k >= len(op.es) {
			op.at, op.evaluated = op.at+1, false
		}
	}
	if len(op.take) == 0 {
		return nil, nil
	}
	repeated, err := op.repeat(ctx, op.cur)
	if err != nil {
		return nil, err
	}
	defer repeated.Release()
	// The elements may be views of the input's buffers: BuildColumn copies
	// them while it is still retained.
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
