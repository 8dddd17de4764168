package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// starOp passes items through as the rows of SELECT *. Joined rows have
// columns named by FROM item; they are renamed to the bare attribute names
// (the output formats de-duplicate names where they must). With sources
// (a join's SELECT alias.*), only those FROM items' columns are kept.
type starOp struct {
	env     *Env
	input   Operator
	sources []int
}

func (op *starOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	in, err := op.input.Next(ctx)
	if err != nil {
		return nil, err
	}
	fields := in.Schema().Fields()
	cols := in.Columns()
	changed := false
	var keptFields []arrow.Field
	var keptCols []arrow.Array
	for i, f := range fields {
		if src, attr, ok := SplitQualified(f.Name); ok {
			if op.sources != nil && !slices.Contains(op.sources, src) {
				changed = true
				continue
			}
			f.Name = attr
			changed = true
		}
		keptFields, keptCols = append(keptFields, f), append(keptCols, cols[i])
	}
	if !changed {
		return in, nil
	}
	out := array.NewRecordBatch(arrowSchema(keptFields), keptCols, in.NumRows())
	in.Release()
	return out, nil
}

func (op *starOp) Close() error { return op.input.Close() }
