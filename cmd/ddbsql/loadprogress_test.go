package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLoadProgressLineDrawsOnlyOnATerminal(t *testing.T) {
	old := loadProgressDelay
	loadProgressDelay = 0
	defer func() { loadProgressDelay = old }()
	var w lockedBuffer
	stop := startLoadProgress(&w, offline.NewProgress())
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(w.String(), "loading 0 items") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	if !strings.Contains(w.String(), "loading 0 items") {
		t.Errorf("no progress line: %q", w.String())
	}
	startLoadProgress(nil, offline.NewProgress())() // no terminal: nothing to draw, and stop returns
}

func TestLoadProgressLineText(t *testing.T) {
	got := loadProgressLine(offline.ProgressSnapshot{Items: 1500, BytesRead: 20e6, BytesTotal: 80e6, Elapsed: 2 * time.Second})
	want := "loading 1500 items · 10.0 MB/s · 25% · about 6s left"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
