package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// maxLookupCache bounds the lookup results kept for reuse across rounds;
// past it the cache starts over at the next round (lookups may repeat,
// results stay right; one round may add its values beyond the bound).
const maxLookupCache = 100_000

// lookupJoinOp joins each input row to the items found by key. It pulls
// input batches until it has a full request's worth of new lookup values
// (100 keys for BatchGetItem, one round of concurrent Queries otherwise),
// looks them up, then emits those batches joined, in input order.
type lookupJoinOp struct {
	env     *Env
	node    *planner.LookupJoin
	input   Operator
	emitter joinEmitter
	row     batchRow // an input batch, bound to the probe's columns
	cache   map[string][]value.Value
	out     []arrow.RecordBatch
	done    bool
}

func newLookupJoinOp(env *Env, n *planner.LookupJoin, input Operator) *lookupJoinOp {
	return &lookupJoinOp{env: env, node: n, input: input, cache: map[string][]value.Value{},
		row:     newBatchRow(n.Probe),
		emitter: newJoinEmitter(env, n.Kind, n.Input, n.Source, n.KeyAttrs, n.Residual)}
}

// pending is an input batch waiting for its lookups.
type pending struct {
	rec    arrow.RecordBatch
	values []value.Value // probe value per row (Missing: cannot match)
}

func (op *lookupJoinOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if len(op.out) > 0 {
			b := op.out[0]
			op.out = op.out[1:]
			return b, nil
		}
		if op.done {
			return nil, io.EOF
		}
		if err := op.step(ctx); err != nil {
			return nil, err
		}
	}
}

// step reads input until a lookup round is worth sending, sends it, and
// queues the joined batches. A round takes input batches until they hold
// `want` rows (100 for BatchGetItem: at most a full request of new values;
// --concurrency for Queries), not until `want` new values: when values
// repeat or are cached the input still streams round by round instead of
// being read whole, and a LIMIT above stops the driving reads too.
func (op *lookupJoinOp) step(ctx context.Context) error {
	want := op.env.concurrency()
	if op.node.Op == planner.OpBatchGetItem {
		want = ddblimits.BatchGetKeys
	}
	if len(op.cache) > maxLookupCache {
		// Start over between rounds, never within one: the round's rows
		// find their matches in the cache, fresh or not.
		op.cache = map[string][]value.Value{}
	}
	var batches []pending
	fresh := map[string]value.Value{}
	defer func() {
		for _, p := range batches {
			p.rec.Release()
		}
	}()
	for rows := 0; rows < want; {
		rec, err := op.input.Next(ctx)
		if err == io.EOF {
			op.done = true
			break
		}
		if err != nil {
			return err
		}
		rows += int(rec.NumRows())
		p, err := op.probe(rec)
		batches = append(batches, p)
		if err != nil {
			return err
		}
		for _, v := range p.values {
			if v.Kind() == value.Missing {
				continue
			}
			k := valueKey(v)
			if _, cached := op.cache[k]; !cached {
				fresh[k] = v
			}
		}
	}
	if err := op.resolve(ctx, fresh); err != nil {
		return err
	}
	for _, p := range batches {
		matches := make([][]value.Value, len(p.values))
		for i, v := range p.values {
			if v.Kind() != value.Missing {
				matches[i] = op.cache[valueKey(v)]
			}
		}
		out, err := op.emitter.emit(p.rec, matches)
		if err != nil {
			return err
		}
		op.out = append(op.out, out...)
	}
	return nil
}

// probe evaluates the lookup value of every row. Values that cannot be a key
// of the right type (NULL, another type, an empty string) never match and
// are never sent.
func (op *lookupJoinOp) probe(rec arrow.RecordBatch) (pending, error) {
	row := &op.row
	row.reset(rec)
	p := pending{rec: rec, values: make([]value.Value, rec.NumRows())}
	for i := range p.values {
		row.i = i
		v, err := eval.Eval(op.node.Probe, row)
		if err != nil {
			return p, evalError(err)
		}
		if v.Kind() != op.node.KeyType || ((v.Kind() == value.String || v.Kind() == value.Binary) && v.Text() == "") {
			v = value.MissingValue()
		}
		p.values[i] = v
	}
	return p, nil
}

// resolve looks up every fresh value and fills the cache (values without
// items map to nil, so they are not looked up again).
func (op *lookupJoinOp) resolve(ctx context.Context, fresh map[string]value.Value) error {
	if len(fresh) == 0 {
		return nil
	}
	vals := make([]value.Value, 0, len(fresh))
	for k, v := range fresh {
		op.cache[k] = nil
		vals = append(vals, v)
	}
	found, err := read.Lookup(ctx, op.env.reader(), op.node, vals)
	if err != nil {
		return err
	}
	for _, it := range found {
		k := valueKey(it.Attr(op.node.Attr))
		op.cache[k] = append(op.cache[k], it)
	}
	return nil
}

func (op *lookupJoinOp) Close() error {
	for _, b := range op.out {
		b.Release()
	}
	op.out = nil
	op.done = true
	return op.input.Close()
}
