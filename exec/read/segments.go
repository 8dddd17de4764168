package read

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"io"
	"sync"
	"sync/atomic"

	"github.com/ddbsql/ddbsql/planner/value"
)

// segmentReader runs the pagers of a parallel Scan (or of a count, or one
// read-ahead pager) concurrently, each pager reading its next page as soon
// as the previous one is handed over (one page buffered per worker), and
// yields pages as they arrive.
type segmentReader struct {
	ctx     context.Context
	op      string // Query or Scan, for messages
	ch      chan segmentPage
	cancel  context.CancelFunc
	running int // pagers that have not finished
	wg      sync.WaitGroup
}

type segmentPage struct {
	items []value.Value
	rec   arrow.RecordBatch
	count int64
	err   error
	done  bool
}

// startSegments reads pagers on at most workers goroutines; a worker
// takes the next pager when its own has ended.
func startSegments(ctx context.Context, pagers []*pager, workers int) *segmentReader {
	ctx, cancel := context.WithCancel(ctx)
	workers = min(max(workers, 1), len(pagers))
	r := &segmentReader{ctx: ctx, op: pagers[0].op(), ch: make(chan segmentPage, workers), cancel: cancel, running: len(pagers)}
	var next atomic.Int64
	for range workers {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(pagers) || !r.read(ctx, pagers[i]) {
					return
				}
			}
		}()
	}
	return r
}

// read hands over every page of p, then its end; false when p failed or
// the reader is stopping. A panic while reading is p's error.
func (r *segmentReader) read(ctx context.Context, p *pager) bool {
	for {
		var pg page
		err := Safely(func() (err error) {
			pg, err = p.next(ctx)
			return err
		})
		msg := segmentPage{items: pg.items, rec: pg.rec, count: pg.count, err: err}
		if err == io.EOF {
			msg = segmentPage{done: true}
		}
		select {
		case r.ch <- msg:
		case <-ctx.Done():
			if msg.rec != nil {
				msg.rec.Release()
			}
			return false
		}
		if err != nil {
			return err == io.EOF
		}
	}
}

// emptyPages says whether segmentReader.next returns pages with no items.
type emptyPages int

const (
	skipEmpty emptyPages = iota // reading items: an empty page adds nothing
	keepEmpty                   // counting: every page carries its count
)

// next returns the next page (skipping empty ones unless asked to keep
// them), io.EOF when every segment has finished.
func (r *segmentReader) next(empty emptyPages) (segmentPage, error) {
	for r.running > 0 {
		var msg segmentPage
		select {
		case msg = <-r.ch:
		case <-r.ctx.Done():
			// A segment that saw the cancellation may have quit without
			// sending; the statement's context says why.
			r.stop()
			return segmentPage{}, DynamoError(r.op, r.ctx.Err())
		}
		switch {
		case msg.done:
			r.running--
		case msg.err != nil:
			r.stop()
			return segmentPage{}, msg.err
		case len(msg.items) > 0 || (msg.rec != nil && msg.rec.NumRows() > 0) || empty == keepEmpty:
			return msg, nil
		case msg.rec != nil:
			msg.rec.Release()
		}
	}
	return segmentPage{}, io.EOF
}

// stop cancels the segments still reading, waits for them, and releases
// pages nobody took.
func (r *segmentReader) stop() {
	if r == nil {
		return
	}
	r.cancel()
	r.wg.Wait()
	for {
		select {
		case msg := <-r.ch:
			if msg.rec != nil {
				msg.rec.Release()
			}
		default:
			return
		}
	}
}
