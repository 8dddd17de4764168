package format

import (
	"bufio"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

// parquetRowGroupRows bounds a row group: large enough for readers to scan
// efficiently, small enough that the batches held for it stay modest.
const parquetRowGroupRows = 122880

// parquetRowGroupBytes bounds the Arrow bytes of the batches held for one
// row group as well: 122880 items of up to 400 KB each would not fit in
// memory. (A variable so tests can lower it.)
var parquetRowGroupBytes int64 = 64 << 20

func newParquetWriter(w io.Writer, opt Options) impl {
	return newBinaryWriter(w, opt, "Parquet", writeParquet)
}

// writeParquet writes one Parquet file: Snappy-compressed (every reader
// has it), dictionary encoding for the columns whose values repeat, the
// Arrow schema stored so Arrow readers get the exact types back.
//
// Batches are gathered into whole row groups, and each group's columns are
// encoded at once, in parallel (parquetfile.go).
func writeParquet(out io.Writer, schema *arrow.Schema, columns []outColumn, mem memory.Allocator, produce func(write func(arrow.RecordBatch) error) error) error {
	opts := []parquet.WriterProperty{
		parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(parquetRowGroupRows),
		parquet.WithCreatedBy("ddbsql"),
		parquet.WithDictionaryDefault(false),
	}
	for i, c := range columns {
		path := parquet.ColumnPath{schema.Field(i).Name}
		if c.dictionary {
			opts = append(opts, parquet.WithDictionaryPath(path, true))
		}
		if c.kind == outJSON {
			// The least and greatest JSON text of a column prune
			// nothing a reader asks about; they only cost comparisons.
			opts = append(opts, parquet.WithStatsPath(path, false))
		}
	}
	// The writer closes its sink if it can: the buffer keeps it from
	// closing the destination, and batches its small writes.
	buf := bufio.NewWriterSize(out, 1<<16)
	fw, err := newParquetFile(buf, schema, parquet.NewWriterProperties(opts...))
	if err != nil {
		return err
	}
	g := rowGroup{schema: schema, fw: fw}
	defer g.release()
	err = produce(g.add)
	if err == nil {
		err = g.flush()
	}
	if err != nil {
		_ = fw.Close()
		return err
	}
	if err := fw.Close(); err != nil {
		return err
	}
	return buf.Flush()
}

// rowGroup holds the batches of the row group being gathered.
type rowGroup struct {
	schema *arrow.Schema
	fw     *parquetFile
	recs   []arrow.RecordBatch
	rows   int64
	bytes  int64
}

// add keeps rec for the current group, writing the group first if rec
// would take it past parquetRowGroupRows, and after if its bytes reach
// parquetRowGroupBytes.
func (g *rowGroup) add(rec arrow.RecordBatch) error {
	if g.rows > 0 && g.rows+rec.NumRows() > parquetRowGroupRows {
		if err := g.flush(); err != nil {
			return err
		}
	}
	rec.Retain()
	g.recs = append(g.recs, rec)
	g.rows += rec.NumRows()
	g.bytes += int64(recordBytes(rec))
	if g.bytes >= parquetRowGroupBytes {
		return g.flush()
	}
	return nil
}

// flush writes the gathered batches as one row group.
func (g *rowGroup) flush() error {
	if len(g.recs) == 0 {
		return nil
	}
	defer g.release()
	return g.fw.writeGroup(g.recs)
}

func (g *rowGroup) release() {
	for _, r := range g.recs {
		r.Release()
	}
	g.recs, g.rows, g.bytes = g.recs[:0], 0, 0
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
