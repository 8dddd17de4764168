package batchwrite

import (
	"context"
	"fmt"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Put queues item for writing. It returns once the item is in a request
// being filled or sent (blocking while Concurrency requests are in
// flight), not once it is written: Flush says what was. An item that no
// request could carry (no key attributes, over 400 KB) is refused here; a
// writer that has failed refuses every later item with its error.
func (w *Writer) Put(ctx context.Context, item Item) error {
	key, id, err := keyOf(w.opts.Keys, item)
	if err != nil {
		code := diag.CodeKeyType
		if w.missingKey(item) != "" {
			code = diag.CodeMissingKey
		}
		return &diag.Error{Phase: diag.Execute, Code: code, Msg: fmt.Sprintf("cannot put an item into %s: %v", w.table, err)}
	}
	v, err := value.FromItem(item)
	if err != nil {
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeValidation, Msg: fmt.Sprintf("cannot put the item %s into %s: %v", key, w.table, err)}
	}
	size := eval.ItemSize(v)
	if size > ddblimits.ItemBytes {
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeValidation,
			Msg:  fmt.Sprintf("cannot put the item %s into %s: it is %d bytes, and DynamoDB items are at most 400 KB (%d bytes)", key, w.table, size, ddblimits.ItemBytes),
			Hint: "store large values elsewhere (S3) and keep a reference in the item"}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed != nil {
		return w.refusal()
	}
	seq := w.seq
	w.seq++
	w.res.Puts++
	if i, ok := w.curKeys[id]; ok {
		// The same key twice in one request is a ValidationException; a
		// put replaces the whole item, so the later one alone has the
		// effect of both in order.
		e := w.cur.entries[i]
		w.cur.size += size - e.size
		e.item, e.size = item, size
		e.seqs = append(e.seqs, seq)
		w.res.Superseded++
		return nil
	}
	if w.cur != nil && w.cur.size+size > maxBytes {
		w.dispatchLocked(ctx)
	}
	if w.cur == nil {
		w.cur = &batch{ctx: ctx}
	}
	w.curKeys[id] = len(w.cur.entries)
	w.cur.entries = append(w.cur.entries, &entry{id: id, key: key, item: item, size: size, seqs: []int64{seq}})
	w.cur.size += size
	if len(w.cur.entries) == maxItems {
		w.dispatchLocked(ctx)
	}
	return nil
}

// missingKey is the first key attribute item lacks ("" when it has all).
func (w *Writer) missingKey(item Item) string {
	for _, n := range w.opts.Keys {
		if item[n] == nil {
			return n
		}
	}
	return ""
}

// dispatchLocked hands the batch being filled to the workers. A batch
// holding a key that a batch in flight also holds waits for that one to
// finish, so that puts of one key reach DynamoDB in the order they were
// made. Called with w.mu held; it releases it while it waits.
func (w *Writer) dispatchLocked(ctx context.Context) {
	b := w.cur
	w.cur, w.curKeys = nil, map[string]int{}
	if b == nil || len(b.entries) == 0 {
		return
	}
	b.ctx = ctx
	for w.holdsInflight(b) {
		w.changed.Wait()
	}
	for _, e := range b.entries {
		w.inflight[e.id]++
	}
	w.running++
	if w.queue == nil {
		w.queue = make(chan *batch)
		for range w.opts.Concurrency {
			w.workers.Add(1)
			go w.work(w.queue)
		}
	}
	q := w.queue
	w.mu.Unlock()
	select {
	case q <- b:
		w.mu.Lock()
	case <-ctx.Done():
		w.mu.Lock()
		w.endLocked(b, b.entries, explain(ctx.Err()))
	}
}

func (w *Writer) holdsInflight(b *batch) bool {
	for _, e := range b.entries {
		if w.inflight[e.id] > 0 {
			return true
		}
	}
	return false
}

// refusal is Put's error once the writer has failed: nothing more is sent.
func (w *Writer) refusal() error {
	why := w.failed.Error()
	if de, ok := diag.As(w.failed); ok {
		why = de.Msg
	}
	e := &diag.Error{Phase: diag.Execute, Code: diag.CodeOf(w.failed), Msg: "not writing to " + w.table + " after a request failed: " + why, Cause: w.failed}
	if e.Code == "" {
		e.Code = diag.CodeDynamo
	}
	return e
}
