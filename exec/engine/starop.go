package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// starOp passes items through as the rows of SELECT *: columns are named
// by their attributes already, also in joined rows (the output formats
// de-duplicate names where they must). With sources (a join's SELECT
// alias.*), only the columns of those FROM items are kept, as the FROM
// item each joined column carries says.
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
	if op.sources == nil {
		return in, nil
	}
	fields := in.Schema().Fields()
	cols := in.Columns()
	changed := false
	var keptFields []arrow.Field
	var keptCols []arrow.Array
	for i, f := range fields {
		if src := fromItemOf(f); src >= 0 && !slices.Contains(op.sources, src) {
			changed = true
			continue
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
