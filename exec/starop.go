package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// starOp passes items through as the rows of SELECT *. Joined rows have
// columns named by FROM item; they are renamed to the bare attribute names
// (the output formats de-duplicate names where they must).
type starOp struct {
	env   *Env
	input Operator
}

func (op *starOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	in, err := op.input.Next(ctx)
	if err != nil {
		return nil, err
	}
	fields := in.Schema().Fields()
	renamed := false
	for i, f := range fields {
		if _, attr, ok := SplitQualified(f.Name); ok {
			fields[i].Name = attr
			renamed = true
		}
	}
	if !renamed {
		return in, nil
	}
	cols := in.Columns()
	out := array.NewRecordBatch(arrowSchema(fields), cols, in.NumRows())
	in.Release()
	return out, nil
}

func (op *starOp) Close() error { return op.input.Close() }
