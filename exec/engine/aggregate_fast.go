package engine

import (
	"context"
	"encoding/binary"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The fast aggregation path handles the common report shape — GROUP BY
// plain attributes, aggregates of plain attributes or COUNT(*) — column by
// column on the Arrow arrays, without building a value per cell. It keys
// groups with exactly the bytes appendGroupKey would produce, so batches
// taking the fast and the general path share groups.

// fastPlan says which attribute each group key and aggregate reads; ok is
// false when any of them is more than a plain attribute.
type fastPlan struct {
	ok     bool
	groups []expr.ColumnID
	args   []*expr.ColumnID // nil: COUNT(*)
}

func planFast(groups []expr.Expr, aggs []expr.Aggregate) fastPlan {
	plain := func(e expr.Expr) (expr.ColumnID, bool) {
		c, ok := e.(expr.Column)
		if !ok || len(c.Path) != 1 || c.Path[0].IsIndex {
			return expr.NoColumn, false
		}
		return c.ID, true
	}
	fp := fastPlan{ok: true}
	for _, g := range groups {
		fc, ok := plain(g)
		if !ok {
			return fastPlan{}
		}
		fp.groups = append(fp.groups, fc)
	}
	for _, a := range aggs {
		if a.Arg == nil {
			fp.args = append(fp.args, nil)
			continue
		}
		fc, ok := plain(a.Arg)
		if !ok {
			return fastPlan{}
		}
		fp.args = append(fp.args, &fc)
	}
	return fp
}

// appendCellKey appends the group key bytes of row i of a column: the same
// bytes appendGroupKey gives for its value (NULLs all as Missing).
func appendCellKey(dst []byte, c columnar.Column, present bool, i int) []byte {
	if !present || c.IsMissing(i) {
		return append(dst, byte(value.Missing))
	}
	switch c.Encoding() {
	case columnar.EncString:
		s := c.Array().(*array.String).Value(i)
		return appendText(dst, value.String, s)
	case columnar.EncNumberText:
		s := c.Array().(*array.String).Value(i)
		return appendText(dst, value.Number, s)
	case columnar.EncInt64:
		var num [20]byte
		text := strconv.AppendInt(num[:0], c.Array().(*array.Int64).Value(i), 10)
		dst = append(dst, byte(value.Number))
		dst = binary.AppendUvarint(dst, uint64(len(text)))
		return append(dst, text...)
	case columnar.EncBinary:
		b := c.Array().(*array.Binary).Value(i)
		dst = append(dst, byte(value.Binary))
		dst = binary.AppendUvarint(dst, uint64(len(b)))
		return append(dst, b...)
	case columnar.EncValue:
		b := c.Array().(*array.Binary).Value(i)
		if len(b) > 0 && value.Kind(b[0]) == value.Null {
			return append(dst, byte(value.Missing))
		}
		return append(dst, b...)
	}
	return appendGroupKey(dst, c.Value(i))
}

func appendText(dst []byte, k value.Kind, s string) []byte {
	dst = append(dst, byte(k))
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// foldFast folds one batch on the fast path.
func (op *aggregateOp) foldFast(ctx context.Context, in arrow.RecordBatch) error {
	fp := op.fast
	op.row.reset(in)
	op.spilled = 0
	n := int(in.NumRows())
	keyCols := make([]columnar.Column, len(fp.groups))
	keyPresent := make([]bool, len(fp.groups))
	for k, g := range fp.groups {
		keyCols[k], keyPresent[k] = op.row.column(g)
	}
	if cap(op.rowGroups) < n {
		op.rowGroups = make([]*group, n)
	}
	rowGroups := op.rowGroups[:n]
	for i := 0; i < n; i++ {
		op.buf = op.buf[:0]
		for k := range keyCols {
			op.buf = appendCellKey(op.buf, keyCols[k], keyPresent[k], i)
		}
		grp := op.groups.find(op.buf)
		if grp == nil {
			ok, err := op.admit(len(op.buf))
			if err != nil {
				return err
			}
			if !ok {
				op.markSpilled(i, n)
				rowGroups[i] = nil
				continue
			}
			keys := make([]value.Value, len(keyCols))
			for k := range keyCols {
				if keyPresent[k] {
					keys[k] = keyCols[k].OwnedValue(i)
				}
			}
			grp = op.newGroup(keys)
			op.groups.insert(op.buf, grp)
			op.order = append(op.order, grp)
		}
		rowGroups[i] = grp
	}
	if op.spilled > 0 {
		return op.foldKept(ctx, in, rowGroups)
	}
	return op.foldColumns(rowGroups)
}

// foldColumns folds every aggregate's column of the batch op.row is bound
// to, row i into rowGroups[i].
func (op *aggregateOp) foldColumns(rowGroups []*group) error {
	fp := op.fast
	for a, arg := range fp.args {
		if err := op.foldColumn(a, arg, rowGroups); err != nil {
			return err
		}
	}
	return nil
}

// foldColumn adds one aggregate's input column to each row's group.
func (op *aggregateOp) foldColumn(a int, arg *expr.ColumnID, rowGroups []*group) error {
	if arg == nil { // COUNT(*)
		for _, g := range rowGroups {
			g.accs[a].(*countAcc).n++
		}
		return nil
	}
	c, present := op.row.column(*arg)
	if !present {
		for _, g := range rowGroups {
			if err := g.accs[a].add(value.MissingValue()); err != nil {
				return err
			}
		}
		return nil
	}
	arr := c.Array()
	if ints, ok := arr.(*array.Int64); ok && c.Encoding() == columnar.EncInt64 {
		for i, g := range rowGroups {
			if arr.IsNull(i) {
				continue
			}
			switch acc := g.accs[a].(type) {
			case *countAcc:
				acc.n++
			case *sumAcc:
				if err := acc.addInt(ints.Value(i)); err != nil {
					return err
				}
			default:
				if err := acc.add(c.Value(i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for i, g := range rowGroups {
		if cnt, ok := g.accs[a].(*countAcc); ok {
			if !c.IsMissing(i) && !(c.Encoding() == columnar.EncValue && c.Value(i).IsNull()) {
				cnt.n++
			}
			continue
		}
		if err := g.accs[a].add(c.Value(i)); err != nil {
			return err
		}
	}
	return nil
}
