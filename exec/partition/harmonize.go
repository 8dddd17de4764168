package partition

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// One schema for the whole layout. The Parquet writer decides each file's
// column types from that file's rows (a number column's scale is its
// most fraction digits), and with SELECT * a file holds the attributes of
// its own rows. Readers of a layout want one table schema: DuckDB with
// union_by_name casts decimal(38,2) and decimal(38,1) files to one of
// them and drops digits, Athena and Glue declare one type per column. So
// once every unit is written, harmonize gives every file the same
// columns, in the same order, of the same types, rewriting the files that
// differ (a local read and write; nothing is read from DynamoDB again):
//
//	types of the column in the files   the layout's type
//	one type (null aside)              that type
//	only decimals                      decimal128(38, the largest scale) if
//	                                   every value fits it, else utf8
//	anything else                      utf8: numbers' exact digits,
//	                                   true/false, binary as base64
//	absent from a file                 nulls there
//
// Rewriting keeps each file's row groups and rows; a file is replaced by
// a temporary file renamed over it. Harmonizing is deterministic and
// idempotent, so a run stopped during it does it again when rerun.

// harmonize rewrites the listed files to the layout's schema and updates
// their sizes in files.
func (w *Writer) harmonize(files []File) error {
	mem := w.opt.Format.Mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	schemas := make([]*arrow.Schema, len(files))
	for i, f := range files {
		s, err := readSchema(filepath.Join(w.opt.Dir, filepath.FromSlash(f.Path)), mem)
		if err != nil {
			return err
		}
		schemas[i] = s
	}
	text := map[string]bool{} // columns that must be utf8: a decimal did not fit
	for {
		target := w.unifiedSchema(schemas, text)
		overflow := ""
		for i, f := range files {
			if sameShape(schemas[i], target) {
				continue
			}
			path := filepath.Join(w.opt.Dir, filepath.FromSlash(f.Path))
			size, col, err := rewrite(path, target, mem)
			if errors.Is(err, errOverflow) {
				overflow = col
				break
			}
			if err != nil {
				return err
			}
			if err := checkRows(path, f.Rows, mem); err != nil {
				return err
			}
			files[i].Bytes, schemas[i] = size, target
		}
		if overflow == "" {
			return nil
		}
		text[overflow] = true
	}
}

// unifiedSchema is the layout's schema: every column of any file, the
// result's columns in their order (SELECT *: the key attributes, then
// the others by name, as the Parquet writer orders them).
func (w *Writer) unifiedSchema(schemas []*arrow.Schema, text map[string]bool) *arrow.Schema {
	types := map[string][]arrow.DataType{}
	var names []string
	for _, s := range schemas {
		for _, f := range s.Fields() {
			if _, ok := types[f.Name]; !ok {
				names = append(names, f.Name)
			}
			types[f.Name] = append(types[f.Name], f.Type)
		}
	}
	if w.h.Dynamic {
		keys := slices.DeleteFunc(slices.Clone(w.inner.KeyColumns), func(k string) bool { _, ok := types[k]; return !ok })
		rest := slices.DeleteFunc(names, func(n string) bool { return slices.Contains(keys, n) })
		sort.Strings(rest)
		names = append(keys, rest...)
	} else {
		names = slices.DeleteFunc(slices.Clone(w.inner.Columns), func(n string) bool { _, ok := types[n]; return !ok })
	}
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		t := unifiedType(types[n])
		if text[n] {
			t = arrow.BinaryTypes.String
		}
		fields[i] = arrow.Field{Name: n, Type: t, Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// sameShape reports whether two schemas have the same column names and
// types, in the same order (field metadata, such as the Parquet field ids
// a reader adds, aside).
func sameShape(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || !arrow.TypeEqual(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}

func unifiedType(ts []arrow.DataType) arrow.DataType {
	var out arrow.DataType = arrow.Null
	for _, t := range ts {
		switch {
		case t.ID() == arrow.NULL:
		case out.ID() == arrow.NULL:
			out = t
		case arrow.TypeEqual(out, t):
		case out.ID() == arrow.DECIMAL128 && t.ID() == arrow.DECIMAL128:
			if t.(*arrow.Decimal128Type).Scale > out.(*arrow.Decimal128Type).Scale {
				out = t
			}
		default:
			return arrow.BinaryTypes.String
		}
	}
	return out
}

func readSchema(path string, mem memory.Allocator) (*arrow.Schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, ioError(path, "cannot read a Parquet file of the layout", err)
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return nil, ioError(path, "cannot read a Parquet file of the layout", err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		return nil, ioError(path, "cannot read a Parquet file of the layout", err)
	}
	return fr.Schema()
}

var errOverflow = errors.New("a decimal does not fit the layout's scale")

// rewrite replaces the file at path by one of schema target, row group by
// row group; it returns the new size, or errOverflow and the column whose
// values do not fit target's decimal type.
func rewrite(path string, target *arrow.Schema, mem memory.Allocator) (int64, string, error) {
	in, err := os.Open(path)
	if err != nil {
		return 0, "", ioError(path, "cannot read a Parquet file of the layout", err)
	}
	defer in.Close()
	pf, err := file.NewParquetReader(in)
	if err != nil {
		return 0, "", ioError(path, "cannot read a Parquet file of the layout", err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		return 0, "", ioError(path, "cannot read a Parquet file of the layout", err)
	}
	src, err := fr.Schema()
	if err != nil {
		return 0, "", ioError(path, "cannot read a Parquet file of the layout", err)
	}
	opts := []parquet.WriterProperty{
		parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithCreatedBy("ddbsql"),
		parquet.WithDictionaryDefault(false),
	}
	// Columns the Parquet writer dictionary-encoded stay so.
	if pf.NumRowGroups() > 0 {
		rg := pf.MetaData().RowGroup(0)
		for c := 0; c < rg.NumColumns(); c++ {
			if cc, err := rg.ColumnChunk(c); err == nil && cc.HasDictionaryPage() {
				opts = append(opts, parquet.WithDictionaryPath(parquet.ColumnPath{src.Field(c).Name}, true))
			}
		}
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	out, err := os.Create(tmp)
	if err != nil {
		return 0, "", ioError(tmp, "cannot create a Parquet file", err)
	}
	done := false
	defer func() {
		if !done {
			out.Close()
			os.Remove(tmp)
		}
	}()
	fw, err := pqarrow.NewFileWriter(target, out, parquet.NewWriterProperties(opts...), pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema()))
	if err != nil {
		return 0, "", err
	}
	ctx := compute.WithAllocator(context.Background(), mem)
	leaves := make([]int, pf.MetaData().Schema.NumColumns()) // flat columns: one leaf each
	for i := range leaves {
		leaves[i] = i
	}
	for g := 0; g < pf.NumRowGroups(); g++ {
		tbl, err := fr.ReadRowGroups(context.Background(), leaves, []int{g})
		if err != nil {
			fw.Close()
			return 0, "", ioError(path, "cannot read a Parquet file of the layout", err)
		}
		conv, col, err := convertTable(ctx, tbl, target, mem)
		tbl.Release()
		if err != nil {
			fw.Close()
			return 0, col, err
		}
		err = fw.WriteTable(conv, max(conv.NumRows(), 1))
		conv.Release()
		if err != nil {
			fw.Close()
			return 0, "", err
		}
	}
	if err := fw.Close(); err != nil { // closes out as well
		return 0, "", ioError(tmp, "cannot write a Parquet file", err)
	}
	done = true
	st, err := os.Stat(tmp)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, "", ioError(path, "cannot replace a Parquet file of the layout", err)
	}
	return st.Size(), "", nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// convertTable is tbl (one row group) in the target schema.
func convertTable(ctx context.Context, tbl arrow.Table, target *arrow.Schema, mem memory.Allocator) (arrow.Table, string, error) {
	rows := tbl.NumRows()
	cols := make([]arrow.Column, 0, target.NumFields())
	defer func() {
		for i := range cols {
			cols[i].Release()
		}
	}()
	for _, f := range target.Fields() {
		var chunks []arrow.Array
		if idx := tbl.Schema().FieldIndices(f.Name); len(idx) > 0 {
			for _, ch := range tbl.Column(idx[0]).Data().Chunks() {
				a, err := convertArray(ctx, ch, f.Type, mem)
				if err != nil {
					for _, c := range chunks {
						c.Release()
					}
					return nil, f.Name, err
				}
				chunks = append(chunks, a)
			}
		} else {
			chunks = append(chunks, array.MakeArrayOfNull(mem, f.Type, int(rows)))
		}
		chunked := arrow.NewChunked(f.Type, chunks)
		for _, c := range chunks {
			c.Release()
		}
		cols = append(cols, *arrow.NewColumn(f, chunked))
		chunked.Release()
	}
	return array.NewTable(target, cols, rows), "", nil
}

// convertArray is a in type t: itself, a decimal at a larger scale (or
// errOverflow), or utf8 text as the Parquet writer writes mixed columns.
func convertArray(ctx context.Context, a arrow.Array, t arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	switch {
	case arrow.TypeEqual(a.DataType(), t):
		a.Retain()
		return a, nil
	case a.DataType().ID() == arrow.NULL:
		return array.MakeArrayOfNull(mem, t, a.Len()), nil
	case t.ID() == arrow.DECIMAL128 && a.DataType().ID() == arrow.DECIMAL128:
		out, err := compute.CastArray(ctx, a, compute.SafeCastOptions(t))
		if err != nil {
			return nil, errOverflow
		}
		return out, nil
	case t.ID() == arrow.STRING:
		return asText(a, mem)
	}
	return nil, &diag.Error{Phase: diag.Execute, Code: diag.CodeInternal, Msg: fmt.Sprintf("partition: cannot convert a %s column to %s", a.DataType(), t)}
}

// asText writes each value as the Parquet writer's mixed columns do: a
// number's digits (without the trailing zeros of its column's scale),
// true/false, binary as base64.
func asText(a arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(a.Len())
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		switch a := a.(type) {
		case *array.Decimal128:
			b.Append(decimalText(a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)))
		case *array.Boolean:
			if a.Value(i) {
				b.Append("true")
			} else {
				b.Append("false")
			}
		case *array.Binary:
			b.Append(base64.StdEncoding.EncodeToString(a.Value(i)))
		default:
			return nil, &diag.Error{Phase: diag.Execute, Code: diag.CodeInternal, Msg: fmt.Sprintf("partition: cannot write a %s column as text", a.DataType())}
		}
	}
	return b.NewArray(), nil
}

// decimalText drops the zeros a decimal's scale adds: 12.50 → 12.5,
// 3.00 → 3; DynamoDB's numbers have none.
func decimalText(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// checkRows makes sure a rewritten file holds the rows it held.
func checkRows(path string, want int64, mem memory.Allocator) error {
	f, err := os.Open(path)
	if err != nil {
		return ioError(path, "cannot read a Parquet file of the layout", err)
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return ioError(path, "cannot read a Parquet file of the layout", err)
	}
	defer pf.Close()
	if got := pf.NumRows(); got != want {
		return &diag.Error{Phase: diag.Execute, Code: diag.CodeInternal, Msg: fmt.Sprintf("partition: rewriting %s gave %d rows, not %d", path, got, want)}
	}
	return nil
}
