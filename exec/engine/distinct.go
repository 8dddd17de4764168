package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/planner/value"
)

// distinctOp passes the first occurrence of each distinct row, in input order.
type distinctOp struct {
	env   *Env
	input Operator
	seen  map[string]struct{}
	row   batchRow
	buf   []byte
}

func (op *distinctOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if op.seen == nil {
		op.seen = map[string]struct{}{}
	}
	for {
		in, err := op.input.Next(ctx)
		if err != nil {
			return nil, err
		}
		n := int(in.NumRows())
		mask := array.NewBooleanBuilder(op.env.Mem)
		op.row.reset(in)
		kept := 0
		for i := 0; i < n; i++ {
			op.row.i = i
			op.buf = op.buf[:0]
			for _, col := range op.row.cols {
				op.buf = appendCellKey(op.buf, col, true, i)
			}
			_, dup := op.seen[string(op.buf)]
			if !dup {
				op.seen[string(op.buf)] = struct{}{}
				kept++
			}
			mask.Append(!dup)
		}
		out, err := keepRows(ctx, op.env, in, mask, kept, "distinct")
		mask.Release()
		if err != nil {
			return nil, err
		}
		if out == nil {
			continue // every row was a duplicate
		}
		return out, nil
	}
}

func (op *distinctOp) Close() error { return op.input.Close() }

// appendGroupKey encodes a value for grouping and DISTINCT: all NULLs (a
// missing attribute or DynamoDB NULL) form one group; equal numbers are
// equal because number text is canonical.
func appendGroupKey(dst []byte, v value.Value) []byte {
	if v.IsNull() {
		return value.AppendBinary(dst, value.MissingValue())
	}
	return value.AppendBinary(dst, v)
}
