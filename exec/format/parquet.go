package format

import (
	"bufio"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// parquetRowGroupRows bounds a row group: large enough for readers to scan
// efficiently, small enough that the writer's buffered group stays modest.
const parquetRowGroupRows = 122880

// parquetRowGroupBytes bounds a row group's compressed bytes as well: the
// writer holds the current group in memory, and 122880 items of up to
// 400 KB each would not fit. (A variable so tests can lower it.)
var parquetRowGroupBytes int64 = 64 << 20

func newParquetWriter(w io.Writer, opt Options) impl {
	return newBinaryWriter(w, opt, "Parquet", writeParquet)
}

// writeParquet writes one Parquet file: Snappy-compressed (every reader
// has it), dictionary encoding where it pays, the Arrow schema stored so
// Arrow readers get the exact types back.
func writeParquet(out io.Writer, schema *arrow.Schema, mem memory.Allocator, produce func(write func(arrow.RecordBatch) error) error) error {
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(parquetRowGroupRows),
		parquet.WithCreatedBy("ddbsql"),
	)
	// The writer closes its sink if it can: the buffer keeps it from
	// closing the destination, and batches its small writes.
	buf := bufio.NewWriterSize(out, 1<<16)
	fw, err := pqarrow.NewFileWriter(schema, buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema()))
	if err != nil {
		return err
	}
	write := func(rec arrow.RecordBatch) error {
		if err := fw.WriteBuffered(rec); err != nil {
			return err
		}
		if fw.RowGroupTotalCompressedBytes() >= parquetRowGroupBytes {
			return fw.NewBufferedRowGroupChecked()
		}
		return nil
	}
	if err := produce(write); err != nil {
		_ = fw.Close()
		return err
	}
	if err := fw.Close(); err != nil {
		return err
	}
	return buf.Flush()
}
