package offline

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func TestLoadProgressCountsItemsAndStoredBytes(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, `{"PK":{"S":"p%d"},"SK":{"N":"%d"},"v":{"S":"%s"}}`+"\n", i%7, i, strings.Repeat("x", i%50))
	}
	dir := t.TempDir()
	p := write(t, dir, "items.json.gz", b.String())
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	prog := NewProgress()
	if _, err := LoadProgress(ctx, newDB(), []Source{{Path: p, Table: "items", Keys: pkSK}}, prog); err != nil {
		t.Fatal(err)
	}
	s := prog.Snapshot()
	if s.Items != 300 || s.BytesRead != st.Size() || s.BytesTotal != st.Size() {
		t.Errorf("snapshot %+v, want 300 items and %d bytes read of %d", s, st.Size(), st.Size())
	}
	if eta, ok := s.ETA(); !ok || eta != 0 {
		t.Errorf("ETA after the whole file: %v %v", eta, ok)
	}
}

func TestProgressETA(t *testing.T) {
	s := ProgressSnapshot{BytesRead: 25, BytesTotal: 100, Elapsed: 10 * time.Second}
	if eta, ok := s.ETA(); !ok || eta != 30*time.Second {
		t.Errorf("a quarter read in 10s: ETA %v %v, want 30s", eta, ok)
	}
	if _, ok := (ProgressSnapshot{BytesTotal: 100, Elapsed: time.Second}).ETA(); ok {
		t.Error("ETA before any byte was read")
	}
	var nilProgress *Progress
	nilProgress.addItems(3)
	if nilProgress.Snapshot().Items != 0 {
		t.Error("a nil Progress counted")
	}
}
