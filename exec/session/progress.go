package session

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// progressDelay is how long a statement runs before a progress line shows
// (a variable so that tests need not wait).
var progressDelay = time.Second

// startProgress shows one self-erasing progress line on the Progress
// writer (set when stderr is a terminal) once the statement has run for a second.
// The returned function stops and erases it, leaving the cursor at the
// start of the line; it may be called any number of times, from any
// goroutine. Callers defer it, so that the line goes away on every path,
// a panic included. It returns the internal error of a panic that ended
// the line early (the statement then fails with it: a bug is reported,
// never hidden), nil otherwise.
func (s *Session) startProgress(stats *engine.Stats, p *planner.Plan) func() error {
	if s.cfg.Progress == nil {
		return func() error { return nil }
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	segments := scanSegments(p)
	var failed error
	go func() {
		defer close(finished)
		failed = engine.Safely(func() error {
			showProgress(s.cfg.Progress, stats, segments, done)
			return nil
		})
	}()
	var once sync.Once
	return func() error {
		once.Do(func() {
			close(done)
			<-finished
		})
		return failed
	}
}

// showProgress draws the progress line on w after progressDelay, until done
// is closed, then erases it.
func showProgress(w io.Writer, stats *engine.Stats, segments int, done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-time.After(progressDelay):
	}
	// The spinner turns on each render, all of them from here: the bar's
	// own ticker goroutine (for a change interval) would draw outside
	// Safely, where a panic takes the process down.
	bar := progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionShowCount(),
	)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		snap := stats.Snapshot()
		rate := float64(snap.ItemsRead) / snap.Elapsed.Seconds()
		desc := fmt.Sprintf("%s read · %s RCU · %s · %.0f items/s · %s",
			plural.Of(snap.ItemsRead, "item"), planner.FormatRCU(snap.RCU), plural.Of(snap.Pages, "page"), rate, snap.Elapsed.Round(time.Second))
		if segments > 1 {
			desc += fmt.Sprintf(" · segments %d/%d done", snap.SegmentsDone, segments)
		}
		bar.Describe(desc)
		_ = bar.Add(0)
		select {
		case <-done:
			// Finish marks the bar done; Clear blanks the line and
			// returns to its start.
			_ = bar.Finish()
			_ = bar.Clear()
			return
		case <-tick.C:
		}
	}
}

// progressOut is the writer a statement's results go to: with a progress
// line on the same terminal, the first byte of output stops and erases
// the line, so that no row is printed beside it. Streaming formats (csv,
// ndjson) write their first bytes early, buffered ones (table, markdown)
// at the end.
func (s *Session) progressOut(stop func() error) io.Writer {
	// A binary format writes its file at the end, to a file: the writer
	// must see the destination itself (format.Destination), and no byte
	// of it reaches the terminal.
	if s.cfg.Progress == nil || s.cfg.OutRedirected || format.IsBinary(s.cfg.Format) {
		return s.out
	}
	return &stopOnWrite{w: s.out, stop: stop}
}

type stopOnWrite struct {
	w    io.Writer
	stop func() error
}

func (w *stopOnWrite) Write(b []byte) (int, error) {
	_ = w.stop() // a failed line is reported when the statement ends
	return w.w.Write(b)
}

func scanSegments(p *planner.Plan) int {
	n := 0
	planner.Walk(p.Root, func(node planner.Node, _ int) bool {
		if a, ok := node.(*planner.Access); ok && a.Op == planner.OpScan {
			n += len(a.Scans)
		}
		return true
	})
	return n
}
