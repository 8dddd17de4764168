package engine

import (
	"bytes"
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The hash join within --memory-limit. The build side's table and the
// batches it points into are reserved from the budget; when the budget
// refuses a build batch, the join becomes a grace hash join: every build
// row with a key (those already in the table, from the retained batches,
// and all still to come) goes to one of spillFanout build runs by a hash
// of its key, the table is dropped, and the probe rows go to probe runs by
// the same hash. Rows that can match share a partition, so each pair of
// runs is joined on its own, by a hash join one level deeper (which may
// partition again, with a new seed). A probe row with a NULL key matches
// nothing: a LEFT join emits it at once, an inner join drops it; a probe
// run whose build run got no rows joins against an empty build side. The
// rows of a spilled join come out partition by partition, not in probe
// order.

// graceState is a hash join's spilling.
type graceState struct {
	build, probe *partitions // the runs, same seed; nil until spilling
	done         bool        // the probe side is partitioned: read the runs
	runs         runQueue
	keys         []string // scratch: a build batch's keys
	// What the build runs got: their estimated bytes, and whether every row
	// had the same key (firstKey), which no partitioning can split.
	buildBytes int64
	firstKey   []byte
	oneKey     bool
}

// joinEntryCost estimates what a table entry retains besides the batch it
// points into: the key, the map entry, the item slice.
func joinEntryCost(keyLen int) int64 { return roundUp8(keyLen + 112) }

// startGrace turns the join into a grace hash join when the budget
// refuses rec (cost bytes): the table's rows and rec's go to build runs.
// It takes rec.
func (op *hashJoinOp) startGrace(ctx context.Context, rec arrow.RecordBatch, cost int64) error {
	if err := spillRefused(op.env, "JOIN", op.level, cost); err != nil {
		rec.Release()
		return err
	}
	op.grace.build = newPartitions(op.env, "join-build")
	op.grace.oneKey = true
	op.grace.probe = &partitions{env: op.env, prefix: "join-probe", seed: op.grace.build.seed}
	retained := op.retained
	op.retained = nil
	var err error
	for _, b := range append(retained, rec) {
		if err == nil {
			err = op.partitionBuild(ctx, b)
		}
		b.Release()
	}
	op.dropTable()
	return err
}

// partitionBuild writes a build batch's rows with a key to their runs.
func (op *hashJoinOp) partitionBuild(ctx context.Context, rec arrow.RecordBatch) error {
	g := &op.grace
	part, _, err := op.partOf(g.build, op.node.BuildKeys, &op.buildRow, rec, func(key []byte) {
		g.buildBytes += joinEntryCost(len(key))
		switch {
		case g.firstKey == nil:
			g.firstKey = append([]byte(nil), key...)
		case g.oneKey && !bytes.Equal(key, g.firstKey):
			g.oneKey = false
		}
	})
	if err != nil {
		return err
	}
	g.buildBytes += recordBytes(rec)
	return g.build.write(ctx, rec, part)
}

// cannotShrink is the memory-limit error of a build side whose rows all
// have one key: every level would write them all to one run again.
func (op *hashJoinOp) cannotShrink() error {
	if op.grace.build == nil || !op.grace.oneKey || op.grace.firstKey == nil {
		return nil
	}
	return spill.Exceeded("JOIN", op.env.Memory, op.grace.buildBytes)
}

// partOf is each row's partition by its key, -1 for a NULL key, and how
// many rows have a NULL key; seen, when set, sees each key.
func (op *hashJoinOp) partOf(p *partitions, keys []expr.Expr, row *batchRow, rec arrow.RecordBatch, seen func([]byte)) ([]int8, int, error) {
	row.reset(rec)
	part := make([]int8, rec.NumRows())
	nulls := 0
	var buf []byte
	for i := range part {
		row.i = i
		var ok bool
		var err error
		buf, ok, err = hashKey(keys, row, buf)
		if err != nil {
			return nil, 0, err
		}
		if ok {
			part[i] = p.of(buf)
			if seen != nil {
				seen(buf)
			}
		} else {
			part[i] = -1
			nulls++
		}
	}
	return part, nulls, nil
}

// nextGrace partitions the probe side, then joins the runs pair by pair.
func (op *hashJoinOp) nextGrace(ctx context.Context) (arrow.RecordBatch, error) {
	for len(op.out) == 0 {
		if op.grace.done {
			return op.grace.runs.next(ctx)
		}
		rec, err := op.probe.Next(ctx)
		if err == io.EOF {
			err = op.pairRuns()
			op.grace.done = true
			if err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if op.out, err = op.partitionProbe(ctx, rec); err != nil {
			return nil, err
		}
	}
	b := op.out[0]
	op.out = op.out[1:]
	return b, nil
}

// partitionProbe writes a probe batch's rows with a key to their runs and
// returns the LEFT join's rows for those without one. It takes rec.
func (op *hashJoinOp) partitionProbe(ctx context.Context, rec arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	part, nulls, err := op.partOf(op.grace.probe, op.node.ProbeKeys, &op.probeRow, rec, nil)
	if err == nil {
		err = op.grace.probe.write(ctx, rec, part)
	}
	if err != nil || nulls == 0 || op.node.Kind != planner.JoinLeft {
		rec.Release()
		return nil, err
	}
	mask := array.NewBooleanBuilder(op.env.Mem)
	defer mask.Release()
	for _, k := range part {
		mask.Append(k < 0)
	}
	unmatched, err := keepRows(ctx, op.env, rec, mask, nulls, "join")
	if err != nil {
		return nil, err
	}
	out, err := op.emitter.emit(unmatched, make([][]value.Value, unmatched.NumRows()))
	unmatched.Release()
	return out, err
}

// pairRuns makes a join one level deeper for each partition a probe row
// went to (with an empty build side where no build row did).
func (op *hashJoinOp) pairRuns() error {
	builds, berr := op.grace.build.finish()
	probes, perr := op.grace.probe.finish()
	op.grace.build, op.grace.probe = nil, nil
	if berr != nil || perr != nil {
		closeRuns(builds[:])
		closeRuns(probes[:])
		if berr != nil {
			return berr
		}
		return perr
	}
	for k := range probes {
		if probes[k] == nil || builds[k] == nil && op.node.Kind != planner.JoinLeft {
			closeRuns([]*spill.Run{builds[k], probes[k]})
			continue
		}
		var build Operator = emptyInput{}
		if builds[k] != nil {
			build = newRunInput(op.env, builds[k])
		}
		child := newHashJoinOp(op.env, op.node, newRunInput(op.env, probes[k]), build)
		child.level = op.level + 1
		op.grace.runs.pending = append(op.grace.runs.pending, child)
	}
	return nil
}

// closeGrace drops the runs of a spilled join.
func (op *hashJoinOp) closeGrace() {
	op.grace.build.close()
	op.grace.probe.close()
	op.grace.build, op.grace.probe = nil, nil
	op.grace.runs.close()
}
