//go:build linux

package repl_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// testBinaryOutput: \format parquet refuses the terminal with a hint, and
// writes a Parquet file once \o names one.
func (e *replEnv) testBinaryOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "seats.parquet")
	s := e.start(t, e.env(t))
	s.send("\\format parquet\r")
	s.expect(e.prompt())
	s.send(e.sql("SELECT seats FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';\r"))
	s.expect("error: the parquet format writes a binary file, which is not shown on the terminal")
	s.expect(`hint: send results to a file with \o FILE`)
	s.expect(e.prompt())
	s.send("\\o " + out + "\r")
	s.expect("Results go to " + out)
	s.expect(e.prompt())
	s.send(e.sql("SELECT seats FROM {app} WHERE PK = 'WS#acme' AND SK = 'META';\r"))
	s.expect(e.prompt())
	if strings.Contains(s.since(), "error") {
		t.Errorf("the statement failed:\n%s", s.since())
	}
	s.send("\\q\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatalf("%s is not a parquet file: %v", out, err)
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
	if tbl.NumRows() != 1 || tbl.Schema().Field(0).Name != "seats" {
		t.Fatalf("%d rows, schema %s", tbl.NumRows(), tbl.Schema())
	}
	col := tbl.Column(0).Data().Chunk(0).(*array.Decimal128)
	if got := col.Value(0).ToString(0); got != "25" {
		t.Errorf("seats = %s, want 25", got)
	}
}
