package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// prepare plans a SELECT and applies the checks that must pass before any
// read: --strict and the --max-rcu estimate.
func (s *Session) prepare(ctx context.Context, sel *parser.Select) (*planner.Plan, error) {
	p, err := s.plan(ctx, sel)
	if err != nil {
		return nil, err
	}
	if s.cfg.Plan.Strict {
		if err := planner.CheckStrict(p); err != nil {
			return nil, err
		}
	}
	if s.cfg.MaxRCU > 0 {
		if err := checkBudget(planner.TotalEstimate(p), s.cfg.MaxRCU); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// checkBudget refuses, before any request, a statement that --max-rcu
// cannot cover: one estimated to consume more, or one whose cost is
// unknown (DescribeTable has no figures for a table it scans). An unknown
// read whose LIMIT bounds it (a Scan with a LIMIT and no filter reads at
// most that many items) may start: the worst case of its bound assumes
// 400 KB items, which would refuse nearly every LIMIT under a small budget,
// while the read itself is short, and exec stops any statement once it
// consumes more than the budget (Env.Budget).
func checkBudget(est planner.Estimate, budget float64) error {
	if est.IsUnknown() {
		if _, bounded := est.Bound(); !bounded {
			return &diag.Error{Phase: diag.Plan, Code: diag.CodeBudget,
				Msg: fmt.Sprintf("this statement's estimated cost is unknown (%s), so --max-rcu %s cannot be guaranteed; nothing was read",
					est.UnknownReason(), planner.FormatRCU(budget)),
				Hint: "add a LIMIT (a Scan with a LIMIT and no filter reads a bounded amount), see the reads with EXPLAIN, or run without --max-rcu"}
		}
	}
	if est.RCU > budget {
		return &diag.Error{Phase: diag.Plan, Code: diag.CodeBudget,
			Msg:  fmt.Sprintf("this statement is estimated to consume %s RCU, more than the --max-rcu budget of %s; nothing was read", estimateText(est), planner.FormatRCU(budget)),
			Hint: "EXPLAIN shows where the reads go; narrow the key condition or raise --max-rcu"}
	}
	return nil
}

func estimateText(e planner.Estimate) string {
	if e.AtLeast {
		return "at least " + planner.FormatRCU(e.RCU)
	}
	return planner.FormatRCU(e.RCU)
}

func (s *Session) runSelect(ctx context.Context, sel *parser.Select) error {
	p, err := s.prepare(ctx, sel)
	if err != nil {
		return err
	}
	s.printNotes(p.Notes)
	stats := engine.NewStats()
	env := s.env(stats)
	defer env.Spill.Close()
	op, err := engine.Build(env, p.Root)
	if err != nil {
		return err
	}
	stopProgress := s.startProgress(stats, p)
	defer stopProgress()
	w, err := s.newWriter(s.progressOut(stopProgress))
	if err != nil {
		op.Close()
		return err
	}
	defer w.Abort() // a result that did not end leaves nothing behind
	err = s.stream(ctx, op, w, format.Header{Columns: p.Columns, Dynamic: p.Star, KeyColumns: p.KeyColumns}, stats)
	if perr := stopProgress(); err == nil {
		err = perr
	}
	stats.Finish()
	err = s.timedOut(ctx, err)
	s.report(stats, env, err)
	return s.explainFailure(err, stats)
}

// printNotes writes a plan's notes on stderr, before any row, so that
// they are seen even when the result goes to a file.
func (s *Session) printNotes(notes []string) {
	w := s.notes
	if w == nil {
		w = s.errOut
	}
	if w == nil {
		return
	}
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

// explainFailure adds what a failed statement had already read and
// consumed, so nobody mistakes the rows printed before it for the result.
func (s *Session) explainFailure(err error, stats *engine.Stats) error {
	var ee *diag.Error
	if err == nil || !errors.As(err, &ee) || ee.Phase != diag.Execute || ee.Code == diag.CodeBudget || noAnswer(err) {
		return err
	}
	snap := stats.Snapshot()
	if snap.TotalRequests() == 0 {
		return err
	}
	out := *ee
	out.Msg = fmt.Sprintf("%s (the statement had sent %s, read %s and consumed %s RCU; any rows printed are incomplete)",
		ee.Msg, plural.Of(snap.TotalRequests(), "request"), plural.Of(snap.ItemsRead, "item"), planner.FormatRCU(snap.RCU))
	return &out
}

// ErrInterrupted is what the cause of the caller's context matches
// (errors.Is) when the user interrupted the statement (a signal while a
// script runs): the rows already read are written out instead of dropped,
// and the failure says so.
var ErrInterrupted = errors.New("interrupted")

// stream pulls every batch into the writer. On failure the writer is not
// ended: buffered formats (table, markdown) print nothing, and a JSON array
// stays unterminated, so no partial result can pass for a complete one.
// An interruption is the exception: the user asked to stop and sees what
// was read (a table of those rows), with an error that says it is partial.
func (s *Session) stream(ctx context.Context, op engine.Operator, w format.Writer, h format.Header, stats *engine.Stats) error {
	defer op.Close()
	if err := w.Begin(h); err != nil {
		return err
	}
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return s.interrupted(ctx, err, w)
		}
		stats.AddRows(b.NumRows())
		err = w.WriteBatch(b)
		b.Release()
		if err != nil {
			return s.interrupted(ctx, err, w)
		}
	}
	return w.End()
}

// interrupted flushes the rows written so far when the user interrupted
// the statement, and names the interruption in the error. A Parquet or
// Arrow file of part of a result would pass for the whole one, so those
// formats write nothing.
func (s *Session) interrupted(ctx context.Context, err error, w format.Writer) error {
	cause := context.Cause(ctx)
	if !errors.Is(cause, ErrInterrupted) {
		return err
	}
	if !format.IsBinary(s.cfg.Format) {
		if ferr := w.End(); ferr != nil {
			return ferr
		}
	}
	// explainFailure adds how far the statement got.
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeCancelled, Cause: err, Msg: cause.Error()}
}

func (s *Session) runExplain(ctx context.Context, e *parser.Explain) error {
	if err := s.textOnly("EXPLAIN"); err != nil {
		return err
	}
	if e.Analyze {
		return s.runAnalyze(ctx, e.Stmt)
	}
	if e.Dialect != "" {
		return s.runExplainDialect(ctx, e)
	}
	// EXPLAIN sends no reads, so it shows a Scan plan even where running
	// the statement would need --allow-scan, and says so.
	explainer := *s
	explainer.cfg.ConfirmScan = nil
	explainer.cfg.Plan.AllowScan = true
	p, err := explainer.plan(ctx, e.Stmt)
	if err != nil {
		return err
	}
	var notes []string
	if !s.cfg.Plan.AllowScan && planner.NeedsScan(p) {
		notes = append(notes, scanOnlyNote)
	}
	notes = append(notes, s.tableNotes(p)...)
	if s.jsonDocuments() {
		return s.writeExplainJSON(p, planner.JSONOptions{Notes: notes})
	}
	text := planner.Explain(p)
	for i := len(notes) - 1; i >= 0; i-- {
		text = "note: " + notes[i] + "\n" + text
	}
	_, err = io.WriteString(s.out, text)
	return err
}

// runAnalyze runs the statement, discards its rows, and prints the plan
// with what each operator actually did beside the estimates.
func (s *Session) runAnalyze(ctx context.Context, sel *parser.Select) error {
	p, err := s.prepare(ctx, sel)
	if err != nil {
		return err
	}
	stats := engine.NewStats()
	env := s.env(stats)
	defer env.Spill.Close()
	env.Analysis = engine.NewAnalysis()
	op, err := engine.Build(env, p.Root)
	if err != nil {
		return err
	}
	stopProgress := s.startProgress(stats, p)
	defer stopProgress()
	err = drain(ctx, op, stats)
	if perr := stopProgress(); err == nil {
		err = perr
	}
	stats.Finish()
	if err != nil {
		err = s.timedOut(ctx, err)
		s.report(stats, env, err)
		return s.explainFailure(err, stats)
	}
	if s.jsonDocuments() {
		err = s.writeExplainJSON(p, planner.JSONOptions{Actual: env.Analysis.Figures,
			ActualTotal: json.RawMessage(FormatStatsJSON(stats.Snapshot(), s.cfg.ReadPrice))})
		s.report(stats, env, err)
		return err
	}
	text := planner.ExplainWith(p, env.Analysis.Line)
	text += "actual total: " + statsFigures(stats.Snapshot(), Completed, s.cfg.ReadPrice) + "\n"
	_, err = io.WriteString(s.out, text)
	s.report(stats, env, err)
	return err
}

func drain(ctx context.Context, op engine.Operator, stats *engine.Stats) error {
	defer op.Close()
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		stats.AddRows(b.NumRows())
		b.Release()
	}
}

// newWriter is the writer of one result: Config.ResultWriter's, or the
// format's writing to out.
func (s *Session) newWriter(out io.Writer) (format.Writer, error) {
	if s.cfg.ResultWriter != nil {
		return s.cfg.ResultWriter(s.writerOptions())
	}
	return format.New(s.cfg.Format, out, s.writerOptions())
}

// writerOptions are the writers' options, with the session's allocator.
func (s *Session) writerOptions() format.Options {
	opt := s.cfg.FormatOptions
	opt.Mem = s.cfg.Mem
	if opt.TempDir == "" {
		opt.TempDir = s.cfg.TempDir // parquet and arrow spool where statements spill
	}
	return opt
}

// textOnly refuses a statement whose output is text (EXPLAIN's tree,
// DESCRIBE's two tables) when the format writes Parquet or Arrow files,
// which hold one query result each.
func (s *Session) textOnly(what string) error {
	if !format.IsBinary(s.cfg.Format) {
		return nil
	}
	return &diag.Error{Phase: diag.Plan, Code: diag.CodeUnsupported, Msg: fmt.Sprintf("%s prints text, and --format %s writes only query results", what, s.cfg.Format),
		Hint: "run it with --format table or json (\\format in the REPL)"}
}

// writeRows sends a small, fully built result through the chosen format.
func (s *Session) writeRows(columns []string, rec arrow.RecordBatch) error {
	defer rec.Release()
	w, err := s.newWriter(s.out)
	if err != nil {
		return err
	}
	defer w.Abort()
	if err := w.Begin(format.Header{Columns: columns}); err != nil {
		return err
	}
	if err := w.WriteBatch(rec); err != nil {
		_ = w.End()
		return err
	}
	return w.End()
}

// report prints the statistics line when asked, or hands the statistics
// to the caller's sink (SetStatsSink) to render.
func (s *Session) report(stats *engine.Stats, env *engine.Env, runErr error) {
	if s.cfg.Stats != StatsText && s.cfg.Stats != StatsJSON {
		return
	}
	st := StatementStats{Snapshot: stats.Snapshot(), Outcome: Completed, ReadPrice: s.cfg.ReadPrice,
		Spill: SpillFigures{Files: env.Spill.Files(), Bytes: env.Spill.Bytes(), MemoryPeak: env.Memory.Peak()}}
	if runErr != nil {
		st.Outcome = Failed
	}
	switch {
	case s.statsSink != nil:
		s.statsSink(st)
	case s.cfg.Stats == StatsText:
		fmt.Fprintln(s.errOut, st.Text())
	default:
		fmt.Fprintln(s.errOut, st.JSON())
	}
}

// RunFrom parses text, then runs its statements in order and stops at the
// first failure, like RunScript, with the first statement's --timeout
// clock started at start (when the caller began reading the script).
func (s *Session) RunFrom(ctx context.Context, text string, start time.Time) error {
	stmts, err := parser.Parse(text)
	if err != nil {
		return err
	}
	return s.runParsed(ctx, stmts, start)
}
