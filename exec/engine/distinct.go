package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/planner/value"
)

// distinctOp passes the first occurrence of each distinct row, in input
// order while its set of rows seen fits in the memory budget. Once the
// budget refuses, the set stops growing: a row already in it is still a
// duplicate, and any other row goes to a partition run by a hash of its
// key (every occurrence of a key to the same run). When the input ends the
// set is dropped and each run is passed through a fresh distinctOp, one
// level deeper: a row is in exactly one of the set and the runs, so each
// distinct row comes out once, the spilled ones after the others.
type distinctOp struct {
	env   *Env
	input Operator
	seen  map[string]struct{}
	row   batchRow
	buf   []byte
	// Within --memory-limit:
	level     int
	reserved  int64 // what seen holds
	parts     *partitions
	part      []int8
	inputDone bool
	runs      runQueue
}

func (op *distinctOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if op.seen == nil && !op.inputDone {
		op.seen = map[string]struct{}{}
	}
	for !op.inputDone {
		in, err := op.input.Next(ctx)
		if err == io.EOF {
			op.inputDone = true
			break
		}
		if err != nil {
			return nil, err
		}
		out, err := op.filter(ctx, in)
		if err != nil {
			return nil, err
		}
		if out != nil {
			return out, nil
		}
	}
	return op.nextSpilled(ctx)
}

// filter keeps the batch's rows not seen before (releasing in), or
// returns nil when there are none.
func (op *distinctOp) filter(ctx context.Context, in arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(in.NumRows())
	mask := array.NewBooleanBuilder(op.env.Mem)
	defer mask.Release()
	op.row.reset(in)
	kept, spilled := 0, 0
	for i := 0; i < n; i++ {
		op.row.i = i
		op.buf = op.buf[:0]
		for _, col := range op.row.cols {
			op.buf = appendCellKey(op.buf, col, true, i)
		}
		_, dup := op.seen[string(op.buf)]
		keep := false
		if !dup {
			var err error
			if keep, err = op.admit(); err != nil {
				in.Release()
				return nil, err
			}
			if keep {
				op.seen[string(op.buf)] = struct{}{}
				kept++
			} else {
				op.markSpilled(i, n, spilled)
				spilled++
			}
		}
		mask.Append(keep)
	}
	if spilled > 0 {
		if err := op.parts.write(ctx, in, op.part[:n]); err != nil {
			in.Release()
			return nil, err
		}
	}
	return keepRows(ctx, op.env, in, mask, kept, "distinct")
}

// distinctRowCost estimates what one key in the set retains.
func distinctRowCost(keyLen int) int64 { return roundUp8(keyLen + 64) }

// admit reserves a new key op.buf; false means its rows go to a run.
func (op *distinctOp) admit() (bool, error) {
	if op.parts != nil {
		return false, nil
	}
	cost := distinctRowCost(len(op.buf))
	switch {
	case op.env.Memory.TryReserve(cost):
	case len(op.seen) == 0:
		op.env.Memory.Reserve(cost) // one key per level: progress
	default:
		if err := spillRefused(op.env, "DISTINCT", op.level, cost); err != nil {
			return false, err
		}
		op.parts = newPartitions(op.env, "distinct")
		return false, nil
	}
	op.reserved += cost
	return true, nil
}

func (op *distinctOp) markSpilled(i, n, before int) {
	if before == 0 {
		if cap(op.part) < n {
			op.part = make([]int8, n)
		}
		op.part = op.part[:n]
		for j := range op.part {
			op.part[j] = -1
		}
	}
	op.part[i] = op.parts.of(op.buf)
}

// nextSpilled drops the set and passes on the runs' distinct rows.
func (op *distinctOp) nextSpilled(ctx context.Context) (arrow.RecordBatch, error) {
	op.dropSeen()
	if op.parts != nil {
		runs, err := op.parts.finish()
		op.parts = nil
		if err != nil {
			return nil, err
		}
		op.runs.pending = openRuns(op.env, runs, func(in Operator) Operator {
			return &distinctOp{env: op.env, input: in, level: op.level + 1}
		})
	}
	return op.runs.next(ctx)
}

func (op *distinctOp) dropSeen() {
	op.seen = nil
	op.env.Memory.Release(op.reserved)
	op.reserved = 0
}

func (op *distinctOp) Close() error {
	op.dropSeen()
	op.parts.close()
	op.parts = nil
	op.runs.close()
	return op.input.Close()
}

// appendGroupKey encodes a value for grouping and DISTINCT: all NULLs (a
// missing attribute or DynamoDB NULL) form one group; equal numbers are
// equal because number text is canonical.
func appendGroupKey(dst []byte, v value.Value) []byte {
	if v.IsNull() {
		return value.AppendBinary(dst, value.MissingValue())
	}
	return value.AppendBinary(dst, v)
}
