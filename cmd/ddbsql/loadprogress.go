package main

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// loadProgressDelay is how long loading --data runs before its progress
// line shows (a variable so that tests need not wait).
var loadProgressDelay = time.Second

// startLoadProgress draws a self-erasing line on w (stderr, when it is a
// terminal; nil draws nothing) while --data loads: items, MB/s and the time
// left, estimated from the bytes of the files read so far. The returned
// function stops and erases it; call it once.
func startLoadProgress(w io.Writer, p *offline.Progress) func() {
	if w == nil {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		drawLoadProgress(w, p, done)
	}()
	return func() {
		close(done)
		<-finished
	}
}

func drawLoadProgress(w io.Writer, p *offline.Progress, done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-time.After(loadProgressDelay):
	}
	bar := progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetSpinnerChangeInterval(0),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetElapsedTime(false),
	)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		bar.Describe(loadProgressLine(p.Snapshot()))
		_ = bar.Add(0)
		select {
		case <-done:
			_ = bar.Finish()
			_ = bar.Clear()
			return
		case <-tick.C:
		}
	}
}

// loadProgressLine is the text of the line: "loading 1,234 items · 12.3
// MB/s · 40% · about 5s left".
func loadProgressLine(s offline.ProgressSnapshot) string {
	mbs := 0.0
	if secs := s.Elapsed.Seconds(); secs > 0 {
		mbs = float64(s.BytesRead) / 1e6 / secs
	}
	line := fmt.Sprintf("loading %s · %.1f MB/s", plural.Of(s.Items, "item"), mbs)
	if eta, ok := s.ETA(); ok {
		line += fmt.Sprintf(" · %d%% · about %s left", min(100, s.BytesRead*100/s.BytesTotal), eta.Round(time.Second))
	}
	return line
}
