package session

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/planner"
)

// The settings the REPL changes between statements (\format, \x, \set,
// \stats, \o) go through these methods rather than field writes, so that a
// setting the session cannot honour is refused when it is made.

// SetFormat chooses the output format by name (case does not matter).
func (s *Session) SetFormat(name string) error {
	name = strings.ToLower(name)
	if !slices.Contains(format.Names(), name) {
		return fmt.Errorf("unknown output format %q (choose one of %s)", name, strings.Join(format.Names(), ", "))
	}
	s.Format = name
	return nil
}

// SetExpanded turns the expanded display (one field a line) on or off.
func (s *Session) SetExpanded(on bool) { s.FormatOptions.Expanded = on }

// SetStats chooses how statement statistics are reported.
func (s *Session) SetStats(mode StatsMode) error {
	switch mode {
	case StatsOff, StatsText, StatsJSON:
		s.Stats = mode
		return nil
	}
	return fmt.Errorf("unknown statistics mode %q (choose off, text or json)", mode)
}

// PlanOptions are the planner options statements are planned with.
func (s *Session) PlanOptions() planner.Options { return s.Options }

// SetPlanOptions replaces the planner options; a Parallelism of 0 is the
// host's CPU count.
func (s *Session) SetPlanOptions(opts planner.Options) { s.Options = opts }

// SetOutput directs the next statements' results to out.
func (s *Session) SetOutput(out io.Writer) { s.out = out }

// SetMessages directs the next statements' statistics to stats and their
// notes on how they read to notes (nil: with the statistics).
func (s *Session) SetMessages(stats, notes io.Writer) { s.errOut, s.notes = stats, notes }

// SetProgress chooses where the progress line of long statements goes
// (nil: nowhere).
func (s *Session) SetProgress(w io.Writer) { s.Progress = w }

// SetStatsSink hands each statement's statistics, while Stats is not off,
// to sink instead of writing them to the statistics writer, for a caller
// that renders them itself (nil: written again).
func (s *Session) SetStatsSink(sink func(StatementStats)) { s.statsSink = sink }
