package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// GROUP BY within --memory-limit. Partial states of every aggregate would
// have to be written and merged (exact sums, distinct sets, MIN/MAX of any
// type), so the aggregation spills input rows instead: once the budget
// refuses a new group, the level takes no more groups; rows of groups it
// holds keep folding in memory, and rows of any other group go to a
// partition run by a hash of their group key. The level emits its groups,
// lets go of them, and then aggregates each run as a fresh level (a new
// aggregateOp over the run, with a new hash seed). A group lives in
// exactly one level, so every aggregate's result is the one a single pass
// would give; only the order of groups changes (spilled groups come after
// the ones held in memory).

// spillState is an aggregation level's spilling.
type spillState struct {
	level     int   // 0 for the statement's input, n for a run spilled n times
	reserved  int64 // budget bytes the groups of this level hold
	parts     *partitions
	spillPart []int8 // per row of the batch being folded: its partition, or -1
	spilled   int    // rows of that batch marked in spillPart
	runs      runQueue
	dropped   bool
	dspill    distinctSpill
}

// groupCost estimates what a group retains, measured on the Go heap
// (about 370 bytes for a short string key, COUNT(*) and SUM): its key in
// the table's arena and as owned values (a value.Value is 40 bytes), table
// slots at half load and the slices that double as groups come, the group
// and per aggregate an accumulator behind an interface.
func groupCost(keyLen, keys, aggs int) int64 {
	return roundUp8(2*keyLen + 48*keys + 160 + 96*aggs)
}

// admit reserves a new group of a key keyLen bytes long; false means the
// row belongs to a partition run instead.
func (op *aggregateOp) admit(keyLen int) (bool, error) {
	if op.parts != nil {
		return false, nil
	}
	cost := groupCost(keyLen, len(op.node.Groups), len(op.node.Aggs))
	if op.env.Memory.TryReserve(cost) {
		op.reserved += cost
		return true, nil
	}
	if len(op.order) == 0 {
		// A level always holds one group, so every level makes progress.
		op.env.Memory.Reserve(cost)
		op.reserved += cost
		return true, nil
	}
	if err := spillRefused(op.env, "GROUP BY", op.level, cost); err != nil {
		return false, err
	}
	op.parts = newPartitions(op.env, "groupby")
	return false, nil
}

// markSpilled sends row i of the batch (of n rows) whose key is op.buf to
// its partition.
func (op *aggregateOp) markSpilled(i, n int) {
	if op.spilled == 0 {
		if cap(op.spillPart) < n {
			op.spillPart = make([]int8, n)
		}
		op.spillPart = op.spillPart[:n]
		for j := range op.spillPart {
			op.spillPart[j] = -1
		}
	}
	op.spillPart[i] = op.parts.of(op.buf)
	op.spilled++
}

// writeSpilled writes the rows markSpilled marked in the batch.
func (op *aggregateOp) writeSpilled(ctx context.Context, in arrow.RecordBatch) error {
	if op.spilled == 0 {
		return nil
	}
	return op.parts.write(ctx, in, op.spillPart[:in.NumRows()])
}

// foldKept folds, on the fast path, the rows of in that have a group after
// writing the others to their partitions. in stays the caller's.
func (op *aggregateOp) foldKept(ctx context.Context, in arrow.RecordBatch, rowGroups []*group) error {
	if err := op.writeSpilled(ctx, in); err != nil {
		return err
	}
	mask := array.NewBooleanBuilder(op.env.Mem)
	defer mask.Release()
	kept := rowGroups[:0]
	for _, g := range rowGroups {
		mask.Append(g != nil)
		if g != nil {
			kept = append(kept, g)
		}
	}
	in.Retain() // keepRows releases what it filters
	rec, err := keepRows(ctx, op.env, in, mask, len(kept), "GROUP BY")
	if err != nil || rec == nil {
		return err
	}
	op.row.reset(rec)
	err = op.foldColumns(kept)
	op.lent.own() // before rec goes
	rec.Release()
	return err
}

// nextSpilled lets go of the level's own groups, all emitted, and passes on
// the results of the partition runs, one run after another.
func (op *aggregateOp) nextSpilled(ctx context.Context) (arrow.RecordBatch, error) {
	op.dropGroups()
	if op.parts != nil {
		runs, err := op.parts.finish()
		op.parts = nil
		if err != nil {
			return nil, err
		}
		op.runs.pending = openRuns(op.env, runs, func(in Operator) Operator {
			child := newAggregateOp(op.env, op.node, in)
			child.level = op.level + 1
			child.dspill.level = child.level
			return child
		})
	}
	return op.runs.next(ctx)
}

// dropGroups forgets the level's groups and returns their budget.
func (op *aggregateOp) dropGroups() {
	if op.dropped {
		return
	}
	op.dropped = true
	op.groups = groupTable{}
	op.order, op.groupSlab, op.accSlab, op.rowGroups = nil, nil, nil, nil
	op.env.Memory.Release(op.reserved)
	op.reserved = 0
	op.lent.release()
	op.dspill.close()
}

// closeSpill drops whatever spilling left: groups, runs and the level
// being read.
func (op *aggregateOp) closeSpill() {
	op.dropGroups()
	op.parts.close()
	op.parts = nil
	op.runs.close()
}
