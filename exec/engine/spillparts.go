package engine

import (
	"context"
	"hash/maphash"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// Operators that hash rows (GROUP BY, DISTINCT, COUNT(DISTINCT), the hash
// join's build side) stay inside --memory-limit by hash partitioning: once
// the budget refuses what they would retain next, the rows that would need
// it go to one of spillFanout spill runs by a hash of their key, and each
// run is later processed on its own, the same way, one level deeper. Every
// level hashes with a fresh seed, so the rows of one run spread over the
// next level's runs instead of landing together again.
const spillFanout = 16

// spillMaxLevel bounds the recursion: a run that still does not fit after
// this many levels holds keys that cannot be told apart by hashing (one
// key, or one group, larger than the budget), and the statement fails with
// spill.Exceeded instead of spilling for ever.
const spillMaxLevel = 8

// partitions writes rows to spillFanout runs, creating a run when its
// first row comes.
type partitions struct {
	env    *Env
	prefix string
	seed   maphash.Seed
	runs   [spillFanout]*spill.Run
	rows   [spillFanout][]int64 // scratch: one batch's rows per partition
}

func newPartitions(env *Env, prefix string) *partitions {
	return &partitions{env: env, prefix: prefix, seed: maphash.MakeSeed()}
}

// of is the partition of a key.
func (p *partitions) of(key []byte) int8 {
	return int8(maphash.Bytes(p.seed, key) % spillFanout)
}

// write copies the rows of in whose part is not negative to their
// partitions' runs; in stays the caller's.
func (p *partitions) write(ctx context.Context, in arrow.RecordBatch, part []int8) error {
	for i := range p.rows {
		p.rows[i] = p.rows[i][:0]
	}
	for i, k := range part {
		if k >= 0 {
			p.rows[k] = append(p.rows[k], int64(i))
		}
	}
	for k, rows := range p.rows {
		if len(rows) == 0 {
			continue
		}
		if err := p.writeRows(ctx, k, in, rows); err != nil {
			return err
		}
	}
	return nil
}

func (p *partitions) writeRows(ctx context.Context, k int, in arrow.RecordBatch, rows []int64) error {
	if p.runs[k] == nil {
		run, err := p.env.Spill.NewRun(p.prefix, p.env.Mem)
		if err != nil {
			return err
		}
		p.runs[k] = run
	}
	if len(rows) == int(in.NumRows()) {
		return p.runs[k].Write(in)
	}
	b := array.NewInt64Builder(p.env.Mem)
	b.AppendValues(rows, nil)
	idx := b.NewArray()
	b.Release()
	defer idx.Release()
	values, indices := compute.NewDatum(in), compute.NewDatum(idx) // each retains its argument
	defer values.Release()
	defer indices.Release()
	out, err := compute.Take(compute.WithAllocator(ctx, p.env.Mem), *compute.DefaultTakeOptions(), values, indices)
	if err != nil {
		return execErrorf(diag.CodeInternal, "%s spill: %v", p.prefix, err)
	}
	defer out.Release()
	return p.runs[k].Write(out.(*compute.RecordDatum).Value)
}

// finish ends writing and hands over the runs by partition (nil where no
// row went); the partitions then hold none.
func (p *partitions) finish() ([spillFanout]*spill.Run, error) {
	out := p.runs
	p.runs = [spillFanout]*spill.Run{}
	var err error
	for _, r := range out {
		if r != nil {
			if ferr := r.Finish(); ferr != nil && err == nil {
				err = ferr
			}
		}
	}
	if err != nil {
		closeRuns(out[:])
		return out, err
	}
	return out, nil
}

// close drops every run (an error path, or the operator's Close).
func (p *partitions) close() {
	if p == nil {
		return
	}
	for k, r := range p.runs {
		if r != nil {
			_ = r.Close()
			p.runs[k] = nil
		}
	}
}

func closeRuns(runs []*spill.Run) {
	for _, r := range runs {
		if r != nil {
			_ = r.Close()
		}
	}
}

// openRuns makes each run that got rows the input of an operator.
func openRuns(env *Env, runs [spillFanout]*spill.Run, open func(Operator) Operator) []Operator {
	var out []Operator
	for _, r := range runs {
		if r != nil {
			out = append(out, open(newRunInput(env, r)))
		}
	}
	return out
}

// runInput reads one finished run back as an operator's input; Close
// drops the run. Each level splits its batches among the runs, so a run
// deep down holds many small batches; runInput joins neighbours of one
// schema back into batches of up to rows rows (Env.BatchRows), which the
// next level folds, hashes and retains with less overhead per row.
type runInput struct {
	run    *spill.Run
	rows   int
	mem    memory.Allocator
	reader *spill.RunReader
	next   arrow.RecordBatch // read ahead, of another schema or too big to join
	ended  bool
}

func newRunInput(env *Env, run *spill.Run) *runInput {
	return &runInput{run: run, rows: env.batchRows(), mem: env.Mem}
}

func (r *runInput) Next(ctx context.Context) (arrow.RecordBatch, error) {
	// Reading a run back is local work that can take long; a cancelled
	// statement stops at the next batch.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	first, err := r.read()
	if err != nil {
		return nil, err
	}
	group := []arrow.RecordBatch{first}
	n := first.NumRows()
	for n < int64(r.rows) {
		b, err := r.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			releaseAll(group)
			return nil, err
		}
		if !b.Schema().Equal(first.Schema()) || n+b.NumRows() > int64(r.rows) {
			r.next = b
			break
		}
		group = append(group, b)
		n += b.NumRows()
	}
	if len(group) == 1 {
		return first, nil
	}
	defer releaseAll(group)
	return concatBatches(r.mem, group, n)
}

func (r *runInput) read() (arrow.RecordBatch, error) {
	if b := r.next; b != nil {
		r.next = nil
		return b, nil
	}
	if r.ended {
		return nil, io.EOF
	}
	if r.reader == nil {
		r.reader = r.run.Reader()
	}
	b, err := r.reader.Next()
	if err == io.EOF {
		r.ended = true
	}
	return b, err
}

// concatBatches joins batches of one schema, n rows in all.
func concatBatches(mem memory.Allocator, batches []arrow.RecordBatch, n int64) (arrow.RecordBatch, error) {
	schema := batches[0].Schema()
	cols := make([]arrow.Array, schema.NumFields())
	defer releaseAll(nil, cols...)
	parts := make([]arrow.Array, len(batches))
	for c := range cols {
		for i, b := range batches {
			parts[i] = b.Column(c)
		}
		col, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, execErrorf(diag.CodeInternal, "reading a spill run: %v", err)
		}
		cols[c] = col
	}
	return array.NewRecordBatch(schema, cols, n), nil
}

func releaseAll(batches []arrow.RecordBatch, arrs ...arrow.Array) {
	for _, b := range batches {
		b.Release()
	}
	for _, a := range arrs {
		if a != nil {
			a.Release()
		}
	}
}

func (r *runInput) Close() error {
	if r.next != nil {
		r.next.Release()
		r.next = nil
	}
	if r.reader != nil {
		r.reader.Close()
	}
	return r.run.Close()
}

// spillRefused is what an operator does when the budget refuses need more
// bytes at the given level: nil when it may spill, else the memory-limit
// error naming it.
func spillRefused(env *Env, operator string, level int, need int64) error {
	if env.Spill == nil || level >= spillMaxLevel {
		return spill.Exceeded(operator, env.Memory, env.Memory.Used()+need)
	}
	return nil
}

// roundUp8 rounds a byte estimate up to whole words.
func roundUp8(n int) int64 { return int64((n + 7) &^ 7) }

// runQueue passes on, one after another, the output of the operators
// the spilled runs were opened as (the same operator, a level deeper).
// Each starts reading its run only when the one before it has ended.
type runQueue struct {
	pending []Operator
	child   Operator
}

func (q *runQueue) next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if q.child != nil {
			b, err := q.child.Next(ctx)
			if err != io.EOF {
				return b, err
			}
			err = q.child.Close()
			q.child = nil
			if err != nil {
				return nil, err
			}
			continue
		}
		if len(q.pending) == 0 {
			return nil, io.EOF
		}
		q.child = q.pending[0]
		q.pending = q.pending[1:]
	}
}

// close drops the operators not read and the one being read, with their
// runs.
func (q *runQueue) close() {
	for _, op := range q.pending {
		_ = op.Close()
	}
	q.pending = nil
	if q.child != nil {
		_ = q.child.Close()
		q.child = nil
	}
}

// emptyInput is the input of a run that got no rows.
type emptyInput struct{}

func (emptyInput) Next(context.Context) (arrow.RecordBatch, error) { return nil, io.EOF }
func (emptyInput) Close() error                                    { return nil }
