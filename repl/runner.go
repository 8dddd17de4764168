//go:build unix

package repl

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/planner"
)

// runSQL runs one statement: in cooked mode (so Ctrl-C is a SIGINT), with
// a context that Ctrl-C cancels, output through the pager when it is taller
// than the screen (or to the \o file), then "cancelled" or the error,
// statistics and timing on stderr.
func (r *REPL) runSQL(text string) { _ = r.runSQLShowing(text, true) }

// runSQLShowing is runSQL returning the failure; show false leaves
// printing it to the caller (a file \i runs names its line).
func (r *REPL) runSQLShowing(text string, show bool) error {
	_ = r.term.Restore()
	if err := r.set.applyTo(r.sess); err != nil {
		if show {
			r.cfg.PrintError(r.err, err)
		}
		return err
	}
	ctx, stop := signal.NotifyContext(r.base, os.Interrupt)
	defer stop()

	// Statistics are always collected, so a cancelled statement can show
	// how far it got; they are printed when \stats asks for them.
	var stats []session.StatementStats
	r.sess.SetMessages(r.err, r.err)
	r.sess.SetStatsSink(func(st session.StatementStats) { stats = append(stats, st) })
	defer r.sess.SetStatsSink(nil)
	mode := session.StatsText
	if r.set.Stats == session.StatsJSON {
		mode = session.StatsJSON
	}
	if err := r.sess.SetStats(mode); err != nil {
		return err
	}
	if r.meta.output.writer() == nil {
		if err := binaryToTerminal(r.set.Format); err != nil {
			if show {
				r.cfg.PrintError(r.err, err)
			}
			return err
		}
	}
	var pager *pagedOutput
	r.sess.SetOutput(r.out)
	if w := r.meta.output.writer(); w != nil {
		r.sess.SetOutput(w)
		r.sess.SetProgress(r.progress)
	} else if r.set.Pager && r.cfg.Pager != "" {
		rows, cols := r.term.Size()
		pager = newPagedOutput(r.out, rows, cols, r.cfg.Pager, r.pagerFailed)
		r.pager.Store(pager)
		r.sess.SetOutput(pager)
		if r.progress != nil {
			r.sess.SetProgress(progressGate{w: r.progress, pager: pager})
		}
	} else {
		r.sess.SetProgress(r.progress)
	}

	start := time.Now()
	err := r.sess.RunScript(ctx, text)
	elapsed := time.Since(start)
	cancelled := ctx.Err() != nil
	if pager != nil {
		paged, cerr := pager.Close()
		r.pager.Store(nil)
		if paged {
			r.out.markLineStart()
		}
		if pager.Quit() {
			err = nil // the user left the pager: not an error
		} else if err == nil {
			err = cerr
		}
	}
	stop()
	r.report(err, cancelled, show, stats, elapsed)
	if cancelled {
		return errShown // "cancelled" is printed already, whoever asked
	}
	return err
}

// report prints what follows a statement, on stderr.
func (r *REPL) report(err error, cancelled, show bool, stats []session.StatementStats, elapsed time.Duration) {
	r.out.endLine()
	switch {
	case cancelled:
		fmt.Fprintln(r.err, "cancelled")
		for i := range stats {
			if stats[i].Outcome == session.Failed {
				stats[i].Outcome = session.Cancelled
			}
		}
		r.writeStats(stats)
	case err != nil:
		if show {
			r.cfg.PrintError(r.err, err)
		}
		if r.set.Stats != session.StatsOff {
			r.writeStats(stats)
		}
	case r.set.Stats != session.StatsOff:
		r.writeStats(stats)
	}
	if r.set.Timing {
		fmt.Fprintf(r.err, "Time: %s\n", formatDuration(elapsed))
	}
}

// writeStats renders the statistics of the statements run, one line each,
// as \stats chose (text unless json).
func (r *REPL) writeStats(stats []session.StatementStats) {
	for _, st := range stats {
		line := st.Text()
		if r.set.Stats == session.StatsJSON {
			line = st.JSON()
		}
		fmt.Fprintln(r.err, line)
	}
}

func (r *REPL) pagerFailed(err error) {
	fmt.Fprintf(r.err, "warning: cannot start the pager %q (%v); \\pager off stops trying\n", r.cfg.Pager, err)
}

// confirmScan asks before a statement that needs a Scan (session calls it
// only when allow_scan is off).
// confirmWrite asks before a write statement that changes several items.
func (r *REPL) confirmWrite(ctx context.Context, c write.Confirmation) bool {
	_ = r.term.Restore()
	r.out.endLine()
	io.WriteString(r.err, writeQuestion(c))
	answer, ok := readAnswer(ctx, r.term.fd)
	if !ok {
		io.WriteString(r.err, "\n")
		return false
	}
	r.err.markLineStart()
	return isYes(answer)
}

func (r *REPL) confirmScan(ctx context.Context, est planner.ScanEstimate) bool {
	_ = r.term.Restore()
	r.out.endLine()
	io.WriteString(r.err, scanQuestion(est, r.set.Consistent))
	answer, ok := readAnswer(ctx, r.term.fd)
	if !ok {
		io.WriteString(r.err, "\n")
		return false
	}
	r.err.markLineStart() // the terminal echoed the answer and its newline
	return isYes(answer)
}
