package offline

import (
	"context"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// A stream reads a planned source's items from its files, in file order,
// with every check a load makes (JSON, key attributes and types,
// duplicate keys, what DynamoDB would reject, an export's item counts),
// and hands them to a streamed Scan (memdb.Feed) as memdb checked them. It
// runs the loader's own pipeline on its own goroutines, ahead of the pages
// by a few batches; an error reaches the reader after the items before it.

// streamBatch is a batch of checked items, or the error that ended the
// stream after them.
type streamBatch struct {
	items []memdb.FedItem
	err   error
}

// streamAhead is how many batches a stream decodes before they are read:
// about a 1 MB page of typical items, so that decoding the next page
// overlaps with the reader's work on this one.
const streamAhead = 16

type stream struct {
	cancel  context.CancelFunc
	batches chan streamBatch
	done    chan struct{}
	cur     []memdb.FedItem
	err     error // the error the stream ended with, once met
	ended   bool
}

var _ memdb.Feed = (*stream)(nil)

// openStream starts reading ps (whose table db holds, empty) through the
// loader's pipeline, decoding only the attributes need names (nil: all;
// the others are checked and sized, see skip.go).
func openStream(db *memdb.DB, fsys fileSystem, ps *plannedSource, typeFrom []pos, need map[string]bool) *stream {
	ctx, cancel := context.WithCancel(context.Background())
	st := &stream{cancel: cancel, batches: make(chan streamBatch, streamAhead), done: make(chan struct{})}
	l := &loader{ctx: ctx, db: db, w: db.Loader(), fsys: fsys, data: fsys, claimed: map[string]string{}, need: need}
	spec := *ps.spec
	spec.keys = append([]keyAttr(nil), ps.spec.keys...)
	if len(spec.gsis)+len(spec.lsis) > 0 {
		l.need = nil // index keys are checked too: decode everything
	}
	s := l.sink(&spec).prepared(typeFrom)
	send := func(b streamBatch) bool {
		select {
		case st.batches <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	check, err := l.w.Checker(spec.name)
	s.check = check
	s.emit = func(items []memdb.FedItem) error {
		if !send(streamBatch{items: items}) {
			return ctx.Err()
		}
		return nil
	}
	go func() {
		defer close(st.done)
		defer close(st.batches)
		if err == nil {
			err = l.run(ps, s)
		}
		if err == nil {
			err = s.flushFed()
		}
		if err != nil && ctx.Err() == nil {
			send(streamBatch{err: err})
		}
	}()
	return st
}

// Next is the next item; ok is false at the end of the stream.
func (st *stream) Next(ctx context.Context) (memdb.FedItem, bool, error) {
	for len(st.cur) == 0 {
		if st.err != nil {
			return memdb.FedItem{}, false, st.err
		}
		if st.ended {
			return memdb.FedItem{}, false, nil
		}
		select {
		case b, ok := <-st.batches:
			if !ok {
				st.ended = true
				continue
			}
			st.cur, st.err = b.items, b.err
		case <-ctx.Done():
			return memdb.FedItem{}, false, ctx.Err()
		}
	}
	it := st.cur[0]
	st.cur = st.cur[1:]
	return it, true, nil
}

// close stops the stream's goroutines and waits for them.
func (st *stream) close() {
	st.cancel()
	<-st.done
}
