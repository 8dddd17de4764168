package partition

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// batches are rows id, p, x with p cycling through parts, in batches of
// per rows.
func batches(mem memory.Allocator, rows, per int, parts []string) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	b := columnar.NewRowBuilder(mem, []string{"id", "p", "x"})
	for i := 0; i < rows; i++ {
		b.Append([]value.Value{value.Str(fmt.Sprintf("r%04d", i)), value.Str(parts[i%len(parts)]), value.NumTrusted(fmt.Sprint(i))})
		if b.Len() == per || i == rows-1 {
			out = append(out, b.Build())
		}
	}
	return out
}

func newTestWriter(t *testing.T, dir string, mem memory.Allocator, opt Options) *Writer {
	t.Helper()
	st, err := Prepare(dir, Command{Statement: "SELECT id, p, x FROM t"})
	if err != nil {
		t.Fatal(err)
	}
	opt.Dir, opt.State, opt.Columns = dir, st, []string{"p"}
	opt.Format = format.Options{Mem: mem, TempDir: t.TempDir()}
	return New(opt)
}

// countRows reads a Parquet file's rows and their ids.
func fileIDs(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if tbl.NumCols() != 2 || tbl.Schema().Field(0).Name != "id" || tbl.Schema().Field(1).Name != "x" {
		t.Fatalf("%s: schema %v, want id, x", path, tbl.Schema())
	}
	var ids []string
	for _, ch := range tbl.Column(0).Data().Chunks() {
		for i := 0; i < ch.Len(); i++ {
			ids = append(ids, ch.ValueStr(i))
		}
	}
	return ids
}

// TestMaxOpenRollsFiles: with more partitions than open files, the least
// recently used file is finished and the partition goes on in its next
// part file; every row is in one file of its partition, in order, and no
// Arrow memory is left.
func TestMaxOpenRollsFiles(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	dir := filepath.Join(t.TempDir(), "out")
	w := newTestWriter(t, dir, mem, Options{MaxOpen: 2})
	parts := []string{"a", "b", "c"}
	if err := w.Begin(format.Header{Columns: []string{"id", "p", "x"}}); err != nil {
		t.Fatal(err)
	}
	for _, rec := range batches(mem, 300, 30, parts) {
		if err := w.WriteBatch(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		if len(w.open) > 2 {
			t.Fatalf("%d files open", len(w.open))
		}
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	mem.AssertSize(t, 0)
	var st State
	b, _ := os.ReadFile(filepath.Join(dir, StateFile))
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if !st.Complete || st.Rows != 300 {
		t.Fatalf("state: %+v", st)
	}
	for i, p := range parts {
		files, _ := filepath.Glob(filepath.Join(dir, "p="+p, "part-*.parquet"))
		if len(files) < 2 {
			t.Errorf("partition %s: %d files; with 2 open of 3 it should roll", p, len(files))
		}
		var ids []string
		for _, f := range files { // part-00000, part-00001, …: the glob sorts them
			ids = append(ids, fileIDs(t, f)...)
		}
		if len(ids) != 100 {
			t.Fatalf("partition %s: %d rows, want 100", p, len(ids))
		}
		for j, id := range ids {
			if want := fmt.Sprintf("r%04d", j*3+i); id != want {
				t.Fatalf("partition %s row %d: %s, want %s", p, j, id, want)
			}
		}
	}
	if len(st.Files) != countFiles(t, dir)-1 {
		t.Errorf("the state lists %d files, the directory holds %d", len(st.Files), countFiles(t, dir)-1)
	}
}

func countFiles(t *testing.T, dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// TestAbortKeepsRecordedUnits: a failure after a unit keeps that unit's
// files and state, and removes what came after.
func TestAbortKeepsRecordedUnits(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	dir := filepath.Join(t.TempDir(), "out")
	w := newTestWriter(t, dir, mem, Options{UnitRows: 40, MaxOpen: 1})
	if err := w.Begin(format.Header{Columns: []string{"id", "p", "x"}}); err != nil {
		t.Fatal(err)
	}
	recs := batches(mem, 70, 70, []string{"a", "b"})
	if err := w.WriteBatch(recs[0]); err != nil {
		t.Fatal(err)
	}
	recs[0].Release()
	recorded := len(w.opt.State.Files)
	if w.opt.State.Units != 1 || w.opt.State.Rows != 40 || len(w.done) == 0 {
		t.Fatalf("after 70 rows in units of 40: %d units, %d rows, %d files finished since", w.opt.State.Units, w.opt.State.Rows, len(w.done))
	}
	w.Abort()
	mem.AssertSize(t, 0)
	if n := countFiles(t, dir) - 1; n != recorded {
		t.Errorf("%d data files after Abort, the state lists %d", n, recorded)
	}
	// Prepare for the same command continues from them.
	st, err := Prepare(dir, Command{Statement: "SELECT id, p, x FROM t"})
	if err != nil || st.Rows != 40 || st.Complete {
		t.Fatalf("Prepare: %+v, %v", st, err)
	}
}

func TestPrepare(t *testing.T) {
	cmd := Command{Statement: "SELECT * FROM t", Source: "--data t=x", Flags: []string{"--partition-by p"}}
	dir := filepath.Join(t.TempDir(), "a", "b")
	st, err := Prepare(dir, cmd)
	if err != nil || st.Rows != 0 || st.Complete {
		t.Fatalf("new directory: %+v, %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(dir, StateFile)); err != nil {
		t.Fatal("no state file written")
	}
	if _, err := Prepare(dir, cmd); err != nil {
		t.Fatalf("the same command again: %v", err)
	}
	other := cmd
	other.Statement = "SELECT id FROM t"
	if _, err := Prepare(dir, other); diag.CodeOf(err) != diag.CodeInvalid || !strings.Contains(err.Error(), `the statement was "SELECT * FROM t"`) {
		t.Errorf("another statement: %v", err)
	}
	other = cmd
	other.Source = "--data t=y"
	if _, err := Prepare(dir, other); err == nil || !strings.Contains(err.Error(), "the source was --data t=x") {
		t.Errorf("another source: %v", err)
	}
	// A state listing a path outside the directory is refused.
	bad := filepath.Join(t.TempDir(), "bad")
	os.MkdirAll(bad, 0o755)
	b, _ := json.Marshal(State{Version: stateVersion, Fingerprint: cmd.fingerprint(), Command: cmd, Files: []File{{Path: "../../etc/x"}}})
	os.WriteFile(filepath.Join(bad, StateFile), b, 0o644)
	if _, err := Prepare(bad, cmd); err == nil || !strings.Contains(err.Error(), "not inside") {
		t.Errorf("path outside: %v", err)
	}
	os.WriteFile(filepath.Join(bad, StateFile), []byte("{not json"), 0o644)
	if _, err := Prepare(bad, cmd); err == nil || !strings.Contains(err.Error(), "is not a state file") {
		t.Errorf("corrupt state: %v", err)
	}
	// A listed file that is gone cannot be continued.
	gone := filepath.Join(t.TempDir(), "gone")
	os.MkdirAll(gone, 0o755)
	b, _ = json.Marshal(State{Version: stateVersion, Fingerprint: cmd.fingerprint(), Command: cmd, Rows: 5, Files: []File{{Path: "p=a/part-00000.parquet", Rows: 5}}})
	os.WriteFile(filepath.Join(gone, StateFile), b, 0o644)
	if _, err := Prepare(gone, cmd); err == nil || !strings.Contains(err.Error(), "which is missing") {
		t.Errorf("missing file: %v", err)
	}
}
