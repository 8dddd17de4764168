//go:build unix

package repl

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/planner"
)

func TestScanQuestion(t *testing.T) {
	est := planner.ScanEstimate{Table: "app", ItemCount: 2556, SizeBytes: 3_800_000}
	want := "Scan app: reads the whole table (~2556 items, ~3.8 MB, ~464 RCU). Run it? [y/N] "
	if got := scanQuestion(est, false); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := scanQuestion(est, true); got != "Scan app: reads the whole table (~2556 items, ~3.8 MB, ~928 RCU). Run it? [y/N] " {
		t.Errorf("consistent: %q", got)
	}
	est.Index, est.ItemCount, est.SizeBytes = "GSI1", 10, 1
	if got := scanQuestion(est, false); got != "Scan app (index GSI1): reads the whole index (~10 items, ~0.0 MB, ~1 RCU). Run it? [y/N] " {
		t.Errorf("index: %q", got)
	}
	// A new or freshly loaded table reports 0 items (or 0 bytes) until
	// DynamoDB refreshes its counts: the cost is unknown, not ~0.
	fresh := planner.ScanEstimate{Table: "app", Unknown: "0 items"}
	if got := scanQuestion(fresh, false); got != "Scan app: reads the whole table (unknown cost: DescribeTable reports 0 items; counts lag by up to six hours). Run it? [y/N] " {
		t.Errorf("fresh table: %q", got)
	}
	fresh = planner.ScanEstimate{Table: "app", Index: "GSI1", ItemCount: 5000, Unknown: "0 bytes for 5000 items"}
	if got := scanQuestion(fresh, true); got != "Scan app (index GSI1): reads the whole index (unknown cost: DescribeTable reports 0 bytes for 5000 items; counts lag by up to six hours). Run it? [y/N] " {
		t.Errorf("index with no size: %q", got)
	}
	for a, want := range map[string]bool{"y": true, " Yes\r": true, "": false, "n": false, "yep": false} {
		if isYes(a) != want {
			t.Errorf("isYes(%q) = %v", a, !want)
		}
	}
}

func TestReadAnswer(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.WriteString("y\n")
	if a, ok := readAnswer(context.Background(), int(r.Fd())); !ok || a != "y" {
		t.Fatalf("answer %q %v", a, ok)
	}
	// Ctrl-C (the statement's context ends) stops waiting.
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	if _, ok := readAnswer(ctx, int(r.Fd())); ok {
		t.Fatal("a cancelled question must not count as an answer")
	}
}
