package engine

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
)

// oneRowOp yields one row with no columns (SELECT without FROM).
type oneRowOp struct {
	env  *Env
	done bool
}

func (op *oneRowOp) Next(context.Context) (arrow.RecordBatch, error) {
	if op.done {
		return nil, io.EOF
	}
	op.done = true
	b := columnar.NewRowBuilder(op.env.Mem, nil)
	b.Append(nil)
	return b.Build(), nil
}

func (op *oneRowOp) Close() error { op.done = true; return nil }
