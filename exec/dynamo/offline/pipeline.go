package offline

import (
	"bytes"
	"context"
	"runtime"
	"sync"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// The pipeline: a producer goroutine cuts a file into raw items and groups
// them in chunks; GOMAXPROCS workers decode chunks in parallel; the caller
// takes the decoded chunks in file order and adds them to the sink (which
// is single-threaded: key checks, duplicates and memdb writes happen in
// order, so the first error in the file is the one reported).

// rawItem is one item's undecoded JSON and where it starts in its file.
type rawItem struct {
	data []byte
	line int // 1-based line of data[0]
	col  int // 1-based column of data[0]
}

// produceFunc emits a file's raw items in order. emit fails once the
// pipeline is stopping; the producer then returns that error.
type produceFunc func(ctx context.Context, emit func(rawItem) error) error

type chunk struct {
	items []rawItem
	err   error // the producer's error, after these items
	res   chan decoded
}

type decoded struct {
	items   [][]memdb.NamedValue
	skipped []memdb.Skipped // what each item's undecoded attributes add
	lines   []int
	err     error // the first decoding error, after these items
	// With a sink that checks in the workers: each item's checked form,
	// or why memdb rejects it.
	fed      []memdb.FedItem
	rejected []error
}

const chunkItems = 256

// pump decodes path's items (as produce cuts them) and adds them to s.
// It returns how many items it added.
func pump(ctx context.Context, path string, s *sink, p itemParser, produce produceFunc) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *chunk, workers)
	order := make(chan *chunk, 2*workers)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	for range workers {
		wg.Go(func() {
			for c := range jobs {
				c.res <- decodeChunk(path, p, c, s.check)
			}
		})
	}
	wg.Go(func() {
		defer close(order)
		defer close(jobs)
		send := func(c *chunk) error {
			c.res = make(chan decoded, 1)
			select {
			case order <- c:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case jobs <- c:
				return nil
			case <-ctx.Done():
				c.res <- decoded{err: ctx.Err()}
				return ctx.Err()
			}
		}
		cur := &chunk{}
		emit := func(r rawItem) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			cur.items = append(cur.items, r)
			if len(cur.items) < chunkItems {
				return nil
			}
			full := cur
			cur = &chunk{}
			return send(full)
		}
		cur.err = produce(ctx, emit)
		send(cur)
	})
	n := 0
	for c := range order {
		var d decoded
		select {
		case d = <-c.res:
		case <-ctx.Done():
			return n, ctx.Err()
		}
		for i, item := range d.items {
			var err error
			if d.fed != nil {
				err = s.addFed(item, d.fed[i], d.rejected[i], pos{path: path, line: d.lines[i]})
			} else {
				err = s.add(item, pos{path: path, line: d.lines[i]})
			}
			if err != nil {
				return n, err
			}
			n++
		}
		if d.err != nil {
			return n, d.err
		}
	}
	return n, ctx.Err()
}

// decodeChunk decodes a chunk's items; their attributes share one backing
// array per chunk, so an item costs no allocation of its own. With check
// set, it also checks each item as memdb would.
func decodeChunk(path string, p itemParser, c *chunk, check func([]memdb.NamedValue, memdb.Skipped) (memdb.FedItem, error)) (d decoded) {
	if check != nil {
		defer func() {
			d.fed, d.rejected = make([]memdb.FedItem, len(d.items)), make([]error, len(d.items))
			for i, item := range d.items {
				d.fed[i], d.rejected[i] = check(item, d.skipped[i])
			}
		}()
	}
	d = decoded{items: make([][]memdb.NamedValue, 0, len(c.items)), lines: make([]int, 0, len(c.items)),
		skipped: make([]memdb.Skipped, 0, len(c.items))}
	perItem := 12
	if p.need != nil {
		perItem = len(p.need) // the attributes decoded, most of the time
	}
	all := make([]memdb.NamedValue, 0, perItem*len(c.items))
	for _, r := range c.items {
		start := len(all)
		var ierr *itemError
		var sk memdb.Skipped
		all, sk, ierr = p.parse(r.data, all)
		if ierr != nil {
			e := &diag.Error{Phase: diag.Load, Code: ierr.code, Pos: diag.Pos{Source: path, Line: r.line}, Msg: ierr.msg}
			if ierr.offset >= 0 {
				e.Pos.Line, e.Pos.Column = locate(r.data, ierr.offset, r.line, r.col)
			}
			d.err = e
			return d
		}
		d.items = append(d.items, all[start:len(all):len(all)])
		d.lines = append(d.lines, r.line)
		d.skipped = append(d.skipped, sk)
	}
	d.err = c.err
	return d
}

// locate turns a JSON error offset within data (which starts at line0,
// col0) into the line and column of the offending byte. encoding/json
// reports the offset after reading that byte.
func locate(data []byte, offset, line0, col0 int) (line, col int) {
	offset = min(max(offset-1, 0), len(data))
	before := data[:offset]
	nl := bytes.Count(before, []byte{'\n'})
	if nl == 0 {
		return line0, col0 + offset
	}
	return line0 + nl, offset - bytes.LastIndexByte(before, '\n')
}
