package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// starOp passes items through as the rows of SELECT *: columns are named
// by their attributes already, also in joined rows (the output formats
// de-duplicate names where they must); joined rows lose the FROM item
// marks of their fields. With sources (a join's SELECT alias.*), only the
// columns of those FROM items are kept, as those marks say.
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
		src := fromItemOf(f)
		if src >= 0 {
			if op.sources != nil && !slices.Contains(op.sources, src) {
				changed = true
				continue
			}
			// The FROM item is the engine's; rows leave with the names and
			// encodings alone, as a single table's do.
			f = withFromItem(f, -1)
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
