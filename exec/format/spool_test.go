package format

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestBinarySpoolUsesTempDir: the spool goes under Options.TempDir, leaves
// nothing there, and a TempDir that cannot hold it fails Begin with the
// spill error, before anything is written.
func TestBinarySpoolUsesTempDir(t *testing.T) {
	mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
	defer mem.AssertSize(t, 0)
	rb := columnar.NewRowBuilder(mem, []string{"a"})
	rb.Append([]value.Value{str("x")})
	rec := rb.Build()
	defer rec.Release()
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"parquet", "arrow"} {
		w, _ := New(f, io.Discard, Options{Mem: mem, TempDir: notDir})
		err := w.Begin(Header{Columns: []string{"a"}})
		var de *diag.Error
		if !errors.As(err, &de) || de.Code != diag.CodeSpill {
			t.Errorf("%s: Begin with a TempDir that is a file: %v, want a %s error", f, err, diag.CodeSpill)
		}
		w.Abort()

		w, _ = New(f, io.Discard, Options{Mem: mem, TempDir: dir})
		if err := w.Begin(Header{Columns: []string{"a"}}); err != nil {
			t.Fatal(err)
		}
		if err := w.WriteBatch(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.End(); err != nil {
			t.Fatal(err)
		}
		if left := entries(t, dir); len(left) != 1 || left[0] != notDir {
			t.Errorf("%s: %s holds %v after End", f, dir, left)
		}
	}
}
