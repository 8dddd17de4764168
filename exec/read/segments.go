package read

import (
	"context"
	"io"
)

// segmentReader runs pagers on a fan-out (a parallel Scan's segments, a
// count's requests, or one read-ahead pager), each pager reading its next
// page as soon as the previous one is handed over (one page buffered per
// worker), and yields pages as they arrive. A worker takes the next pager
// when its own has ended.
type segmentReader struct {
	op      string // Query or Scan, for messages
	ch      chan page
	fan     *fanOut
	running int // pagers that have not finished
	stopped bool
}

// startSegments reads pagers on at most workers goroutines.
func startSegments(ctx context.Context, pagers []*pager, workers int) *segmentReader {
	workers = min(max(workers, 1), len(pagers))
	r := &segmentReader{op: pagers[0].op(), ch: make(chan page, workers), running: len(pagers)}
	r.fan = startFanOut(ctx, len(pagers), workers, r.op, func(ctx context.Context, i int) error {
		return r.read(ctx, pagers[i])
	})
	return r
}

// read hands over every page of p, then its end (a page with done set).
func (r *segmentReader) read(ctx context.Context, p *pager) error {
	for {
		pg, err := p.next(ctx)
		if err == io.EOF {
			pg = page{done: true}
		} else if err != nil {
			return err
		}
		select {
		case r.ch <- pg:
		case <-ctx.Done():
			pg.release()
			return DynamoError(r.op, ctx.Err())
		}
		if pg.done {
			return nil
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
// them), io.EOF when every pager has finished.
func (r *segmentReader) next(empty emptyPages) (page, error) {
	for r.running > 0 {
		var pg page
		select {
		case pg = <-r.ch:
		case <-r.fan.ctx.Done():
			// A pager failed (that is the error), or the statement's
			// context ended (a pager that saw it may have quit without
			// sending; the context says why).
			err := r.stop()
			if err == nil {
				err = DynamoError(r.op, r.fan.ctx.Err())
			}
			return page{}, err
		}
		switch {
		case pg.done:
			r.running--
		case !pg.empty() || empty == keepEmpty:
			return pg, nil
		default:
			pg.release()
		}
	}
	return page{}, io.EOF
}

// stop cancels the pagers still reading, waits for them, releases pages
// nobody took, and returns the error a pager failed with, if any.
func (r *segmentReader) stop() error {
	if r == nil || r.stopped {
		return nil
	}
	r.stopped = true
	err := r.fan.stop()
	for {
		select {
		case pg := <-r.ch:
			pg.release()
		default:
			return err
		}
	}
}
