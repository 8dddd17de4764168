package batchwrite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// work sends the batches of q until it is closed.
func (w *Writer) work(q chan *batch) {
	defer w.workers.Done()
	for b := range q {
		w.send(b)
	}
}

// send writes one batch: it sends the request, re-sends what DynamoDB
// left in UnprocessedItems with exponential backoff and full jitter, and
// records what was written and what was not.
func (w *Writer) send(b *batch) {
	ctx := b.ctx
	pending := b.entries
	for round := 0; ; round++ {
		w.mu.Lock()
		failed := w.failed
		w.mu.Unlock()
		if failed != nil {
			w.end(b, pending, failed) // not sent: an earlier request failed for good
			return
		}
		if w.opts.Pacer != nil {
			if err := w.opts.Pacer.Wait(ctx); err != nil {
				w.end(b, pending, explain(err))
				return
			}
		}
		out, err := w.client.BatchWriteItem(ctx, w.request(pending))
		if err != nil {
			w.mu.Lock()
			w.res.Requests++
			w.mu.Unlock()
			w.end(b, pending, explain(err))
			return
		}
		left := w.unprocessed(out, pending)
		w.record(pending, left, out.ConsumedCapacity)
		if len(left) == 0 {
			w.end(b, nil, nil)
			return
		}
		if round+1 >= w.opts.MaxRounds {
			w.end(b, left, &diag.Error{Phase: diag.Execute, Code: diag.CodeThrottled,
				Msg:  fmt.Sprintf("BatchWriteItem: DynamoDB still returned %d of these items as unprocessed after %d attempts", len(left), round+1),
				Hint: "the table's write capacity is exhausted: lower --rate-limit or --concurrency, or raise the table's capacity, and write the items again"})
			return
		}
		if err := w.backoff(ctx, round); err != nil {
			w.end(b, left, explain(err))
			return
		}
		pending = left
	}
}

func (w *Writer) request(entries []*entry) *dynamodb.BatchWriteItemInput {
	reqs := make([]types.WriteRequest, len(entries))
	for i, e := range entries {
		reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: e.item}}
	}
	return &dynamodb.BatchWriteItemInput{
		RequestItems:           map[string][]types.WriteRequest{w.table: reqs},
		ReturnConsumedCapacity: w.opts.Capacity,
	}
}

// unprocessed returns the entries whose puts came back unprocessed.
func (w *Writer) unprocessed(out *dynamodb.BatchWriteItemOutput, sent []*entry) []*entry {
	reqs := out.UnprocessedItems[w.table]
	if len(reqs) == 0 {
		return nil
	}
	ids := make(map[string]bool, len(reqs))
	for _, r := range reqs {
		if r.PutRequest == nil {
			continue
		}
		if _, id, err := keyOf(w.opts.Keys, r.PutRequest.Item); err == nil {
			ids[id] = true
		}
	}
	var left []*entry
	for _, e := range sent {
		if ids[e.id] {
			left = append(left, e)
		}
	}
	return left
}

// record books a response: the entries of sent not in left are written.
func (w *Writer) record(sent, left []*entry, capacity []types.ConsumedCapacity) {
	var units float64
	w.mu.Lock()
	w.res.Requests++
	w.res.Unprocessed += int64(len(left))
	for _, c := range capacity {
		if c.CapacityUnits != nil {
			units += *c.CapacityUnits
		}
		if c.Table != nil && c.Table.CapacityUnits != nil {
			w.res.TableWCU += *c.Table.CapacityUnits
		}
		for name, ic := range c.GlobalSecondaryIndexes {
			if ic.CapacityUnits != nil {
				w.res.Indexes[name] += *ic.CapacityUnits
			}
		}
		for name, ic := range c.LocalSecondaryIndexes {
			if ic.CapacityUnits != nil {
				w.res.Indexes[name] += *ic.CapacityUnits
			}
		}
	}
	w.res.WCU += units
	notWritten := make(map[*entry]bool, len(left))
	for _, e := range left {
		notWritten[e] = true
	}
	for _, e := range sent {
		if notWritten[e] {
			continue
		}
		w.res.Written += int64(len(e.seqs))
		for _, s := range e.seqs {
			w.done[s] = true
		}
	}
	for w.done[w.confirmed] {
		delete(w.done, w.confirmed)
		w.confirmed++
	}
	w.mu.Unlock()
	if w.opts.Pacer != nil {
		w.opts.Pacer.Book(units)
	}
}

// end finishes a batch: its keys leave the in-flight set, and unwritten
// (when any) are reported with err, the writer's failure if it is the
// first.
func (w *Writer) end(b *batch, unwritten []*entry, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.endLocked(b, unwritten, err)
}

func (w *Writer) endLocked(b *batch, unwritten []*entry, err error) {
	for _, e := range b.entries {
		if w.inflight[e.id]--; w.inflight[e.id] <= 0 {
			delete(w.inflight, e.id)
		}
	}
	w.running--
	w.unwrittenLocked(unwritten, err)
	w.changed.Broadcast()
}

// unwrittenLocked records entries that will not be written, and why.
func (w *Writer) unwrittenLocked(entries []*entry, err error) {
	for _, e := range entries {
		w.unwritten = append(w.unwritten, unwrittenKey{seq: e.seqs[0], key: e.key})
		w.res.NotWritten += int64(len(e.seqs))
	}
	if len(entries) > 0 && w.failed == nil {
		w.failed = err
	}
}

// backoff waits a random time up to 50 ms × 2^round, capped.
func (w *Writer) backoff(ctx context.Context, round int) error {
	ceiling := min(50*time.Millisecond<<min(round, 10), w.opts.MaxBackoff)
	t := time.NewTimer(time.Duration(rand.Int64N(int64(ceiling)) + 1))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// explain turns a request's failure into exec's error.
func explain(err error) error { return read.DynamoError("BatchWriteItem", err) }
