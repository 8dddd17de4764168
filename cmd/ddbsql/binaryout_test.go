package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/cockroachdb/apd/v3"

	"github.com/ddbsql/ddbsql/exec/format"
)

// readResultFile decodes a parquet file or an Arrow IPC stream with
// arrow-go's readers.
func readResultFile(t *testing.T, kind string, data []byte) arrow.Table {
	t.Helper()
	mem := memory.NewGoAllocator()
	if kind == "parquet" {
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("not a parquet file: %v", err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := fr.ReadTable(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return tbl
	}
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatalf("not an Arrow IPC stream: %v", err)
	}
	defer r.Release()
	var recs []arrow.RecordBatch
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	tbl := array.NewTableFromRecords(r.Schema(), recs)
	for _, rec := range recs {
		rec.Release()
	}
	return tbl
}

// sameAsJSON compares a cell read back with the value the ndjson output
// has for it: decimals by value, binary as base64, utf8 as the string or,
// for a value that is not a string, as its JSON text.
func sameAsJSON(t *testing.T, a arrow.Array, i int, want any) bool {
	t.Helper()
	if a.IsNull(i) || a.DataType().ID() == arrow.NULL {
		return want == nil
	}
	switch a := a.(type) {
	case *array.Decimal128:
		n, ok := want.(json.Number)
		if !ok {
			return false
		}
		var x, y apd.Decimal
		x.SetString(a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale))
		y.SetString(string(n))
		return x.Cmp(&y) == 0
	case *array.Boolean:
		return want == a.Value(i)
	case *array.Binary:
		return want == base64.StdEncoding.EncodeToString(a.Value(i))
	case *array.String:
		if s, ok := want.(string); ok {
			return s == a.Value(i)
		}
		wantText, _ := json.Marshal(want)
		var got, exp any
		json.Unmarshal([]byte(a.Value(i)), &got)
		json.Unmarshal(wantText, &exp)
		g, _ := json.Marshal(got)
		e, _ := json.Marshal(exp)
		return string(g) == string(e)
	}
	t.Fatalf("unexpected column type %s", a.DataType())
	return false
}

// TestBinaryOutputFile: --format parquet/arrow -o FILE writes a file that
// arrow-go reads back equal to the rows printed as JSON, value for value,
// for a SELECT * over a single-table design (many shapes of item).
func TestBinaryOutputFile(t *testing.T) {
	const sql = "SELECT * FROM app"
	r, _ := demoRun(t, "--allow-scan", "--format", "ndjson", "-e", sql)
	if r.code != 0 {
		t.Fatalf("ndjson: exit %d: %s", r.code, r.err)
	}
	var want []map[string]any
	dec := json.NewDecoder(strings.NewReader(r.out))
	dec.UseNumber()
	for dec.More() {
		var row map[string]any
		if err := dec.Decode(&row); err != nil {
			t.Fatal(err)
		}
		want = append(want, row)
	}
	for _, kind := range []string{"parquet", "arrow"} {
		path := filepath.Join(t.TempDir(), "app."+kind)
		r, _ := demoRun(t, "--allow-scan", "--format", kind, "-o", path, "-e", sql)
		if r.code != 0 || r.out != "" {
			t.Fatalf("%s: exit %d, stdout %q: %s", kind, r.code, r.out, r.err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tbl := readResultFile(t, kind, data)
		if int(tbl.NumRows()) != len(want) {
			t.Fatalf("%s: %d rows, want %d", kind, tbl.NumRows(), len(want))
		}
		cols := map[string]bool{}
		for c := 0; c < int(tbl.NumCols()); c++ {
			col := tbl.Column(c)
			cols[col.Name()] = true
			row := 0
			for _, chunk := range col.Data().Chunks() {
				for i := 0; i < chunk.Len(); i++ {
					if w := want[row][col.Name()]; !sameAsJSON(t, chunk, i, w) {
						t.Errorf("%s: row %d column %s differs from the JSON value %v", kind, row, col.Name(), w)
					}
					row++
				}
			}
		}
		for _, row := range want {
			for name := range row {
				if !cols[name] {
					t.Fatalf("%s: no column %s", kind, name)
				}
			}
		}
		tbl.Release()
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp")); len(left) > 0 {
			t.Errorf("%s: temporary files left: %v", kind, left)
		}
	}
}

// TestOutputFlagText: -o FILE takes every format; the text goes to the
// file, nothing to stdout.
func TestOutputFlagText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tables.csv")
	os.WriteFile(path, []byte("old content that must go\n"), 0o644)
	r, _ := demoRun(t, "--format", "csv", "--output", path, "-e", "SHOW TABLES")
	if r.code != 0 || r.out != "" {
		t.Fatalf("exit %d, stdout %q: %s", r.code, r.out, r.err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "table_name\napp\n") || strings.Contains(string(data), "old content") {
		t.Errorf("file holds %q", data)
	}
}

// TestBinaryToTerminal: a binary format bound for a terminal is a usage
// error that says to use -o FILE; nothing runs.
func TestBinaryToTerminal(t *testing.T) {
	for _, kind := range []string{"parquet", "arrow"} {
		var out, errOut bytes.Buffer
		st := streams{in: strings.NewReader(""), out: &out, err: &errOut, outTerminal: true}
		code, err := execute(context.Background(), []string{"--demo", "--format", kind, "-e", "SHOW TABLES"}, st)
		if code != exitUsage || err != nil || out.Len() != 0 {
			t.Errorf("%s: exit %d, error %v, stdout %q", kind, code, err, out.String())
		}
		want := "error: --format " + kind + " writes a binary file, which is not shown on a terminal\nhint: write it to a file with -o FILE (or redirect stdout)\n"
		if errOut.String() != want {
			t.Errorf("%s: stderr %q, want %q", kind, errOut.String(), want)
		}
	}
	// A script that switches to parquet is refused at its statement.
	var out, errOut bytes.Buffer
	st := streams{in: strings.NewReader(""), out: &out, err: &errOut, outTerminal: true}
	code, err := execute(context.Background(), []string{"--demo", "-e", "\\format parquet\nSHOW TABLES"}, st)
	if code != exitError || err == nil || out.Len() != 0 || !strings.Contains(err.Error(), "the parquet format writes a binary file, which is not shown on the terminal") {
		t.Errorf("\\format parquet: exit %d, error %v, stdout %q", code, err, out.String())
	}
}

// TestBinaryOneResultPerFile: a file holds one result; a second statement
// with a result fails, and the file keeps the first, complete.
func TestBinaryOneResultPerFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.parquet")
	r, _ := demoRun(t, "--format", "parquet", "-o", path, "-e", "SHOW TABLES; SHOW TABLES")
	var full *format.DestinationFullError
	if r.code != exitError || !errors.As(r.failure, &full) {
		t.Fatalf("exit %d, error %v: want exit 1 with a DestinationFullError", r.code, r.failure)
	}
	if !strings.Contains(r.err, "error: "+path+" holds a result already, and a Parquet file holds one result; this result was not written\n") ||
		!strings.Contains(r.err, "hint: write each result to its own file") {
		t.Errorf("stderr:\n%s", r.err)
	}
	data, _ := os.ReadFile(path)
	if tbl := readResultFile(t, "parquet", data); tbl.NumRows() != 7 {
		t.Errorf("the file has %d rows, want the first result's 7", tbl.NumRows())
	}
	// Standard output is held to the same rule.
	r, _ = demoRun(t, "--format", "arrow", "-e", "SHOW TABLES; SHOW TABLES")
	if r.code != exitError || !errors.As(r.failure, &full) || !strings.Contains(r.err, "standard output holds a result already") {
		t.Errorf("stdout: exit %d, %s", r.code, r.err)
	}
	if tbl := readResultFile(t, "arrow", []byte(r.out)); tbl.NumRows() != 7 {
		t.Errorf("stdout has %d rows, want 7", tbl.NumRows())
	}
}

// TestBinaryFailedStatement: a statement that fails leaves the -o file
// empty (as created), never a file that passes for a result.
func TestBinaryFailedStatement(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "scan.parquet")
	r, _ := demoRun(t, "--format", "parquet", "-o", path, "-e", "SELECT * FROM app") // needs --allow-scan
	if r.code != exitError {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 0 {
		t.Errorf("the file: %v, %v; want it empty", st, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestBinaryRefusesText: EXPLAIN and DESCRIBE print text, which a parquet
// or arrow file cannot hold.
func TestBinaryRefusesText(t *testing.T) {
	for _, sql := range []string{"EXPLAIN SELECT * FROM app WHERE PK = 'x'", "DESCRIBE app"} {
		r, _ := demoRun(t, "--format", "parquet", "-e", sql)
		if r.code != exitError || r.out != "" || !strings.Contains(r.err, "prints text, and --format parquet writes only query results") {
			t.Errorf("%s: exit %d, stdout %q, stderr %s", sql, r.code, r.out, r.err)
		}
	}
}

func TestHelpListsBinaryFormatsAndOutput(t *testing.T) {
	r := invoke([]string{"--help"}, "")
	for _, want := range []string{"table|csv|tsv|json|ndjson|markdown|parquet|arrow", "  --output, -o FILE\n"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("--help lacks %q:\n%s", want, r.out)
		}
	}
}
