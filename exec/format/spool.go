package format

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// spool keeps a result's batches in a temporary file in Arrow IPC form
// until the binary formats know every column's type. Batches of one result
// may disagree on their schemas (each batch chooses its encodings, and a
// SELECT * batch its fields), and an IPC stream has one schema, so the
// file is a sequence of IPC streams, one per run of batches with the same
// schema.
//
// The file is removed from the directory as soon as it is created (where
// the system allows it; on others at close), so no exit path, not even a
// crash, leaves it behind; the open descriptor keeps its data until close.
type spool struct {
	mem      memory.Allocator
	file     *os.File
	path     string // the file's name while it still has one
	buf      *bufio.Writer
	offset   int64 // bytes written through buf
	segments []segment
	w        *ipc.Writer // the open segment's writer
	schema   *arrow.Schema
}

// segment is one IPC stream in the spool file.
type segment struct{ start, end int64 }

func newSpool(mem memory.Allocator) (*spool, error) {
	f, err := os.CreateTemp("", "ddbsql-spool-*.arrows")
	if err != nil {
		return nil, fmt.Errorf("format: cannot create a temporary file for the result: %w", err)
	}
	s := &spool{mem: mem, file: f, path: f.Name()}
	if os.Remove(f.Name()) == nil {
		s.path = ""
	}
	s.buf = bufio.NewWriterSize(countingWriter{f, &s.offset}, 1<<16)
	return s, nil
}

// countingWriter counts the bytes written to w.
type countingWriter struct {
	w io.Writer
	n *int64
}

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	*c.n += int64(n)
	return n, err
}

// add appends a batch; the spool does not keep it.
func (s *spool) add(rec arrow.RecordBatch) error {
	if s.w != nil && !rec.Schema().Equal(s.schema) {
		if err := s.closeSegment(); err != nil {
			return err
		}
	}
	if s.w == nil {
		if err := s.buf.Flush(); err != nil {
			return err
		}
		s.segments = append(s.segments, segment{start: s.offset})
		s.schema = rec.Schema()
		s.w = ipc.NewWriter(s.buf, ipc.WithSchema(s.schema), ipc.WithAllocator(s.mem))
	}
	if err := s.w.Write(rec); err != nil {
		return fmt.Errorf("format: writing the temporary result file: %w", err)
	}
	return nil
}

func (s *spool) closeSegment() error {
	err := s.w.Close()
	s.w = nil
	if ferr := s.buf.Flush(); err == nil {
		err = ferr
	}
	s.segments[len(s.segments)-1].end = s.offset
	if err != nil {
		return fmt.Errorf("format: writing the temporary result file: %w", err)
	}
	return nil
}

// each reads the batches back in order and hands each to fn, which must
// not keep it.
func (s *spool) each(fn func(rec arrow.RecordBatch) error) error {
	if s.w != nil {
		if err := s.closeSegment(); err != nil {
			return err
		}
	}
	for _, seg := range s.segments {
		if err := s.readSegment(seg, fn); err != nil {
			return err
		}
	}
	return nil
}

func (s *spool) readSegment(seg segment, fn func(rec arrow.RecordBatch) error) error {
	in := bufio.NewReaderSize(io.NewSectionReader(s.file, seg.start, seg.end-seg.start), 1<<16)
	r, err := ipc.NewReader(in, ipc.WithAllocator(s.mem))
	if err != nil {
		return fmt.Errorf("format: reading the temporary result file: %w", err)
	}
	defer r.Release()
	for r.Next() {
		if err := fn(r.RecordBatch()); err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("format: reading the temporary result file: %w", err)
	}
	return nil
}

// close releases the file (and removes it where that could not be done at
// creation). It is safe to call twice.
func (s *spool) close() error {
	if s.file == nil {
		return nil
	}
	if s.w != nil {
		_ = s.w.Close()
		s.w = nil
	}
	err := s.file.Close()
	if s.path != "" {
		if rerr := os.Remove(s.path); err == nil {
			err = rerr
		}
	}
	s.file = nil
	return err
}
