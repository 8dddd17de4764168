package engine

import (
	"context"
	"encoding/binary"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// distinctSpill holds, for one aggregation level, the DISTINCT aggregate
// values that did not fit in their accumulators' sets. An entry names the
// group (its number in the level), the aggregate and the value's key; the
// entries go to partition runs by a hash of all three. When the input
// ends every set is complete (no value is added any more), so the sets are
// dropped, and each run is read with a set of its own: an entry not seen
// before feeds its value to that group's inner accumulator. A value that
// went to a run was in no frozen set, and equal entries share a run, so
// each distinct value still reaches the inner accumulator exactly once.
type distinctSpill struct {
	env      *Env
	level    int
	reserved int64 // the accumulators' sets
	parts    *partitions
	pending  [][]byte // entries not yet written
	size     int      // their bytes
}

// Entries wait in memory until this many bytes, or distinctPendingRows
// entries, are pending, and then go to the runs as one batch.
const (
	distinctPendingBytes = 256 << 10
	distinctPendingRows  = 4096
)

var distinctEntrySchema = arrow.NewSchema([]arrow.Field{{Name: "entry", Type: arrow.BinaryTypes.Binary}}, nil)

// track makes d spill into s.
func (s *distinctSpill) track(d *distinctAcc, group, agg int, name string) {
	d.spill, d.group, d.agg, d.name = s, group, agg, name
}

// distinctEntryCost estimates what one key in a set retains.
func distinctEntryCost(keyLen int) int64 { return roundUp8(keyLen + 64) }

// reserve takes room for one more key of d's set; true means the budget
// refused and the set is frozen from now on.
func (s *distinctSpill) reserve(d *distinctAcc, keyLen int) (bool, error) {
	cost := distinctEntryCost(keyLen)
	if s.env.Memory.TryReserve(cost) {
		s.reserved += cost
		return false, nil
	}
	if len(d.seen) == 0 {
		s.env.Memory.Reserve(cost) // one value per set: progress
		s.reserved += cost
		return false, nil
	}
	if err := spillRefused(s.env, d.name, s.level, cost); err != nil {
		return false, err
	}
	return true, nil
}

// put defers a value (its key) of aggregate agg of group group.
func (s *distinctSpill) put(group, agg int, key string) error {
	e := binary.AppendUvarint(nil, uint64(group))
	e = binary.AppendUvarint(e, uint64(agg))
	e = append(e, key...)
	s.pending = append(s.pending, e)
	s.size += len(e)
	if s.size >= distinctPendingBytes || len(s.pending) >= distinctPendingRows {
		return s.flush(context.Background())
	}
	return nil
}

func (s *distinctSpill) flush(ctx context.Context) error {
	if len(s.pending) == 0 {
		return nil
	}
	if s.parts == nil {
		s.parts = newPartitions(s.env, "distinct-agg")
	}
	b := array.NewBinaryBuilder(s.env.Mem, arrow.BinaryTypes.Binary)
	part := make([]int8, len(s.pending))
	for i, e := range s.pending {
		b.Append(e)
		part[i] = s.parts.of(e)
	}
	arr := b.NewArray()
	b.Release()
	rec := array.NewRecordBatch(distinctEntrySchema, []arrow.Array{arr}, int64(len(s.pending)))
	arr.Release()
	clear(s.pending)
	s.pending, s.size = s.pending[:0], 0
	err := s.parts.write(ctx, rec, part)
	rec.Release()
	return err
}

// resolve feeds the deferred values of the level's groups (order, by
// number) to their inner accumulators, once the input has ended.
func (s *distinctSpill) resolve(ctx context.Context, order []*group, lent *lentValues) error {
	if s.parts == nil && len(s.pending) == 0 {
		return nil
	}
	if err := s.flush(ctx); err != nil {
		return err
	}
	for _, g := range order {
		for _, a := range g.accs {
			if d, ok := a.(*distinctAcc); ok {
				d.seen = nil
			}
		}
	}
	s.env.Memory.Release(s.reserved)
	s.reserved = 0
	runs, err := s.parts.finish()
	s.parts = nil
	if err != nil {
		return err
	}
	type levelRun struct {
		run   *spill.Run
		level int
	}
	var queue []levelRun
	for _, r := range runs {
		if r != nil {
			queue = append(queue, levelRun{r, s.level + 1})
		}
	}
	defer func() {
		for _, q := range queue {
			_ = q.run.Close()
		}
	}()
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		sub, err := s.resolveRun(ctx, q.run, q.level, order, lent)
		if err != nil {
			return err
		}
		for _, r := range sub {
			if r != nil {
				queue = append(queue, levelRun{r, q.level + 1})
			}
		}
	}
	return nil
}

// resolveRun feeds one run's entries, deferring to the runs it returns
// those that do not fit in its set.
func (s *distinctSpill) resolveRun(ctx context.Context, run *spill.Run, level int, order []*group, lent *lentValues) ([spillFanout]*spill.Run, error) {
	rd := run.Reader()
	defer func() { _ = run.Close() }()
	defer rd.Close()
	seen := map[string]struct{}{}
	var reserved int64
	defer func() { s.env.Memory.Release(reserved) }()
	var sub *partitions
	fail := func(err error) ([spillFanout]*spill.Run, error) {
		sub.close()
		return [spillFanout]*spill.Run{}, err
	}
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(err)
		}
		err = s.resolveBatch(ctx, rec, level, order, seen, &reserved, &sub)
		lent.own() // the values fed were decoded, but keep lent short
		rec.Release()
		if err != nil {
			return fail(err)
		}
	}
	if sub == nil {
		return [spillFanout]*spill.Run{}, nil
	}
	return sub.finish()
}

func (s *distinctSpill) resolveBatch(ctx context.Context, rec arrow.RecordBatch, level int, order []*group,
	seen map[string]struct{}, reserved *int64, sub **partitions) error {
	entries, ok := rec.Column(0).(*array.Binary)
	if !ok {
		return execErrorf(diag.CodeInternal, "distinct spill: unexpected column %s", rec.Column(0).DataType())
	}
	part := make([]int8, entries.Len())
	marked := 0
	for i := range part {
		part[i] = -1
		e := entries.Value(i)
		if _, dup := seen[string(e)]; dup {
			continue
		}
		d, key, err := s.entryAcc(e, order)
		if err != nil {
			return err
		}
		if *sub == nil {
			cost := distinctEntryCost(len(e))
			switch {
			case s.env.Memory.TryReserve(cost):
				*reserved += cost
			case len(seen) == 0:
				s.env.Memory.Reserve(cost)
				*reserved += cost
			default:
				if err := spillRefused(s.env, d.name, level, cost); err != nil {
					return err
				}
				*sub = newPartitions(s.env, "distinct-agg")
			}
		}
		if *sub != nil {
			part[i] = (*sub).of(e)
			marked++
			continue
		}
		seen[string(e)] = struct{}{}
		v, err := value.DecodeBinary([]byte(string(key))) // owned: the batch goes
		if err != nil {
			return execErrorf(diag.CodeInternal, "distinct spill: %v", err)
		}
		if err := d.inner.add(v); err != nil {
			return err
		}
	}
	if marked == 0 {
		return nil
	}
	return (*sub).write(ctx, rec, part)
}

// entryAcc finds the accumulator an entry belongs to and its value key.
func (s *distinctSpill) entryAcc(e []byte, order []*group) (*distinctAcc, []byte, error) {
	g, n := binary.Uvarint(e)
	if n <= 0 {
		return nil, nil, execErrorf(diag.CodeInternal, "distinct spill: corrupt entry")
	}
	a, m := binary.Uvarint(e[n:])
	if m <= 0 || g >= uint64(len(order)) || a >= uint64(len(order[g].accs)) {
		return nil, nil, execErrorf(diag.CodeInternal, "distinct spill: corrupt entry")
	}
	d, ok := order[g].accs[a].(*distinctAcc)
	if !ok {
		return nil, nil, execErrorf(diag.CodeInternal, "distinct spill: entry of a plain aggregate")
	}
	return d, e[n+m:], nil
}

// close drops what the level's sets reserved and any runs not resolved.
func (s *distinctSpill) close() {
	s.env.Memory.Release(s.reserved)
	s.reserved = 0
	s.parts.close()
	s.parts = nil
	s.pending, s.size = nil, 0
}
