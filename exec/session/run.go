package session

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner"
)

func (s *Session) runSelect(ctx context.Context, sel *parser.Select) error {
	p, err := s.plan(ctx, sel)
	if err != nil {
		return err
	}
	stats := exec.NewStats()
	op, err := exec.Build(s.env(stats), p.Root)
	if err != nil {
		return err
	}
	w, err := format.New(s.Format, s.Out, s.FormatOptions)
	if err != nil {
		op.Close()
		return err
	}
	err = s.stream(ctx, op, w, format.Header{Columns: p.Columns, Dynamic: p.Star, KeyColumns: p.KeyColumns}, stats)
	stats.Finish()
	s.report(stats, err)
	return err
}

// stream pulls every batch into the writer. On failure the writer is still
// ended (so JSON stays well-formed up to that point) but the error is
// returned: the caller reports that the result is incomplete.
func (s *Session) stream(ctx context.Context, op exec.Operator, w format.Writer, h format.Header, stats *exec.Stats) error {
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
			_ = w.End()
			return err
		}
		stats.AddRows(b.NumRows())
		err = w.WriteBatch(b)
		b.Release()
		if err != nil {
			_ = w.End()
			return err
		}
	}
	return w.End()
}

func (s *Session) runExplain(ctx context.Context, e *parser.Explain) error {
	if e.Analyze {
		return &planner.Error{Code: planner.CodeUnsupported, Msg: "EXPLAIN ANALYZE is not supported yet; use EXPLAIN, or run the statement with --stats text"}
	}
	// EXPLAIN sends no reads, so it shows a Scan plan even where running
	// the statement would need --allow-scan, and says so.
	explainer := *s
	explainer.ConfirmScan = nil
	explainer.Options.AllowScan = true
	p, err := explainer.plan(ctx, e.Stmt)
	if err != nil {
		return err
	}
	text := planner.Explain(p)
	if !s.Options.AllowScan && planner.NeedsScan(p) {
		text = "note: this plan reads a whole table or index with Scan; it runs only with --allow-scan\n" + text
	}
	_, err = io.WriteString(s.Out, text)
	return err
}

// writeRows sends a small, fully built result through the chosen format.
func (s *Session) writeRows(columns []string, rec arrow.RecordBatch) error {
	defer rec.Release()
	w, err := format.New(s.Format, s.Out, s.FormatOptions)
	if err != nil {
		return err
	}
	if err := w.Begin(format.Header{Columns: columns}); err != nil {
		return err
	}
	if err := w.WriteBatch(rec); err != nil {
		_ = w.End()
		return err
	}
	return w.End()
}

// report prints the statistics line when asked.
func (s *Session) report(stats *exec.Stats, runErr error) {
	switch s.Stats {
	case StatsText:
		fmt.Fprintln(s.Err, FormatStatsText(stats.Snapshot(), runErr != nil))
	case StatsJSON:
		fmt.Fprintln(s.Err, FormatStatsJSON(stats.Snapshot()))
	}
}
