package format

import (
	"errors"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/spill"
)

// spool keeps a result's batches in a temporary file until the binary
// formats know every column's type: a spill.Run (Arrow IPC streams, one per
// stretch of batches with the same schema, since batches of one result
// may disagree on their schemas) in a spill directory of its own under
// Options.TempDir.
//
// Run removes the file's name as soon as it is created (where the system
// allows it), and the spool then removes the directory, empty by now, so
// no exit path, not even a crash, leaves anything behind; the open
// descriptor keeps the data until close. Where the name cannot go while
// the file is open, close removes both.
type spool struct {
	dir *spill.Dir
	run *spill.Run
}

func newSpool(mem memory.Allocator, tempDir string) (*spool, error) {
	dir := spill.NewDir(tempDir)
	run, err := dir.NewRun("ddbsql-result", mem)
	if err != nil {
		_ = dir.Close()
		return nil, err
	}
	_ = os.Remove(dir.Path()) // fails, harmlessly, while the file still has a name
	return &spool{dir: dir, run: run}, nil
}

// add appends a batch; the spool does not keep it.
func (s *spool) add(rec arrow.RecordBatch) error { return s.run.Write(rec) }

// each reads the batches back in order and hands each to fn, which must
// not keep it.
func (s *spool) each(fn func(rec arrow.RecordBatch) error) error {
	if err := s.run.Finish(); err != nil {
		return err
	}
	r := s.run.Reader()
	defer r.Close()
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		err = fn(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
}

// close releases the file and the directory. It is safe to call twice.
func (s *spool) close() error {
	err := s.run.Close()
	if derr := s.dir.Close(); err == nil {
		err = derr
	}
	return err
}
