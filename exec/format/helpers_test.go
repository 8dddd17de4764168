package format

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/planner/value"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// batch is one test batch: its field names and rows.
type batch struct {
	names []string
	rows  [][]value.Value
}

// render runs one writer over the batches the way exec does: Begin, then
// each batch built, written and released at once, then End. It returns the
// output and the first error, and checks that no Arrow memory is left.
func render(t *testing.T, format string, opt Options, h Header, batches ...batch) (string, error) {
	t.Helper()
	// Freed buffers are overwritten: a writer that kept a string read in
	// place from a released batch prints garbage and the golden test fails.
	mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
	defer mem.AssertSize(t, 0)
	var out bytes.Buffer
	if opt.Mem == nil {
		opt.Mem = mem // the binary writers' own buffers are checked too
	}
	w, err := New(format, &out, opt)
	if err != nil {
		t.Fatal(err)
	}
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	keep(w.Begin(h))
	for _, b := range batches {
		rb := columnar.NewRowBuilder(mem, b.names)
		for _, r := range b.rows {
			rb.Append(r)
		}
		rec := rb.Build()
		keep(w.WriteBatch(rec))
		rec.Release()
	}
	keep(w.End())
	return out.String(), first
}

// variant is one way to render a fixture in a golden file.
type variant struct {
	label, format string
	opt           Options
}

var allVariants = []variant{
	{"table", "table", Options{}},
	{"table expanded", "table", Options{Expanded: true}},
	{"markdown", "markdown", Options{}},
	{"csv", "csv", Options{}},
	{"tsv", "tsv", Options{}},
	{"json", "json", Options{}},
	{"ndjson", "ndjson", Options{}},
}

// golden renders a fixture in every variant and compares the sections with
// testdata/<name>.golden (go test -update rewrites it).
func golden(t *testing.T, name string, h Header, batches ...batch) {
	t.Helper()
	var got strings.Builder
	for _, v := range allVariants {
		out, err := render(t, v.format, v.opt, h, batches...)
		got.WriteString("=== " + v.label + " ===\n")
		got.WriteString(out)
		if err != nil {
			got.WriteString("error: " + err.Error() + "\n")
		}
	}
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got ---\n%s\n--- want ---\n%s", path, got.String(), want)
	}
}

func num(t testing.TB, s string) value.Value {
	t.Helper()
	v, err := value.Num(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var (
	str     = value.Str
	missing = value.MissingValue()
	null    = value.NullValue()
)

func bin(s string) value.Value { return value.Bin([]byte(s)) }

// textNames are the formats that write text (all but parquet and arrow).
func textNames() []string {
	var out []string
	for _, n := range Names() {
		if !IsBinary(n) {
			out = append(out, n)
		}
	}
	return out
}
