package partition

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/planner/value"
)

func readTable(t *testing.T, path string) arrow.Table {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
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
	t.Cleanup(tbl.Release)
	return tbl
}

// TestHarmonize: files whose own rows gave them other column types, or
// other columns, end with the layout's one schema and their exact values.
func TestHarmonize(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	dir := filepath.Join(t.TempDir(), "out")
	w := newTestWriter(t, dir, mem, Options{})
	if err := w.Begin(format.Header{Dynamic: true, KeyColumns: []string{"id"}}); err != nil {
		t.Fatal(err)
	}
	n := value.NumTrusted
	a := columnar.NewRowBuilder(mem, []string{"id", "p", "x", "y", "z"})
	a.Append([]value.Value{value.Str("a1"), value.Str("a"), n("1.5"), n("12345678901234567890123456789012345678"), value.BoolOf(true)})
	b := columnar.NewRowBuilder(mem, []string{"id", "p", "x", "y", "z", "w"})
	b.Append([]value.Value{value.Str("b1"), value.Str("b"), n("2.25"), n("0.5"), n("7"), value.Str("only b")})
	for _, rb := range []*columnar.RowBuilder{a, b} {
		rec := rb.Build()
		if err := w.WriteBatch(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	mem.AssertSize(t, 0)
	ta := readTable(t, filepath.Join(dir, "p=a", "part-00000.parquet"))
	tb := readTable(t, filepath.Join(dir, "p=b", "part-00000.parquet"))
	want := "id:utf8 w:utf8 x:decimal(38, 2) y:utf8 z:utf8"
	for name, tbl := range map[string]arrow.Table{"a": ta, "b": tb} {
		got := ""
		for i, f := range tbl.Schema().Fields() {
			if i > 0 {
				got += " "
			}
			got += f.Name + ":" + f.Type.String()
		}
		if got != want {
			t.Errorf("file of %s: schema %s, want %s", name, got, want)
		}
	}
	cell := func(tbl arrow.Table, col int) string {
		ch := tbl.Column(col).Data().Chunk(0)
		if ch.IsNull(0) {
			return "NULL"
		}
		return ch.ValueStr(0)
	}
	for _, c := range []struct {
		tbl  arrow.Table
		col  int
		want string
	}{
		{ta, 1, "NULL"}, {ta, 2, "1.5"}, {ta, 3, "12345678901234567890123456789012345678"}, {ta, 4, "true"},
		{tb, 1, "only b"}, {tb, 2, "2.25"}, {tb, 3, "0.5"}, {tb, 4, "7"},
	} {
		if got := cell(c.tbl, c.col); got != c.want {
			t.Errorf("column %s: %q, want %q", c.tbl.Schema().Field(c.col).Name, got, c.want)
		}
	}
}
