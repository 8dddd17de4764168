package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// limitOp skips offset rows, then passes count rows (count < 0: all) and
// stops pulling its input as soon as it has them: no further pages are read.
type limitOp struct {
	input  Operator
	skip   int64
	remain int64
	done   bool
}

func newLimitOp(input Operator, offset, count int64) *limitOp {
	return &limitOp{input: input, skip: offset, remain: count}
}

func (op *limitOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if op.done || op.remain == 0 {
			op.finish()
			return nil, io.EOF
		}
		in, err := op.input.Next(ctx)
		if err != nil {
			return nil, err
		}
		n := in.NumRows()
		if op.skip >= n {
			op.skip -= n
			in.Release()
			continue
		}
		start, end := op.skip, n
		op.skip = 0
		if op.remain >= 0 && end-start > op.remain {
			end = start + op.remain
		}
		if op.remain >= 0 {
			op.remain -= end - start
		}
		if start == 0 && end == n {
			return in, nil
		}
		out := in.NewSlice(start, end)
		in.Release()
		return out, nil
	}
}

// finish closes the input early so readers stop.
func (op *limitOp) finish() {
	if !op.done {
		op.done = true
		_ = op.input.Close()
	}
}

func (op *limitOp) Close() error {
	if op.done {
		return nil
	}
	op.done = true
	return op.input.Close()
}
