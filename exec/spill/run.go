package spill

import (
	"bufio"
	"errors"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Run is a sequence of record batches kept in one spill file: a sorted run
// of ORDER BY, one hash partition of GROUP BY or of a join's build side.
// Batches of one statement may disagree on their schemas (each batch
// chooses its encodings), and an IPC stream has one schema, so the file is
// a sequence of IPC streams, one per stretch of batches with the same
// schema.
//
// The file's name is removed as soon as it is created where the system
// allows it (the descriptor keeps the data until Close), so not even a
// crash leaves it behind; elsewhere Dir.Close removes it.
type Run struct {
	dir      *Dir
	mem      memory.Allocator
	file     *os.File
	buf      *bufio.Writer
	offset   int64 // bytes written through buf
	segments []segment
	w        *ipc.Writer // the open segment's writer
	schema   *arrow.Schema
	rows     int64
	done     bool
}

type segment struct{ start, end int64 }

// NewRun creates an empty run in the directory; prefix names the operator
// (for a reader of the directory while it runs).
func (d *Dir) NewRun(prefix string, mem memory.Allocator) (*Run, error) {
	f, err := d.Create(prefix)
	if err != nil {
		return nil, err
	}
	_ = os.Remove(f.Name())
	r := &Run{dir: d, mem: mem, file: f}
	r.buf = bufio.NewWriterSize(countingWriter{f, &r.offset}, 1<<16)
	return r, nil
}

type countingWriter struct {
	w io.Writer
	n *int64
}

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	*c.n += int64(n)
	return n, err
}

// Write appends a batch; the run does not keep it.
func (r *Run) Write(rec arrow.RecordBatch) error {
	if r.done {
		return spillError("internal: write to a finished spill run", nil)
	}
	if r.w != nil && !rec.Schema().Equal(r.schema) {
		if err := r.closeSegment(); err != nil {
			return err
		}
	}
	if r.w == nil {
		if err := r.buf.Flush(); err != nil {
			return spillError("cannot write a spill file", err)
		}
		r.segments = append(r.segments, segment{start: r.offset})
		r.schema = rec.Schema()
		r.w = ipc.NewWriter(r.buf, ipc.WithSchema(r.schema), ipc.WithAllocator(r.mem))
	}
	if err := r.w.Write(rec); err != nil {
		return spillError("cannot write a spill file", err)
	}
	r.rows += rec.NumRows()
	return nil
}

func (r *Run) closeSegment() error {
	err := r.w.Close()
	r.w = nil
	if ferr := r.buf.Flush(); err == nil {
		err = ferr
	}
	r.segments[len(r.segments)-1].end = r.offset
	if err != nil {
		return spillError("cannot write a spill file", err)
	}
	return nil
}

// Rows is the number of rows written.
func (r *Run) Rows() int64 { return r.rows }

// Bytes is the size of the file so far.
func (r *Run) Bytes() int64 { return r.offset + int64(r.buf.Buffered()) }

// Finish ends writing; the run can then be read, any number of times.
func (r *Run) Finish() error {
	if r.done {
		return nil
	}
	r.done = true
	var err error
	if r.w != nil {
		err = r.closeSegment()
	} else if ferr := r.buf.Flush(); ferr != nil {
		err = spillError("cannot write a spill file", ferr)
	}
	r.dir.addBytes(r.offset)
	return err
}

// Reader reads the run's batches back in the order written. Finish must
// have been called.
func (r *Run) Reader() *RunReader {
	return &RunReader{run: r}
}

// Close releases the file. It is safe to call twice.
func (r *Run) Close() error {
	if r.file == nil {
		return nil
	}
	if r.w != nil {
		_ = r.w.Close()
		r.w = nil
	}
	name := r.file.Name()
	err := r.file.Close()
	r.file = nil
	_ = os.Remove(name) // where the name could not go at creation
	return err
}

// RunReader pulls a run's batches one at a time, for merging several runs.
type RunReader struct {
	run *Run
	seg int
	r   *ipc.Reader
}

// Next returns the next batch, which the caller owns (and releases), or
// io.EOF after the last.
func (rr *RunReader) Next() (arrow.RecordBatch, error) {
	for {
		if rr.r == nil {
			if rr.seg >= len(rr.run.segments) {
				return nil, io.EOF
			}
			s := rr.run.segments[rr.seg]
			rr.seg++
			in := bufio.NewReaderSize(io.NewSectionReader(rr.run.file, s.start, s.end-s.start), 1<<16)
			r, err := ipc.NewReader(in, ipc.WithAllocator(rr.run.mem))
			if err != nil {
				return nil, spillError("cannot read a spill file back", err)
			}
			rr.r = r
		}
		if rr.r.Next() {
			rec := rr.r.RecordBatch()
			rec.Retain()
			return rec, nil
		}
		err := rr.r.Err()
		rr.r.Release()
		rr.r = nil
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, spillError("cannot read a spill file back", err)
		}
	}
}

// Close stops reading; the run stays readable from the start.
func (rr *RunReader) Close() {
	if rr.r != nil {
		rr.r.Release()
		rr.r = nil
	}
}
