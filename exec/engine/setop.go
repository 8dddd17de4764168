package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// Set operations compare rows by the GROUP BY key of all their columns
// (appendCellKey): NULLs are one value and numbers compare by value. UNION
// ALL concatenates its members, named by the first; UNION is UNION ALL
// through DISTINCT, and so spills as DISTINCT does. INTERSECT and EXCEPT
// read the second member into a table of row counts, reserved from
// Env.Memory, and stream the first through it (EXCEPT adds the distinct
// rows it passes); past the limit they fail with spill.Exceeded naming
// the operation.

// buildQueryNode builds the nodes of statements made of several queries;
// ok is false for any other node.
func buildQueryNode(env *Env, n planner.Node, leaf leafFunc) (op Operator, ok bool, err error) {
	switch t := n.(type) {
	case *planner.With:
		op, err = buildWithNode(env, t, leaf)
	case *planner.CTEScan:
		s := env.cteStore(t.CTE)
		if s == nil {
			return nil, true, execErrorf(diag.CodeInternal, "CTE %s is read outside its WITH", t.CTE.Name)
		}
		op = &cteScanOp{store: s, columns: t.CTE.Columns}
	case *planner.Materialize:
		var in Operator
		if in, err = buildWith(env, t.Input, leaf); err == nil {
			op = &materializeOp{input: in}
		}
	case *planner.Derived:
		var in Operator
		if in, err = buildWith(env, t.Input, leaf); err == nil {
			op = &derivedOp{input: in, columns: t.Columns}
		}
	case *planner.SetOp:
		op, err = buildSetOp(env, t, leaf)
	default:
		return nil, false, nil
	}
	return op, true, err
}

func buildSetOp(env *Env, n *planner.SetOp, leaf leafFunc) (Operator, error) {
	ins, err := buildInputs(env, n.Inputs(), leaf)
	if err != nil {
		return nil, err
	}
	left, right := ins[0], ins[1]
	switch n.Op {
	case planner.SetUnion:
		var op Operator = &concatOp{inputs: []Operator{left, right}, columns: n.Columns}
		if !n.All {
			op = &distinctOp{env: env, input: op}
		}
		return op, nil
	}
	return &setFilterOp{env: env, node: n, left: left, right: right}, nil
}

// concatOp passes its inputs' batches one input after another, with
// columns named by position.
type concatOp struct {
	inputs  []Operator
	columns []string
	at      int
}

func (op *concatOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for op.at < len(op.inputs) {
		b, err := op.inputs[op.at].Next(ctx)
		if err == io.EOF {
			op.at++
			continue
		}
		if err != nil {
			return nil, err
		}
		return renamed(b, op.columns), nil
	}
	return nil, io.EOF
}

func (op *concatOp) Close() error {
	var first error
	for _, in := range op.inputs {
		if err := in.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// setFilterOp is INTERSECT [ALL] and EXCEPT [ALL]: left streams through
// the row counts of right. The plain forms pass each row once with the
// same table: INTERSECT zeroes a row's count when it passes it, EXCEPT
// adds the rows it passes with a count of zero.
type setFilterOp struct {
	env         *Env
	node        *planner.SetOp
	left, right Operator
	counts      map[string]int64
	reserved    int64
	built       bool
	row         batchRow
	buf         []byte
}

func (op *setFilterOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !op.built {
		if err := op.build(ctx); err != nil {
			return nil, err
		}
		op.built = true
	}
	for {
		in, err := op.left.Next(ctx)
		if err != nil {
			return nil, err
		}
		out, err := op.filter(ctx, in)
		if err != nil {
			return nil, err
		}
		if out != nil {
			return renamed(out, op.node.Columns), nil
		}
	}
}

// build reads the second member into its row counts.
func (op *setFilterOp) build(ctx context.Context) error {
	op.counts = map[string]int64{}
	var row batchRow
	for {
		b, err := op.right.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		row.reset(b)
		for i := 0; i < int(b.NumRows()); i++ {
			op.buf = rowKey(op.buf[:0], &row, i)
			if _, ok := op.counts[string(op.buf)]; !ok {
				cost := distinctRowCost(len(op.buf))
				if !op.env.Memory.TryReserve(cost) {
					b.Release()
					return spill.Exceeded(op.node.Name(), op.env.Memory, op.env.Memory.Used()+cost)
				}
				op.reserved += cost
			}
			op.counts[string(op.buf)]++
		}
		b.Release()
	}
	// The second member is done with: its reads and batches go now.
	err := op.right.Close()
	op.right = nil
	return err
}

// filter keeps the rows of in that the operation passes (releasing in),
// or returns nil when there are none.
func (op *setFilterOp) filter(ctx context.Context, in arrow.RecordBatch) (arrow.RecordBatch, error) {
	n := int(in.NumRows())
	mask := array.NewBooleanBuilder(op.env.Mem)
	defer mask.Release()
	op.row.reset(in)
	intersect := op.node.Op == planner.SetIntersect
	kept := 0
	for i := 0; i < n; i++ {
		op.buf = rowKey(op.buf[:0], &op.row, i)
		c, has := op.counts[string(op.buf)]
		var keep bool
		switch {
		case intersect:
			// ALL: each row of the second member matches one of the
			// first; plain: the first match passes, the rest do not.
			if keep = c > 0; keep && op.node.All {
				op.counts[string(op.buf)] = c - 1
			} else if keep {
				op.counts[string(op.buf)] = 0
			}
		case op.node.All:
			if keep = c == 0; !keep {
				op.counts[string(op.buf)] = c - 1
			}
		default:
			if keep = !has; keep {
				cost := distinctRowCost(len(op.buf))
				if !op.env.Memory.TryReserve(cost) {
					in.Release()
					return nil, spill.Exceeded(op.node.Name(), op.env.Memory, op.env.Memory.Used()+cost)
				}
				op.reserved += cost
				op.counts[string(op.buf)] = 0
			}
		}
		if keep {
			kept++
		}
		mask.Append(keep)
	}
	return keepRows(ctx, op.env, in, mask, kept, op.node.Name())
}

// rowKey encodes row i of the batch row is bound to, all its columns.
func rowKey(dst []byte, row *batchRow, i int) []byte {
	for _, col := range row.cols {
		dst = appendCellKey(dst, col, true, i)
	}
	return dst
}

func (op *setFilterOp) Close() error {
	op.counts = nil
	op.env.Memory.Release(op.reserved)
	op.reserved = 0
	err := op.left.Close()
	if op.right != nil {
		if rerr := op.right.Close(); err == nil {
			err = rerr
		}
		op.right = nil
	}
	return err
}
