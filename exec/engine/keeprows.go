package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// keepRows returns the rows of in that mask marks, kept of them in all:
// in itself when every row stays, nil when none does, else a filtered
// copy. Except when it returns in, it releases in; what names the operator
// in an internal error. The caller still owns (and releases) the builder.
func keepRows(ctx context.Context, env *Env, in arrow.RecordBatch, mask *array.BooleanBuilder, kept int, what string) (arrow.RecordBatch, error) {
	switch kept {
	case int(in.NumRows()):
		return in, nil
	case 0:
		in.Release()
		return nil, nil
	}
	m := mask.NewArray()
	defer m.Release()
	out, err := compute.FilterRecordBatch(compute.WithAllocator(ctx, env.Mem), in, m, compute.DefaultFilterOptions())
	in.Release()
	if err != nil {
		return nil, execErrorf(diag.CodeInternal, "%s: %v", what, err)
	}
	return out, nil
}
