package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// hashJoinOp reads the build side into a hash table keyed by the build keys,
// then streams the probe side through it. NULL keys never match.
//
// The table's items are read in place from the build batches (their text
// points into the batches' buffers), so the join retains every build batch
// that holds a table entry until the probe side ends or the join closes:
// the table needs the whole build side anyway, and no value is copied.
type hashJoinOp struct {
	env      *Env
	node     *planner.HashJoin
	probe    Operator
	build    Operator
	source   int // FROM item of the build side
	probeRow batchRow
	buildRow batchRow
	table    map[string][]value.Value
	retained []arrow.RecordBatch // the build batches table's items point into
	built    bool
	level    int   // 0 for the statement's inputs, n for runs spilled n times
	reserved int64 // budget bytes the table and retained batches hold
	emitter  joinEmitter
	out      []arrow.RecordBatch
	grace    graceState
}

func newHashJoinOp(env *Env, n *planner.HashJoin, probe, build Operator) *hashJoinOp {
	src := buildSource(n)
	return &hashJoinOp{env: env, node: n, probe: probe, build: build, source: src,
		probeRow: newBatchRow(n.ProbeKeys...), buildRow: newBatchRow(n.BuildKeys...),
		emitter: newJoinEmitter(env, n.Kind, n.Probe, src, nil, n.Residual)}
}

// buildSource is the FROM item the build keys read.
func buildSource(n *planner.HashJoin) int {
	for _, k := range n.BuildKeys {
		for _, c := range expr.Columns(k) {
			return c.Source
		}
	}
	return 0
}

// hashKey encodes key values; ok is false when any is NULL.
func hashKey(keys []expr.Expr, row eval.Row, buf []byte) ([]byte, bool, error) {
	buf = buf[:0]
	for _, k := range keys {
		v, err := eval.Eval(k, row)
		if err != nil {
			return nil, false, evalError(err)
		}
		if v.IsNull() {
			return buf, false, nil
		}
		buf = value.AppendBinary(buf, v)
	}
	return buf, true, nil
}

func (op *hashJoinOp) buildTable(ctx context.Context) error {
	op.table = map[string][]value.Value{}
	for {
		rec, err := op.build.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if op.grace.build != nil {
			err = op.partitionBuild(ctx, rec)
			rec.Release()
		} else {
			err = op.addBuild(ctx, rec)
		}
		if err != nil {
			return err
		}
	}
	op.built = true
	return op.cannotShrink()
}

// addBuild enters a build batch's rows into the table, within the memory
// budget; when the budget refuses them the join turns into a grace hash
// join (hashjoin_spill.go). It takes rec.
func (op *hashJoinOp) addBuild(ctx context.Context, rec arrow.RecordBatch) error {
	row := &op.buildRow
	row.reset(rec)
	keys := op.grace.keys[:0]
	cost := recordBytes(rec)
	var buf []byte
	any := false
	for i := 0; i < int(rec.NumRows()); i++ {
		row.i = i
		var ok bool
		var err error
		buf, ok, err = hashKey(op.node.BuildKeys, row, buf)
		if err != nil {
			rec.Release()
			return err
		}
		if !ok {
			keys = append(keys, "") // no encoded key is empty
			continue
		}
		keys = append(keys, string(buf))
		cost += joinEntryCost(len(buf))
		any = true
	}
	op.grace.keys = keys
	if !any {
		rec.Release()
		return nil
	}
	if !op.env.Memory.TryReserve(cost) {
		// Even a first batch is partitioned: its rows split among the
		// runs, unless they all share a key (cannotShrink).
		return op.startGrace(ctx, rec, cost)
	}
	op.reserved += cost
	for i, k := range keys {
		if k == "" {
			continue
		}
		row.i = i
		item, _ := row.Item(op.source)
		op.table[k] = append(op.table[k], item)
	}
	op.retained = append(op.retained, rec)
	return nil
}

// dropTable forgets the build side and releases its batches.
func (op *hashJoinOp) dropTable() {
	op.table = nil
	for _, b := range op.retained {
		b.Release()
	}
	op.retained = nil
	op.env.Memory.Release(op.reserved)
	op.reserved = 0
}

func (op *hashJoinOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !op.built {
		if err := op.buildTable(ctx); err != nil {
			return nil, err
		}
	}
	if op.grace.build != nil || op.grace.done {
		return op.nextGrace(ctx)
	}
	var buf []byte
	for len(op.out) == 0 {
		rec, err := op.probe.Next(ctx)
		if err == io.EOF {
			op.dropTable()
		}
		if err != nil {
			return nil, err
		}
		row := &op.probeRow
		row.reset(rec)
		matches := make([][]value.Value, rec.NumRows())
		for i := range matches {
			row.i = i
			var ok bool
			buf, ok, err = hashKey(op.node.ProbeKeys, row, buf)
			if err != nil {
				rec.Release()
				return nil, err
			}
			if ok {
				matches[i] = op.table[string(buf)]
			}
		}
		out, err := op.emitter.emit(rec, matches)
		rec.Release()
		if err != nil {
			return nil, err
		}
		op.out = out
	}
	b := op.out[0]
	op.out = op.out[1:]
	return b, nil
}

func (op *hashJoinOp) Close() error {
	for _, b := range op.out {
		b.Release()
	}
	op.out = nil
	op.dropTable()
	op.closeGrace()
	err := op.probe.Close()
	if berr := op.build.Close(); err == nil {
		err = berr
	}
	return err
}
