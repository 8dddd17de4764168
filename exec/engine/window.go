package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// A window operator reads its whole input, retaining the batches, and
// gives each row one normalized key: its partition's values
// (value.AppendOrderKey), then for each ORDER BY key a byte placing NULLs
// first or last and the value's key (inverted for DESC), then the row's
// arrival number, so the sort is stable. Sorting the keys groups the
// partitions and orders each; a partition ends where the partition prefix
// changes, and peers (rows ORDER BY cannot tell apart) share the rest.
// The functions are then computed partition by partition (windowfuncs.go)
// and the rows are emitted in that order with one column per function.

// windowEntry is one input row: its key and where its values are.
type windowEntry struct {
	key        []byte
	partEnd    int32 // key[:partEnd] is the partition
	orderEnd   int32 // key[partEnd:orderEnd] is the ORDER BY value
	batch, row int32
	arrival    int32 // index into the evaluated arguments
}

// windowEntryBytes is what an entry costs besides its key, for the budget.
const windowEntryBytes = 40

// windowValueBytes is what one evaluated argument or result costs beyond
// the bytes it points to in a retained batch.
const windowValueBytes = 48

// windowOperator names the operator in memory errors.
const windowOperator = "the window operator (OVER …)"

type windowOp struct {
	env   *Env
	node  *planner.Window
	input Operator
	row   batchRow

	inputs  []arrow.RecordBatch
	classes schemaClasses
	class   []int // each input batch's schema among classes
	entries []windowEntry
	// args holds, per function, its argument values by arrival (one
	// slice per argument).
	args [][][]value.Value
	// keys holds each row's ORDER BY value by arrival when a function has
	// a RANGE frame with an offset (window_range.go); else nil.
	keys     []value.Value
	results  [][]value.Value // per function, by position in entries
	reserved int64
	computed bool
	pos      int
	picks    []pick // Next's scratch

	// overflow is the batch the budget refused, ext the external mode
	// that takes over then (window_spill.go).
	overflow arrow.RecordBatch
	ext      *windowExternal
}

func newWindowOp(env *Env, n *planner.Window, input Operator) *windowOp {
	return &windowOp{env: env, node: n, input: input, row: newBatchRow(planner.ClientExprs(n)...)}
}

func (op *windowOp) reserve(need int64) error {
	if !op.env.Memory.TryReserve(need) {
		// Without a spill directory there is no external mode.
		return spill.Exceeded(windowOperator, op.env.Memory, op.env.Memory.Used()+need)
	}
	op.reserved += need
	return nil
}

func (op *windowOp) consume(ctx context.Context) error {
	op.args = make([][][]value.Value, len(op.node.Funcs))
	for f, fn := range op.node.Funcs {
		op.args[f] = make([][]value.Value, len(fn.Args))
	}
	op.keys = nil
	if needsRangeKeys(op.node.Funcs) {
		op.keys = []value.Value{}
	}
	for {
		in, err := op.input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := op.add(in); err != nil {
			if err == errWindowSpill {
				return op.startExternal()
			}
			return err
		}
	}
	op.sortEntries()
	return op.compute()
}

// add keys in's rows, evaluates the functions' arguments and retains in.
func (op *windowOp) add(in arrow.RecordBatch) error {
	n := int(in.NumRows())
	if n == 0 {
		in.Release()
		return nil
	}
	op.row.reset(in)
	batch := int32(len(op.inputs))
	buf := make([]byte, 0, n*(8+9*(len(op.node.Partition)+len(op.node.Order))))
	start := len(op.entries)
	values := 0
	for i := 0; i < n; i++ {
		op.row.i = i
		e := windowEntry{batch: batch, row: int32(i), arrival: int32(len(op.entries))}
		from := len(buf)
		var err error
		if buf, err = op.appendPartition(buf); err != nil {
			in.Release()
			return err
		}
		e.partEnd = int32(len(buf) - from)
		if buf, err = op.appendOrder(buf); err != nil {
			in.Release()
			return err
		}
		e.orderEnd = int32(len(buf) - from)
		buf = binary.BigEndian.AppendUint64(buf, uint64(e.arrival))
		e.key = buf[from:len(buf):len(buf)]
		for f, fn := range op.node.Funcs {
			for a, arg := range fn.Args {
				v, err := eval.Eval(arg, &op.row)
				if err != nil {
					in.Release()
					return evalError(err)
				}
				op.args[f][a] = append(op.args[f][a], v)
				values++
			}
		}
		if err := op.addRangeKey(); err != nil {
			in.Release()
			return err
		}
		op.entries = append(op.entries, e)
	}
	// The keys were sliced while buf grew; point them into its final array.
	final := buf
	off := 0
	for k := start; k < len(op.entries); k++ {
		l := len(op.entries[k].key)
		op.entries[k].key = final[off : off+l : off+l]
		off += l
	}
	need := recordBytes(in) + int64(cap(buf)) + int64(n)*windowEntryBytes + int64(values+n*len(op.node.Funcs))*windowValueBytes
	if op.env.Spill != nil && !op.env.Memory.TryReserve(need) {
		// Past the budget: undo this batch's rows and sort externally.
		op.entries = op.entries[:start]
		for f := range op.args {
			for a := range op.args[f] {
				op.args[f][a] = op.args[f][a][:start]
			}
		}
		if op.keys != nil {
			op.keys = op.keys[:start]
		}
		op.overflow = in
		return errWindowSpill
	}
	if op.env.Spill != nil {
		op.reserved += need
	} else if err := op.reserve(need); err != nil {
		in.Release()
		return err
	}
	op.inputs = append(op.inputs, in)
	op.class = append(op.class, op.classes.of(in.Schema()))
	return nil
}

// sortEntries orders the entries by key, sorting (key prefix, index)
// pairs and permuting the entries once, as a full sort does.
func (op *windowOp) sortEntries() {
	refs := make([]sortRef, len(op.entries))
	for i, e := range op.entries {
		refs[i] = sortRef{prefix: keyPrefix(e.key), i: int32(i)}
	}
	es := op.entries
	slices.SortFunc(refs, func(a, b sortRef) int {
		switch {
		case a.prefix < b.prefix:
			return -1
		case a.prefix > b.prefix:
			return 1
		}
		return bytes.Compare(es[a.i].key, es[b.i].key)
	})
	sorted := make([]windowEntry, len(es))
	for i, r := range refs {
		sorted[i] = es[r.i]
	}
	op.entries = sorted
}

// appendPartition appends the current row's partition key.
func (op *windowOp) appendPartition(dst []byte) ([]byte, error) {
	for _, p := range op.node.Partition {
		v, err := eval.Eval(p, &op.row)
		if err != nil {
			return dst, evalError(err)
		}
		if v.IsNull() {
			v = value.MissingValue() // all NULLs are one partition
		}
		dst = value.AppendOrderKey(dst, v)
	}
	return dst, nil
}

// appendOrder appends the current row's ORDER BY key: per key a byte that
// puts NULLs first (0) or last (2) before every value (1), then the value's
// key, inverted for DESC.
func (op *windowOp) appendOrder(dst []byte) ([]byte, error) {
	for _, k := range op.node.Order {
		v, err := eval.Eval(k.Expr, &op.row)
		if err != nil {
			return dst, evalError(err)
		}
		if v.IsNull() {
			if k.NullsFirst {
				dst = append(dst, 0)
			} else {
				dst = append(dst, 2)
			}
			continue
		}
		dst = append(dst, 1)
		start := len(dst)
		dst = value.AppendOrderKey(dst, v)
		if k.Desc {
			value.InvertKey(dst[start:])
		}
	}
	return dst, nil
}

func (op *windowOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !op.computed {
		op.computed = true
		if err := op.consume(ctx); err != nil {
			return nil, err
		}
	}
	if op.ext != nil {
		return op.nextExternal(ctx)
	}
	if op.pos >= len(op.entries) {
		op.releaseInputs()
		return nil, io.EOF
	}
	return op.emit()
}

// emit returns the next output batch of the computed entries.
func (op *windowOp) emit() (arrow.RecordBatch, error) {
	// One batch of consecutive rows whose inputs share a schema: their
	// columns are gathered, the functions' values appended.
	first := op.class[op.entries[op.pos].batch]
	end := op.pos
	for end < len(op.entries) && end-op.pos < op.env.batchRows() && op.class[op.entries[end].batch] == first {
		end++
	}
	picks := op.picks[:0]
	for _, e := range op.entries[op.pos:end] {
		picks = append(picks, pick{rec: op.inputs[e.batch], row: int(e.row)})
	}
	op.picks = picks
	in, err := gather(op.env.Mem, op.classes.schema(first), picks)
	clear(picks)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	fields := append([]arrow.Field(nil), in.Schema().Fields()...)
	cols := append([]arrow.Array(nil), in.Columns()...)
	var built []arrow.Array
	defer func() {
		for _, a := range built {
			a.Release()
		}
	}()
	for f := range op.node.Funcs {
		field, arr := columnar.BuildColumn(op.env.Mem, "", op.results[f][op.pos:end])
		built = append(built, arr)
		fields, cols = append(fields, field), append(cols, arr)
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(end-op.pos))
	op.pos = end
	return out, nil
}

func (op *windowOp) releaseInputs() {
	for _, in := range op.inputs {
		in.Release()
	}
	op.inputs, op.class, op.args, op.results = nil, nil, nil, nil
	op.env.Memory.Release(op.reserved)
	op.reserved = 0
}

func (op *windowOp) Close() error {
	op.releaseInputs()
	op.entries = nil
	if op.overflow != nil {
		op.overflow.Release()
		op.overflow = nil
	}
	if op.ext != nil {
		return op.ext.close()
	}
	return op.input.Close()
}
