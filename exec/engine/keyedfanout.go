package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// keyedFanoutOp reads items by key for the values of its subquery's first
// column: it pulls subquery batches until a round holds a full request's
// worth of new values (100 keys for BatchGetItem, --concurrency Queries),
// looks them up through exec/read as a lookup join does, and returns the
// items found as one batch. Each distinct value is looked up once over the
// whole statement, so a repeated value never repeats an item.
type keyedFanoutOp struct {
	env  *Env
	node *planner.KeyedFanout
	sub  Operator
	seen map[string]bool
	rows int // subquery rows seen (a scalar subquery allows one)
	done bool
}

func newKeyedFanoutOp(env *Env, n *planner.KeyedFanout, sub Operator) *keyedFanoutOp {
	return &keyedFanoutOp{env: env, node: n, sub: sub, seen: map[string]bool{}}
}

func (op *keyedFanoutOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for !op.done {
		vals, err := op.round(ctx)
		if err != nil {
			return nil, err
		}
		if len(vals) == 0 {
			continue
		}
		items, err := read.Lookup(ctx, op.reader(), op.node.Lookup, vals)
		if err != nil {
			return nil, err
		}
		if len(items) > 0 {
			return itemsBatch(op.env.Mem, items, op.node.Lookup.KeyAttrs), nil
		}
	}
	return nil, io.EOF
}

// round reads subquery batches until it has a round's worth of values not
// looked up before, or the subquery ends. The values are copies.
func (op *keyedFanoutOp) round(ctx context.Context) ([]value.Value, error) {
	want := op.env.concurrency()
	if op.node.Lookup.Op == planner.OpBatchGetItem {
		want = ddblimits.BatchGetKeys
	}
	var vals []value.Value
	for len(vals) < want {
		rec, err := op.sub.Next(ctx)
		if err == io.EOF {
			op.done = true
			break
		}
		if err != nil {
			return nil, err
		}
		op.rows += int(rec.NumRows())
		if op.node.Scalar && op.rows > 1 {
			rec.Release()
			return nil, execErrorf(diag.CodeSubqueryRows, "scalar subquery returned more than one row (subquery %d)", op.node.Number).
				Hintf("make it return at most one row (a condition on a key, an aggregate, or LIMIT 1), or compare with IN (SELECT …)")
		}
		if rec.NumCols() > 0 {
			col := columnar.ColumnOf(rec, 0)
			for i := 0; i < int(rec.NumRows()); i++ {
				v := col.Value(i)
				if !op.keyValue(v) {
					continue
				}
				k := valueKey(v)
				if op.seen[k] {
					continue
				}
				op.seen[k] = true
				vals = append(vals, v.Clone())
			}
		}
		rec.Release()
	}
	return vals, nil
}

// keyValue reports whether v can be a value of the key: of its type, and
// not an empty string or binary (DynamoDB refuses those as keys).
func (op *keyedFanoutOp) keyValue(v value.Value) bool {
	if v.Kind() != op.node.Lookup.KeyType {
		return false
	}
	return !((v.Kind() == value.String || v.Kind() == value.Binary) && v.Text() == "")
}

// reader is the read environment, counting the lookups' requests as the
// fan-out node's own for EXPLAIN ANALYZE (the template is no plan node).
func (op *keyedFanoutOp) reader() *read.Env {
	r := op.env.reader()
	if nodeStats := r.NodeStats; nodeStats != nil {
		r.NodeStats = func(n planner.Node) *read.Stats {
			if n == op.node.Lookup {
				return nodeStats(op.node)
			}
			return nodeStats(n)
		}
	}
	return r
}

func (op *keyedFanoutOp) Close() error {
	op.done = true
	return op.sub.Close()
}
