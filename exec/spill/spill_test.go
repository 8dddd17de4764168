package spill

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestBudgetRefusesPastTheLimit(t *testing.T) {
	b := NewBudget(100)
	if !b.TryReserve(60) || b.TryReserve(41) || !b.TryReserve(40) {
		t.Fatalf("reservations of 60, 41, 40 in 100: used %d", b.Used())
	}
	b.Release(100)
	if b.Used() != 0 || b.Peak() != 100 {
		t.Fatalf("used %d peak %d, want 0 and 100", b.Used(), b.Peak())
	}
	b.Reserve(150)
	if !b.Over() {
		t.Fatal("a forced reservation past the limit does not show as over")
	}
	var none *Budget
	if !none.TryReserve(1 << 40) {
		t.Fatal("a nil budget refused a reservation")
	}
}

func TestBudgetConcurrent(t *testing.T) {
	b := NewBudget(1000)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 1000; j++ {
				if b.TryReserve(7) {
					if b.Used() > 1000 {
						t.Error("used passed the limit")
					}
					b.Release(7)
				}
			}
		}()
	}
	wg.Wait()
	if b.Used() != 0 {
		t.Fatalf("used %d after every release", b.Used())
	}
}

func TestExceededNamesOperatorAndLimit(t *testing.T) {
	err := Exceeded("ORDER BY", NewBudget(256<<20), 300<<20)
	var d *diag.Error
	if !errors.As(err, &d) || d.Code != diag.CodeMemoryLimit {
		t.Fatalf("got %v", err)
	}
	want := "ORDER BY needs 300MiB but --memory-limit is 256MiB"
	if d.Msg != want {
		t.Fatalf("message %q, want %q", d.Msg, want)
	}
}

func TestParseSize(t *testing.T) {
	for text, want := range map[string]int64{
		"1024": 1024, "512MiB": 512 << 20, "4GB": 4e9, "1.5G": 3 << 29, "2 kib": 2048, "10m": 10 << 20,
	} {
		got, err := ParseSize(text)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", text, got, err, want)
		}
	}
	for _, bad := range []string{"", "MiB", "12XB", "0", "-5", "1..2G"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	if FormatSize(256<<20) != "256MiB" || FormatSize(1536<<20) != "1.5GiB" || FormatSize(10) != "10B" {
		t.Fatal("FormatSize")
	}
}

func batch(t *testing.T, mem memory.Allocator, name string, vals ...string) arrow.RecordBatch {
	t.Helper()
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.AppendValues(vals, nil)
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: name, Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(len(vals)))
}

func TestRunRoundTripAcrossSchemas(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	base := t.TempDir()
	d := NewDir(base)
	run, err := d.NewRun("sort", mem)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []arrow.RecordBatch{batch(t, mem, "a", "x", "y"), batch(t, mem, "a", "z"), batch(t, mem, "b", "w")} {
		if err := run.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := run.Finish(); err != nil {
		t.Fatal(err)
	}
	for pass := 0; pass < 2; pass++ {
		rr := run.Reader()
		var got []string
		for {
			rec, err := rr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			col := rec.Column(0).(*array.String)
			for i := 0; i < col.Len(); i++ {
				got = append(got, rec.Schema().Field(0).Name+"="+col.Value(i))
			}
			rec.Release()
		}
		rr.Close()
		if want := "[a=x a=y a=z b=w]"; fmtSlice(got) != want {
			t.Fatalf("pass %d read %v, want %s", pass, got, want)
		}
	}
	if run.Rows() != 4 {
		t.Fatalf("rows %d", run.Rows())
	}
	if err := run.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(base, "*"))
	if len(left) != 0 {
		t.Fatalf("files left behind: %v", left)
	}
}

func fmtSlice(s []string) string {
	out := "["
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out + "]"
}

func TestRemoveAllCleansOpenDirs(t *testing.T) {
	base := t.TempDir()
	d := NewDir(base)
	f, err := d.Create("group")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := os.Stat(d.Path()); err != nil {
		t.Fatal(err)
	}
	RemoveAll()
	if _, err := os.Stat(d.Path()); !os.IsNotExist(err) {
		t.Fatalf("spill directory still there after RemoveAll: %v", err)
	}
	if _, err := d.Create("again"); err == nil {
		t.Fatal("a removed directory accepted a new file")
	}
}

func TestDirUnwritableBaseIsASpillError(t *testing.T) {
	d := NewDir(filepath.Join(t.TempDir(), "missing", "deeper"))
	_, err := d.Create("sort")
	var e *diag.Error
	if !errors.As(err, &e) || e.Code != diag.CodeSpill {
		t.Fatalf("got %v, want a spill error", err)
	}
}

func TestSteerCollectorFollowsTheBudget(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	SteerCollector(NewBudget(256 << 20))
	got := debug.SetMemoryLimit(-1)
	floor := int64(256<<20 + 32<<20 + collectorHeadroom)
	if got < floor || got > floor+liveHeap()+(64<<20) {
		t.Fatalf("soft limit %d for a 256MiB budget, want the live heap plus %d", got, floor)
	}
	SteerCollector(NewBudget(0))
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("no budget left a soft limit of %d", got)
	}
}
