package session

import (
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/ddbsql/ddbsql/exec"
	"github.com/ddbsql/ddbsql/planner"
)

// progressDelay is how long a statement runs before a progress line shows.
const progressDelay = time.Second

// startProgress shows one self-erasing progress line on s.Progress (only
// set when stderr is a terminal) once the statement has run for a second;
// the returned function stops and erases it.
func (s *Session) startProgress(stats *exec.Stats, p *planner.Plan) func() {
	if s.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	segments := scanSegments(p)
	go func() {
		defer close(finished)
		select {
		case <-done:
			return
		case <-time.After(progressDelay):
		}
		bar := progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(s.Progress),
			progressbar.OptionSpinnerType(14),
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
			desc := fmt.Sprintf("%d items read · %s RCU · %d pages · %.0f items/s · %s",
				snap.ItemsRead, planner.FormatRCU(snap.RCU), snap.Pages, rate, snap.Elapsed.Round(time.Second))
			if segments > 1 {
				desc += fmt.Sprintf(" · segments %d/%d done", snap.SegmentsDone, segments)
			}
			bar.Describe(desc)
			_ = bar.Add(0)
			select {
			case <-done:
				_ = bar.Finish()
				_ = bar.Clear()
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

func scanSegments(p *planner.Plan) int {
	n := 0
	var walk func(planner.Node)
	walk = func(node planner.Node) {
		if a, ok := node.(*planner.Access); ok && a.Op == planner.OpScan {
			n += len(a.Scans)
		}
		for _, in := range node.Inputs() {
			walk(in)
		}
	}
	walk(p.Root)
	return n
}
