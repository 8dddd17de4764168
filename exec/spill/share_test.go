package spill

import (
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestBudgetSharesCountTheirOwnAndDrawOnTheStatement(t *testing.T) {
	b := NewBudget(100)
	sort, group := b.Share(), b.Share().Share() // a share of a share draws on b too
	if !sort.TryReserve(60) || group.TryReserve(41) || !group.TryReserve(30) {
		t.Fatalf("reservations of 60, 41, 30 in 100: used %d", b.Used())
	}
	if b.Used() != 90 || sort.Used() != 60 || group.Used() != 30 {
		t.Fatalf("used: statement %d, shares %d and %d", b.Used(), sort.Used(), group.Used())
	}
	sort.Release(60)
	group.Reserve(80) // forced: the statement is over its limit
	if !sort.Over() || !b.Over() || sort.Limit() != 100 {
		t.Fatalf("over: share %v, statement %v; share's limit %d", sort.Over(), b.Over(), sort.Limit())
	}
	group.Release(110)
	if b.Used() != 0 || b.Peak() != 110 || sort.Peak() != 60 || group.Peak() != 110 {
		t.Fatalf("after release: used %d, peaks %d, %d, %d", b.Used(), b.Peak(), sort.Peak(), group.Peak())
	}
	var none *Budget
	if none.Share() != nil {
		t.Fatal("a share of no limit is a limit")
	}
}

func TestDirSharesCountTheirOwnFiles(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d := NewDir(t.TempDir())
	a, b := d.Share(), d.Share().Share()
	write := func(dir *Dir, prefix string) {
		run, err := dir.NewRun(prefix, mem)
		if err != nil {
			t.Fatal(err)
		}
		rec := batch(t, mem, "k", "x", "y")
		if err := run.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		if err := run.Finish(); err != nil {
			t.Fatal(err)
		}
		_ = run.Close()
	}
	write(a, "sort")
	write(a, "sort")
	write(b, "group")
	if d.Files() != 3 || a.Files() != 2 || b.Files() != 1 {
		t.Fatalf("files: statement %d, shares %d and %d", d.Files(), a.Files(), b.Files())
	}
	if a.Bytes() <= 0 || b.Bytes() <= 0 || d.Bytes() != a.Bytes()+b.Bytes() {
		t.Fatalf("bytes: statement %d, shares %d and %d", d.Bytes(), a.Bytes(), b.Bytes())
	}
	if a.Path() != d.Path() {
		t.Fatalf("a share writes to %s, the statement to %s", a.Path(), d.Path())
	}
	// Closing a share leaves the statement's directory; closing the
	// statement's removes it.
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d.Path()); err != nil {
		t.Fatalf("closing a share removed the directory: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d.Path()); !os.IsNotExist(err) {
		t.Fatalf("the directory is still there: %v", err)
	}
	var none *Dir
	if none.Share() != nil {
		t.Fatal("a share of no spill directory can spill")
	}
}
