package partition

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// maxNameBytes is the longest file or directory name file systems take
// (NAME_MAX on Linux and macOS, 255 UTF-16 units on Windows).
const maxNameBytes = 255

// route sends rows [from, to) of rec to the files of their partitions:
// the rows of each partition, in their order, as one batch without the
// partition columns.
func (w *Writer) route(rec arrow.RecordBatch, from, to int64) error {
	src := rec
	if from != 0 || to != rec.NumRows() {
		src = rec.NewSlice(from, to)
		defer src.Release()
	}
	keys, groups, err := w.groupRows(src)
	if err != nil {
		return err
	}
	data := w.project(src)
	defer data.Release()
	for i, key := range keys {
		sub, err := w.rowsOf(data, groups[i], len(keys) == 1)
		if err != nil {
			return err
		}
		if w.h.Dynamic {
			sub = dropAbsent(sub)
		}
		p, err := w.partFor(key)
		if err != nil {
			sub.Release()
			return err
		}
		err = p.w.WriteBatch(sub)
		p.rows += sub.NumRows()
		sub.Release()
		if err != nil {
			return err
		}
	}
	n := to - from
	w.unit.rows += n
	if rows := rec.NumRows(); rows > 0 {
		w.unit.bytes += int64(recordBytes(rec)) * n / rows
	}
	return nil
}

// groupRows is each row's partition directory (COL=value/COL2=value2),
// the distinct ones in the order of their first row, with the rows of
// each.
func (w *Writer) groupRows(rec arrow.RecordBatch) ([]string, [][]int64, error) {
	cols := make([]*columnar.Column, len(w.opt.Columns))
	for i, c := range w.opt.Columns {
		idx := -1
		if w.h.Dynamic {
			if f := rec.Schema().FieldIndices(c); len(f) > 0 {
				idx = f[0]
			}
		} else {
			idx = w.fixed[i]
		}
		if idx >= 0 {
			col := columnar.ColumnOf(rec, idx)
			cols[i] = &col
		}
	}
	var keys []string
	var groups [][]int64
	index := map[string]int{}
	var buf []byte
	for r := 0; r < int(rec.NumRows()); r++ {
		buf = buf[:0]
		for i, col := range cols {
			if i > 0 {
				buf = append(buf, '/')
			}
			comp := len(buf)
			buf = append(buf, w.names[i]...)
			buf = append(buf, '=')
			text := ""
			if col != nil {
				t, err := partitionText(col.Value(r), w.opt.Columns[i])
				if err != nil {
					return nil, nil, err
				}
				text = t
			}
			buf = append(buf, escapePathName(text)...)
			if len(buf)-comp > maxNameBytes {
				return nil, nil, &diag.Error{Phase: diag.Execute, Code: diag.CodeInvalid,
					Msg:  fmt.Sprintf("--partition-by %s: a value makes the directory name %.40s… %d bytes long, more than the %d a file system allows", w.opt.Columns[i], buf[comp:], len(buf)-comp, maxNameBytes),
					Hint: "partition by a shorter value, e.g. SELECT …, substring(col, 1, 20) AS p … --partition-by p"}
			}
		}
		g, ok := index[string(buf)]
		if !ok {
			g = len(keys)
			key := string(buf)
			index[key] = g
			keys = append(keys, key)
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], int64(r))
	}
	return keys, groups, nil
}

// partitionText is a partition value as its directory shows it: a string
// as it is, a number's exact digits, true or false, binary as base64; ""
// (the default partition) for NULL and a missing attribute. Documents and
// sets have no such text.
func partitionText(v value.Value, col string) (string, error) {
	switch v.Kind() {
	case value.Missing, value.Null:
		return "", nil
	case value.String, value.Number:
		return strings.Clone(v.Text()), nil
	case value.Bool:
		if v.Bool() {
			return "true", nil
		}
		return "false", nil
	case value.Binary:
		return base64.StdEncoding.EncodeToString(v.Bytes()), nil
	}
	return "", &diag.Error{Phase: diag.Execute, Code: diag.CodeType,
		Msg:  fmt.Sprintf("--partition-by %s: a row's %s is a %s, and a partition value must be a string, number, boolean or binary", col, col, v.Kind()),
		Hint: "partition by a scalar attribute, or select one element of the document and partition by its alias: SELECT …, doc.k AS p … --partition-by p"}
}

// project is rec without the partition columns.
func (w *Writer) project(rec arrow.RecordBatch) arrow.RecordBatch {
	var keep []int
	if w.h.Dynamic {
		drop := map[int]bool{}
		for _, c := range w.opt.Columns {
			if f := rec.Schema().FieldIndices(c); len(f) > 0 {
				drop[f[0]] = true
			}
		}
		for i := 0; i < int(rec.NumCols()); i++ {
			if !drop[i] {
				keep = append(keep, i)
			}
		}
	} else {
		keep = w.keep
	}
	return selectColumns(rec, keep)
}

// selectColumns is a new batch of rec's columns keep.
func selectColumns(rec arrow.RecordBatch, keep []int) arrow.RecordBatch {
	fields := make([]arrow.Field, len(keep))
	arrs := make([]arrow.Array, len(keep))
	for i, c := range keep {
		fields[i], arrs[i] = rec.Schema().Field(c), rec.Column(c)
	}
	md := rec.Schema().Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), arrs, rec.NumRows())
}

// rowsOf is the rows of data one partition has: all of them, a slice
// when they follow one another, else a copy of those rows.
func (w *Writer) rowsOf(data arrow.RecordBatch, rows []int64, all bool) (arrow.RecordBatch, error) {
	if all {
		data.Retain()
		return data, nil
	}
	first, last := rows[0], rows[len(rows)-1]
	if last-first+1 == int64(len(rows)) {
		return data.NewSlice(first, last+1), nil
	}
	mem := w.opt.Format.Mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.AppendValues(rows, nil)
	idx := b.NewArray()
	defer idx.Release()
	ctx := compute.WithAllocator(context.Background(), mem)
	// A datum holds a reference to what it wraps, released with it.
	values, indices := compute.NewDatum(data), compute.NewDatum(idx)
	defer values.Release()
	defer indices.Release()
	out, err := compute.Take(ctx, *compute.DefaultTakeOptions(), values, indices)
	if err != nil {
		return nil, &diag.Error{Phase: diag.Execute, Code: diag.CodeInternal, Msg: fmt.Sprintf("partition: cannot gather a partition's rows: %v", err), Cause: err}
	}
	defer out.Release()
	rec := out.(*compute.RecordDatum).Value
	rec.Retain()
	return rec, nil
}

// dropAbsent drops, from a SELECT * batch, the attributes none of its
// rows has, so a partition's file holds the attributes of its own items
// only. It takes rec over.
func dropAbsent(rec arrow.RecordBatch) arrow.RecordBatch {
	n := int(rec.NumRows())
	var keep []int
	for i := 0; i < int(rec.NumCols()); i++ {
		if rec.Column(i).NullN() < n || n == 0 {
			keep = append(keep, i)
		}
	}
	if len(keep) == int(rec.NumCols()) {
		return rec
	}
	out := selectColumns(rec, keep)
	rec.Release()
	return out
}

// recordBytes is the size of a batch's Arrow buffers.
func recordBytes(rec arrow.RecordBatch) int {
	n := 0
	for _, c := range rec.Columns() {
		for _, b := range c.Data().Buffers() {
			if b != nil {
				n += b.Len()
			}
		}
	}
	return n
}
