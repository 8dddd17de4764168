package engine

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// pick is one row to copy into a gathered batch: row `row` of rec.
type pick struct {
	rec arrow.RecordBatch
	row int
}

// gather builds a batch of schema out from picked rows, column by column:
// the first out.NumFields() columns of every picked batch have out's
// fields (more columns may follow; they are not copied). The columns
// ddbsql batches hold are copied without building a value.Value: int64,
// utf8 and binary straight into their buffers (gatherfast.go), bool
// through its builder; any other type goes through its builder's text
// form.
func gather(mem memory.Allocator, out *arrow.Schema, picks []pick) (arrow.RecordBatch, error) {
	return gatherOn(mem, out, picks, true)
}

// gatherOn is gather, its columns copied on this goroutine alone unless
// parallel.
func gatherOn(mem memory.Allocator, out *arrow.Schema, picks []pick, parallel bool) (arrow.RecordBatch, error) {
	n := out.NumFields()
	cols := make([]arrow.Array, n)
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	recs, src := pickSources(picks)
	one := func(c int) error {
		dt := out.Field(c).Type
		switch dt.ID() {
		case arrow.INT64:
			cols[c] = gatherInt64s(mem, dt, c, recs, src, picks)
			return nil
		case arrow.STRING, arrow.BINARY:
			cols[c] = gatherVarWidth(mem, dt, c, recs, src, picks)
			return nil
		}
		a, err := gatherColumn(mem, dt, c, picks)
		cols[c] = a
		return err
	}
	rows := len(picks)
	if !parallel {
		rows = 0 // below parallelGatherCells: one goroutine
	}
	if err := eachColumn(n, rows, one); err != nil {
		return nil, err
	}
	return array.NewRecordBatch(out, cols, int64(len(picks))), nil
}

// parallelGatherCells is the size of a gathered batch (rows × columns)
// from which its columns are copied on several goroutines: the copies read
// cells scattered over the sort's input, and every core waits on memory
// for its own columns.
const parallelGatherCells = 16384

// eachColumn calls fn for every column, on up to GOMAXPROCS goroutines
// for a batch of at least parallelGatherCells cells; the first error wins.
func eachColumn(cols, rows int, fn func(c int) error) error {
	workers := min(cols, runtime.GOMAXPROCS(0))
	if workers < 2 || cols*rows < parallelGatherCells {
		for c := 0; c < cols; c++ {
			if err := fn(c); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, cols)
	var next atomic.Int32
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := int(next.Add(1)) - 1; c < cols; c = int(next.Add(1)) - 1 {
				errs[c] = Safely(func() error { return fn(c) })
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func gatherColumn(mem memory.Allocator, dt arrow.DataType, c int, picks []pick) (arrow.Array, error) {
	switch dt.ID() {
	case arrow.BOOL:
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		b.Reserve(len(picks))
		for _, p := range picks {
			a := p.rec.Column(c).(*array.Boolean)
			if a.IsNull(p.row) {
				b.UnsafeAppendBoolToBitmap(false)
				continue
			}
			b.UnsafeAppend(a.Value(p.row))
		}
		return b.NewArray(), nil
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for _, p := range picks {
		a := p.rec.Column(c)
		if a.IsNull(p.row) {
			b.AppendNull()
			continue
		}
		if err := b.AppendValueFromString(a.ValueStr(p.row)); err != nil {
			return nil, execErrorf(diag.CodeInternal, "cannot copy a %s cell of a sorted row: %v", dt, err)
		}
	}
	return b.NewArray(), nil
}
