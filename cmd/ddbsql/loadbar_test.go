package main

import (
	"strings"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/bulkload"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// A --load on a terminal draws its progress line on stderr and erases it.
func TestLoadProgressOnATerminal(t *testing.T) {
	old := bulkProgressDelay
	bulkProgressDelay = 0
	defer func() { bulkProgressDelay = old }()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var progress lockedBuffer
	var out, errOut strings.Builder
	p := writeTemp(t, "items.jsonl", genLines(3000))
	code, err := execute(t.Context(), []string{"--load", "progress=" + p, "--key", "PK:S,SK:N"},
		streams{in: strings.NewReader(""), out: &out, err: &errOut, progress: &progress, client: memdb.New()})
	if code != 0 || err != nil {
		t.Fatalf("exit %d: %v", code, err)
	}
	if s := progress.String(); !strings.Contains(s, "loading progress · ") && !strings.Contains(s, "checking progress · ") {
		t.Errorf("no progress line on the terminal: %q", s)
	}
	startBulkProgress(nil, "t", &bulkload.Progress{})() // no terminal: nothing drawn, stop returns
}

func TestLoadProgressText(t *testing.T) {
	got := bulkProgressLine("orders", bulkload.ProgressSnapshot{Read: 900, Resumed: 100, Written: 800, WCU: 812.5, Elapsed: 2 * time.Second})
	if want := "loading orders · 800 items written · 812.5 WCU · 400 items/s · 100 skipped (written before)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = bulkProgressLine("orders", bulkload.ProgressSnapshot{Read: 900, Written: 900, Checked: 300})
	if want := "checking orders · 300 of 900 items"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
