package batchwrite

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// Result is what a writer has done so far.
type Result struct {
	// Puts is how many items were given to Put (and accepted).
	Puts int64
	// Written is how many of them DynamoDB confirmed. A put superseded by
	// a later put of the same key before either was sent counts as
	// written once the later one is: the table holds what putting both in
	// order would leave.
	Written int64
	// Superseded is how many puts a later put of the same key replaced
	// before they were sent.
	Superseded int64
	// NotWritten is Puts - Written once every request has ended: the puts
	// of the keys in Unwritten.
	NotWritten int64
	// Unwritten are the keys whose items were not written, once a request
	// failed or the writer was cancelled (every key not written is here),
	// in the order they were put.
	Unwritten []Key
	// WCU is the write capacity the responses reported; TableWCU and
	// Indexes split it by table and by index (ReturnConsumedCapacity
	// INDEXES; TOTAL fills only WCU).
	WCU      float64
	TableWCU float64
	Indexes  map[string]float64
	// Requests is how many BatchWriteItem requests were answered or
	// failed; Unprocessed how many puts came back in UnprocessedItems
	// (and were sent again).
	Requests    int
	Unprocessed int64
}

// Progress is a snapshot for a progress line and a checkpoint.
type Progress struct {
	Written int64
	WCU     float64
	// Confirmed is the length of the longest run of puts, from the
	// first, that are all written: put number Confirmed (0-based) is the
	// first one that may not be.
	Confirmed int64
}

// Snapshot returns the writer's progress.
func (w *Writer) Snapshot() Progress {
	w.mu.Lock()
	defer w.mu.Unlock()
	return Progress{Written: w.res.Written, WCU: w.res.WCU, Confirmed: w.confirmed}
}

// Flush sends what is queued, waits for every request to end and returns
// the result so far. Its error is nil when every put was written, else an
// *UnwrittenError (as a *diag.Error's Cause) naming every key not written.
// The writer can be used again after Flush (unless it has failed).
func (w *Writer) Flush(ctx context.Context) (Result, error) {
	w.mu.Lock()
	if w.cur != nil {
		if w.failed != nil {
			b := w.cur
			w.cur, w.curKeys = nil, map[string]int{}
			w.unwrittenLocked(b.entries, w.failed)
		} else {
			w.dispatchLocked(ctx)
		}
	}
	for w.running > 0 {
		w.changed.Wait()
	}
	q := w.queue
	w.queue = nil
	res := w.resultLocked()
	failed := w.failed
	w.mu.Unlock()
	if q != nil {
		close(q)
		w.workers.Wait()
	}
	if failed == nil {
		return res, nil
	}
	return res, unwrittenError(w.table, res, failed)
}

func (w *Writer) resultLocked() Result {
	r := w.res
	slices.SortFunc(w.unwritten, func(a, b unwrittenKey) int { return cmp.Compare(a.seq, b.seq) })
	r.Unwritten = make([]Key, len(w.unwritten))
	for i, u := range w.unwritten {
		r.Unwritten[i] = u.key
	}
	r.Indexes = make(map[string]float64, len(w.res.Indexes))
	for k, v := range w.res.Indexes {
		r.Indexes[k] = v
	}
	return r
}

// UnwrittenError lists the keys a writer did not write and why.
type UnwrittenError struct {
	Table   string
	Written int64
	Puts    int64
	Keys    []Key
	Err     error // the first failure
}

func (e *UnwrittenError) Error() string { return unwrittenMessage(e, len(e.Keys)) }
func (e *UnwrittenError) Unwrap() error { return e.Err }

// maxListed bounds the keys a message spells out; UnwrittenError.Keys and
// Result.Unwritten hold them all.
const maxListed = 100

func unwrittenMessage(e *UnwrittenError, listed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d items written; %d not written (", e.Table, e.Written, e.Puts, len(e.Keys))
	for i, k := range e.Keys[:min(listed, len(e.Keys))] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(k.String())
	}
	if n := len(e.Keys) - listed; n > 0 {
		fmt.Fprintf(&b, "; and %d more", n)
	}
	b.WriteString("): ")
	var de *diag.Error
	if errors.As(e.Err, &de) {
		b.WriteString(de.Msg)
	} else {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// unwrittenError is the writer's failure as exec's error: the first
// failure's code, with the counts and the keys.
func unwrittenError(table string, res Result, failed error) error {
	ue := &UnwrittenError{Table: table, Written: res.Written, Puts: res.Puts, Keys: res.Unwritten, Err: failed}
	code, hint := diag.CodeDynamo, ""
	var de *diag.Error
	if errors.As(failed, &de) {
		code, hint = de.Code, de.Hint
	}
	if hint == "" {
		hint = "puts are idempotent: writing the items not written again is safe"
	}
	return &diag.Error{Phase: diag.Execute, Code: code, Msg: unwrittenMessage(ue, maxListed), Hint: hint, Cause: ue}
}
