package format

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// parquetFile writes a Parquet file of flat, nullable Arrow columns (all a
// result has: utf8, decimal128, bool, binary, null) one row group at a
// time, encoding a group's columns on several goroutines: each column of a
// buffered row group has its own writer and page buffer, so encoding,
// dictionary lookups, statistics and compression run on every core, and
// only closing the group (its pages written out in column order) is
// serial. pqarrow's FileWriter encodes the columns one after another.
type parquetFile struct {
	w      *file.Writer
	schema *arrow.Schema
	props  pqarrow.ArrowWriterProperties
}

func newParquetFile(out io.Writer, schema *arrow.Schema, props *parquet.WriterProperties) (*parquetFile, error) {
	arrProps := pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(props.Allocator()), pqarrow.WithStoreSchema())
	pqSchema, err := pqarrow.ToParquet(schema, props, arrProps)
	if err != nil {
		return nil, err
	}
	// The Arrow schema goes into the footer as Arrow readers expect it
	// (ARROW:schema, an IPC stream of the schema alone, base64), so they
	// get the exact types back.
	var ser bytes.Buffer
	sw := ipc.NewWriter(&ser, ipc.WithSchema(schema), ipc.WithAllocator(props.Allocator()))
	if err := sw.Close(); err != nil {
		return nil, err
	}
	meta := metadata.KeyValueMetadata{}
	if err := meta.Append("ARROW:schema", base64.StdEncoding.EncodeToString(ser.Bytes())); err != nil {
		return nil, err
	}
	w, err := file.NewParquetWriterWithError(out, pqSchema.Root(), file.WithWriterProps(props), file.WithWriteMetadata(meta))
	if err != nil {
		return nil, err
	}
	return &parquetFile{w: w, schema: schema, props: arrProps}, nil
}

// writeGroup writes recs (all of the file's schema) as one row group.
func (f *parquetFile) writeGroup(recs []arrow.RecordBatch) error {
	rg, err := f.w.AppendBufferedRowGroupChecked()
	if err != nil {
		return err
	}
	cols := f.schema.NumFields()
	errs := make([]error, cols)
	next := make(chan int, cols)
	for c := 0; c < cols; c++ {
		next <- c
	}
	close(next)
	var wg sync.WaitGroup
	for range min(cols, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				errs[c] = f.writeColumn(rg, c, recs)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			_ = rg.Close()
			return err
		}
	}
	return rg.Close()
}

// writeColumn encodes column c of every batch into the group's writer for
// it: a flat nullable column, definition level 1 for a value, 0 for null.
func (f *parquetFile) writeColumn(rg file.BufferedRowGroupWriter, c int, recs []arrow.RecordBatch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = columnPanic(f.schema.Field(c).Name, r)
		}
	}()
	cw, err := rg.Column(c)
	if err != nil {
		return err
	}
	ctx := pqarrow.NewArrowWriteContext(context.Background(), &f.props)
	var levels []int16
	for _, rec := range recs {
		arr := rec.Column(c)
		n := arr.Len()
		if cap(levels) < n {
			levels = make([]int16, n)
		}
		levels = levels[:n]
		valid := int16(1)
		if arr.DataType().ID() == arrow.NULL {
			valid = 0 // a null array has no validity bitmap to read
		}
		for i := range levels {
			levels[i] = valid
		}
		if valid == 1 && arr.NullN() > 0 {
			for i := 0; i < n; i++ {
				if arr.IsNull(i) {
					levels[i] = 0
				}
			}
		}
		if err := pqarrow.WriteArrowToColumn(ctx, cw, arr, levels, nil, true); err != nil {
			return err
		}
	}
	return nil
}

func (f *parquetFile) Close() error { return f.w.Close() }

// columnPanic is the error of a column writer that panicked: the file
// cannot be written, but the process goes on.
func columnPanic(name string, r any) error {
	return fmt.Errorf("format: Parquet column %q could not be written: %v", name, r)
}
