package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// subqueriesOp reads every subquery of a statement to its end, at the
// first Next, into the rows its expressions look up (eval.SubqueryRows, put
// in expr.SubqueryResult), and then passes its input's batches through.
// The input is asked for nothing before the subqueries are read, so no
// expression that uses them is evaluated earlier.
type subqueriesOp struct {
	mem   subqueryMemory
	node  *planner.Subqueries
	input Operator
	reads []Operator // nil once read and closed
	ready bool
}

func buildSubqueries(env *Env, n *planner.Subqueries, leaf leafFunc) (Operator, error) {
	if len(n.Reads) != len(n.Subs) {
		return nil, execErrorf(diag.CodeInternal, "plan node Subqueries has %d reads for %d subqueries", len(n.Reads), len(n.Subs))
	}
	ops, err := buildInputs(env, n.Inputs(), leaf)
	if err != nil {
		return nil, err
	}
	return &subqueriesOp{mem: subqueryMemory{env: env}, node: n, input: ops[0], reads: ops[1:]}, nil
}

func (op *subqueriesOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !op.ready {
		for i, r := range op.reads {
			if r == nil {
				continue
			}
			sub := op.node.Subs[i]
			rows, err := collectSubquery(ctx, r, sub, &op.mem)
			r.Close()
			op.reads[i] = nil
			if err != nil {
				return nil, err
			}
			sub.Result.Store(rows)
		}
		op.ready = true
	}
	return op.input.Next(ctx)
}

// collectSubquery reads a subquery's batches to the end, copying each
// row's values (its correlation values, then its value) into rows.
func collectSubquery(ctx context.Context, r Operator, sub *planner.SubqueryRead, mem *subqueryMemory) (*eval.SubqueryRows, error) {
	rows := eval.NewSubqueryRows(sub.Keys, sub.Empty)
	width := sub.Keys + 1
	row := make([]value.Value, width)
	for {
		rec, err := r.Next(ctx)
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		cols := make([]columnar.Column, min(width, int(rec.NumCols())))
		for c := range cols {
			cols[c] = columnar.ColumnOf(rec, c)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			row = row[:len(cols)]
			for c, col := range cols {
				row[c] = col.Value(i)
			}
			rows.Add(row) // Add copies what it keeps
		}
		rec.Release()
		if err := mem.grow(rows, sub.Number); err != nil {
			return nil, err
		}
	}
}

func (op *subqueriesOp) Close() error {
	op.mem.release()
	for i, r := range op.reads {
		if r != nil {
			r.Close()
			op.reads[i] = nil
		}
	}
	return op.input.Close()
}
