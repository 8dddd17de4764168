package engine

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// When the budget refuses a window operator's input (and a spill
// directory exists), it goes external: the batches it holds and the rest
// of its input are sorted by (partition, ORDER BY) with the full sort,
// which spills sorted runs and merges them, and the sorted rows are read
// one partition at a time: each partition is held (within the budget),
// computed exactly as in memory, emitted and released. Only a single
// partition larger than the budget fails.

// errWindowSpill tells consume that the budget refused a batch.
var errWindowSpill = errors.New("window input past the memory budget")

// windowExternal is the state of the external mode.
type windowExternal struct {
	sorter *sortOp
	cur    arrow.RecordBatch // the sorted batch being read
	curRow int
	// curIn is cur's index in the partition's inputs (-1: not there yet).
	curIn int
	// rowBytes is cur's bytes per row: a partition counts its rows' share
	// of the batches it holds (a sorted batch holds many partitions).
	rowBytes int64
	done     bool // the sorter has ended
}

// startExternal hands what the operator holds and the rest of its input
// to a full sort.
func (op *windowOp) startExternal() error {
	held := append(op.inputs, op.overflow)
	op.overflow, op.inputs, op.class, op.entries = nil, nil, nil, nil
	op.env.Memory.Release(op.reserved)
	op.reserved = 0
	replay := &replayOp{held: held, rest: op.input}
	sorter := newSortOp(op.env, op.sortKeys(), 0, replay)
	sorter.operator = windowOperator
	op.ext = &windowExternal{sorter: sorter, curIn: -1}
	return nil
}

// sortKeys orders rows as the window's keys do: by partition, then by each
// ORDER BY key, NULLs placed by an IS NULL key first where they do not go
// where the sort puts them (first ascending, last descending).
func (op *windowOp) sortKeys() []planner.SortKey {
	var keys []planner.SortKey
	for _, p := range op.node.Partition {
		keys = append(keys, planner.SortKey{Expr: p})
	}
	for _, k := range op.node.Order {
		if k.NullsFirst == k.Desc {
			keys = append(keys, planner.SortKey{Expr: expr.IsNull{X: k.Expr}, Desc: k.NullsFirst})
		}
		keys = append(keys, planner.SortKey{Expr: k.Expr, Desc: k.Desc})
	}
	return keys
}

func (op *windowOp) nextExternal(ctx context.Context) (arrow.RecordBatch, error) {
	for op.pos >= len(op.entries) {
		err := op.nextPartition(ctx)
		if err == io.EOF {
			op.releaseInputs()
		}
		if err != nil {
			return nil, err
		}
	}
	return op.emit()
}

// reservePartition takes need bytes for the partition being read. The
// sort below still holds what it reserved (its last rows in memory, the
// merge's buffers) until it ends, so the partition's share is taken beside
// it, whether or not the budget has room: a partition may hold up to the
// limit itself, and fails only past that.
func (op *windowOp) reservePartition(need int64) error {
	op.env.Memory.Reserve(need)
	op.reserved += need
	if limit := op.env.Memory.Limit(); limit > 0 && op.reserved > limit {
		err := spill.Exceeded("one partition of the window operator (OVER …)", op.env.Memory, op.reserved).(*diag.Error)
		err.Hint = "raise --memory-limit (for example --memory-limit 4GiB), or PARTITION BY more keys, or narrow the rows with WHERE"
		return err
	}
	return nil
}

// nextPartition releases the partition emitted, then reads and computes
// the next one; io.EOF when there is none.
func (op *windowOp) nextPartition(ctx context.Context) error {
	x := op.ext
	op.releaseInputs()
	op.entries, x.curIn = nil, -1
	op.args = make([][][]value.Value, len(op.node.Funcs))
	for f, fn := range op.node.Funcs {
		op.args[f] = make([][]value.Value, len(fn.Args))
	}
	op.keys = nil
	if needsRangeKeys(op.node.Funcs) {
		op.keys = []value.Value{}
	}
	var part []byte
	for {
		if x.cur == nil || x.curRow >= int(x.cur.NumRows()) {
			if x.cur != nil {
				x.cur.Release()
				x.cur, x.curIn = nil, -1
			}
			if x.done {
				break
			}
			b, err := x.sorter.Next(ctx)
			if err == io.EOF {
				x.done = true
				break
			}
			if err != nil {
				return err
			}
			x.cur, x.curRow = b, 0
			if n := b.NumRows(); n > 0 {
				x.rowBytes = (recordBytes(b) + n - 1) / n
			}
			op.row.reset(b)
			continue
		}
		op.row.i = x.curRow
		key, err := op.appendPartition(nil)
		if err != nil {
			return err
		}
		partEnd := len(key)
		if len(op.entries) > 0 && !bytes.Equal(key, part) {
			break
		}
		part = key
		if key, err = op.appendOrder(key); err != nil {
			return err
		}
		if x.curIn < 0 {
			x.cur.Retain()
			op.inputs = append(op.inputs, x.cur)
			op.class = append(op.class, op.classes.of(x.cur.Schema()))
			x.curIn = len(op.inputs) - 1
		}
		e := windowEntry{key: key, partEnd: int32(partEnd), orderEnd: int32(len(key)), batch: int32(x.curIn),
			row: int32(x.curRow), arrival: int32(len(op.entries))}
		values := 0
		for f, fn := range op.node.Funcs {
			for a, arg := range fn.Args {
				v, err := eval.Eval(arg, &op.row)
				if err != nil {
					return evalError(err)
				}
				op.args[f][a] = append(op.args[f][a], v)
				values++
			}
		}
		if err := op.addRangeKey(); err != nil {
			return err
		}
		op.entries = append(op.entries, e)
		if err := op.reservePartition(x.rowBytes + int64(cap(key)) + windowEntryBytes + int64(values+len(op.node.Funcs))*windowValueBytes); err != nil {
			return err
		}
		x.curRow++
	}
	if len(op.entries) == 0 {
		return io.EOF
	}
	op.pos = 0
	return op.compute()
}

func (x *windowExternal) close() error {
	if x.cur != nil {
		x.cur.Release()
		x.cur = nil
	}
	return x.sorter.Close()
}

// replayOp yields batches already read, then the rest of an input.
type replayOp struct {
	held []arrow.RecordBatch
	rest Operator
}

func (r *replayOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if len(r.held) > 0 {
		b := r.held[0]
		r.held[0], r.held = nil, r.held[1:]
		return b, nil
	}
	return r.rest.Next(ctx)
}

func (r *replayOp) Close() error {
	for _, b := range r.held {
		b.Release()
	}
	r.held = nil
	return r.rest.Close()
}
