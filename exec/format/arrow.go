package format

import (
	"bufio"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func newArrowWriter(w io.Writer, opt Options) impl {
	return newBinaryWriter(w, opt, "Arrow", writeArrowStream)
}

// writeArrowStream writes the Arrow IPC stream format (what pyarrow's
// open_stream and DuckDB's arrow readers take): the schema, the record
// batches, the end-of-stream marker.
func writeArrowStream(out io.Writer, schema *arrow.Schema, _ []outColumn, mem memory.Allocator, produce func(write func(arrow.RecordBatch) error) error) error {
	buf := bufio.NewWriterSize(out, 1<<16)
	w := ipc.NewWriter(buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err := produce(w.Write); err != nil {
		_ = w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return buf.Flush()
}
