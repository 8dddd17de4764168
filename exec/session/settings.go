package session

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/planner"
)

// The settings the REPL changes between statements (\format, \x, \set,
// \stats, \o) go through these methods rather than field writes, so that a
// setting the session cannot honour is refused when it is made and leaves
// the one before in place.

// Settings returns the session's current settings: the Config it was made
// with, as the setters have changed it since (Mem filled in).
func (s *Session) Settings() Config { return s.cfg }

// SetFormat chooses the output format by name (case does not matter).
func (s *Session) SetFormat(name string) error {
	name = strings.ToLower(name)
	if !slices.Contains(format.Names(), name) {
		return fmt.Errorf("unknown output format %q (choose one of %s)", name, strings.Join(format.Names(), ", "))
	}
	s.cfg.Format = name
	return nil
}

// SetExpanded turns the expanded display (one field a line) on or off.
func (s *Session) SetExpanded(on bool) { s.cfg.FormatOptions.Expanded = on }

// SetStats chooses how statement statistics are reported.
func (s *Session) SetStats(mode StatsMode) error {
	switch mode {
	case StatsOff, StatsText, StatsJSON:
		s.cfg.Stats = mode
		return nil
	}
	return fmt.Errorf("unknown statistics mode %q (choose off, text or json)", mode)
}

// SetPlanOptions replaces the planner options; a Parallelism of 0 is the
// host's CPU count.
func (s *Session) SetPlanOptions(opts planner.Options) { s.cfg.Plan = opts }

// SetConcurrency bounds the next statements' DynamoDB requests in flight
// (Config.Concurrency; 0: the engine's default).
func (s *Session) SetConcurrency(n int) { s.cfg.Concurrency = n }

// SetMemoryLimit sets what the next statements' blocking operators may
// hold before they spill (Config.MemoryLimit; 0: no limit).
func (s *Session) SetMemoryLimit(n int64) { s.cfg.MemoryLimit = n }

// SetOutput directs the next statements' results to out.
func (s *Session) SetOutput(out io.Writer) { s.out = out }

// SetMessages directs the next statements' statistics to stats and their
// notes on how they read to notes (nil: with the statistics).
func (s *Session) SetMessages(stats, notes io.Writer) { s.errOut, s.notes = stats, notes }

// SetProgress chooses where the progress line of long statements goes
// (nil: nowhere).
func (s *Session) SetProgress(w io.Writer) { s.cfg.Progress = w }

// SetStatsSink hands each statement's statistics, while Stats is not off,
// to sink instead of writing them to the statistics writer, for a caller
// that renders them itself (nil: written again).
func (s *Session) SetStatsSink(sink func(StatementStats)) { s.statsSink = sink }

// SetConfirmScan chooses who is asked before a statement that needs a Scan
// the options do not allow (Config.ConfirmScan; nil: nobody, the statement
// fails).
func (s *Session) SetConfirmScan(confirm func(ctx context.Context, scan planner.ScanEstimate) bool) {
	s.cfg.ConfirmScan = confirm
}

// SetJournal sets the file write statements journal their items in
// ("" for none).
func (s *Session) SetJournal(path string) { s.cfg.Journal = path }

// SetConfirmWrite sets the question asked before a write statement that
// changes more than one item (nil: none).
func (s *Session) SetConfirmWrite(confirm func(ctx context.Context, c write.Confirmation) bool) {
	s.cfg.ConfirmWrite = confirm
}

// Client is the client statements send their requests through.
func (s *Session) Client() dynamo.Client { return s.client }

// WrapClient routes the next statements' requests through wrap(client),
// for a caller that watches what comes back (the REPL remembers the
// attribute names of the items read, for completion). The wrapper must
// pass every call on unchanged. The catalog keeps the client it was made
// with, so the table descriptions it holds stay valid.
// Write statements keep sending through the client New was given, which
// the wrapper need not implement the writes of.
func (s *Session) WrapClient(wrap func(dynamo.Client) dynamo.Client) { s.client = wrap(s.client) }

// Catalog is the session's cache of table descriptions, which statements
// plan against; Refresh makes the next statements describe tables afresh.
func (s *Session) Catalog() *dynamo.Catalog { return s.catalog }
