package repl

import (
	"io"
	"sync"
)

// lineState remembers whether the terminal's cursor is at the start of a
// line, across stdout and stderr, so the prompt never starts mid-line.
type lineState struct {
	mu      sync.Mutex
	atStart bool
}

// termWriter writes to one of the terminal's streams and keeps lineState.
type termWriter struct {
	w     io.Writer
	state *lineState
}

func (t *termWriter) Write(b []byte) (int, error) {
	n, err := t.w.Write(b)
	if n > 0 {
		t.state.mu.Lock()
		t.state.atStart = b[n-1] == '\n'
		t.state.mu.Unlock()
	}
	return n, err
}

// endLine writes a newline unless the cursor is at the start of a line.
func (t *termWriter) endLine() {
	t.state.mu.Lock()
	at := t.state.atStart
	t.state.mu.Unlock()
	if !at {
		_, _ = t.Write([]byte("\n"))
	}
}

// markLineStart records that something else (the pager) left the cursor
// at the start of a line.
func (t *termWriter) markLineStart() {
	t.state.mu.Lock()
	t.state.atStart = true
	t.state.mu.Unlock()
}
