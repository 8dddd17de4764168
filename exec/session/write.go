package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// planWrite plans an INSERT, REPLACE, UPDATE or DELETE, with the same
// Scan question and --strict rule as a SELECT's read.
func (s *Session) planWrite(ctx context.Context, st parser.Statement) (*planner.WritePlan, error) {
	opts := s.planOptions()
	opts.Now = time.Now()
	wp, err := planner.PlanWrite(ctx, s.catalog, st, opts)
	if err != nil {
		var pe *diag.Error
		if errors.As(err, &pe) && pe.Phase == diag.Plan {
			var need *planner.ScanNeeded
			if errors.As(pe.Cause, &need) && s.cfg.ConfirmScan != nil && s.confirmScan(ctx, need.Estimate) {
				opts.AllowScan = true
				return planner.PlanWrite(ctx, s.catalog, st, opts)
			}
			return nil, pe
		}
		return nil, engine.DynamoError("DescribeTable", err)
	}
	return wp, nil
}

// runWrite runs a write statement: --read-only refuses it, --dry-run reads
// and reports, otherwise exec/write writes every item.
func (s *Session) runWrite(ctx context.Context, st parser.Statement) error {
	if s.cfg.ReadOnly {
		return &diag.Error{Phase: diag.Plan, Code: diag.CodeReadOnly,
			Msg:  "this session is --read-only: INSERT, REPLACE, UPDATE and DELETE are refused; nothing was written",
			Hint: "run without --read-only to change items (EXPLAIN and --dry-run show what a write would do)"}
	}
	wc := s.writer
	if wc == nil {
		return &diag.Error{Phase: diag.Plan, Code: diag.CodeUnsupported, Msg: "this connection cannot write items"}
	}
	wp, err := s.planWrite(ctx, st)
	if err != nil {
		return err
	}
	if wp.Read != nil && s.cfg.Plan.Strict {
		if err := planner.CheckStrict(wp.Read); err != nil {
			return err
		}
	}
	if wp.Read != nil && s.cfg.MaxRCU > 0 {
		if err := checkBudget(planner.TotalEstimate(wp.Read), s.cfg.MaxRCU); err != nil {
			return err
		}
	}
	s.printNotes(wp.Notes)
	if wp.Read != nil {
		s.printNotes(wp.Read.Notes)
	}
	stats := engine.NewStats()
	env := s.env(stats)
	defer env.Spill.Close()
	wenv := &write.Env{Engine: env, Client: wc, DryRun: s.cfg.DryRun, MaxWCU: s.cfg.MaxWCU, BeforeWrite: s.beforeWrite}
	if s.cfg.ConfirmWrite != nil {
		wenv.Confirm = func(ctx context.Context, c write.Confirmation) bool {
			// The time the user takes to answer is not the statement's.
			if st := statementOf(ctx); st != nil {
				defer st.clock.pause()()
			}
			return s.cfg.ConfirmWrite(ctx, c)
		}
	}
	if s.cfg.Journal != "" && !s.cfg.DryRun {
		j, err := write.OpenJournal(s.cfg.Journal)
		if err != nil {
			return err
		}
		defer j.Close()
		wenv.Journal, wenv.Text = j, parser.StatementText(st)
	}
	res, err := write.Run(ctx, wenv, wp)
	if wenv.Journal != nil && res != nil && len(res.Written) > 0 && s.notedJournal != s.cfg.Journal {
		s.notedJournal = s.cfg.Journal
		s.printNotes([]string{"writes are journaled in " + s.cfg.Journal + "; ddbsql --undo " + s.cfg.Journal + " puts the old items back"})
	}
	if s.inMemory && res != nil && len(res.Written) > 0 && !s.warnedInMemory {
		s.warnedInMemory = true
		s.printNotes([]string{"these tables live in memory: changes last until ddbsql exits and are written nowhere else"})
	}
	stats.Finish()
	err = s.timedOut(ctx, err)
	s.reportWrite(stats, env, res, err)
	if err != nil {
		return err
	}
	return s.printWriteResult(res)
}

// printWriteResult says what the statement did (or, dry, would do).
func (s *Session) printWriteResult(res *write.Result) error {
	verb := map[planner.WriteKind]string{planner.WriteInsert: "inserted", planner.WriteReplace: "written",
		planner.WriteUpdate: "updated", planner.WriteDelete: "deleted"}[res.Kind]
	var sb strings.Builder
	if res.DryRun {
		fmt.Fprintf(&sb, "dry run: %s would be %s in %s, about %s WCU; nothing was written\n",
			plural.Of(len(res.Keys), "item"), verb, res.Table, planner.FormatRCU(res.EstimatedWCU))
		n := min(len(res.Keys), write.SampleKeys)
		for _, k := range res.Keys[:n] {
			fmt.Fprintf(&sb, "  %s\n", k)
		}
		if len(res.Keys) > n {
			fmt.Fprintf(&sb, "  … and %d more\n", len(res.Keys)-n)
		}
	} else {
		fmt.Fprintf(&sb, "%s %s in %s", plural.Of(len(res.Written), "item"), verb, res.Table)
		if len(res.Skipped) > 0 {
			fmt.Fprintf(&sb, "; %d changed by someone else since they were read and no longer match, left as they are", len(res.Skipped))
		}
		sb.WriteString("\n")
	}
	w := s.errOut
	if w == nil {
		w = io.Discard
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// runExplainWrite prints a write's plan: its requests over its read.
func (s *Session) runExplainWrite(ctx context.Context, st parser.Statement) error {
	explainer := *s
	explainer.cfg.ConfirmScan = nil
	explainer.cfg.Plan.AllowScan = true
	wp, err := explainer.planWrite(ctx, st)
	if err != nil {
		return err
	}
	var notes []string
	if wp.Read != nil && !s.cfg.Plan.AllowScan && planner.NeedsScan(wp.Read) {
		notes = append(notes, scanOnlyNote)
	}
	if s.jsonDocuments() {
		doc, err := planner.ExplainWriteJSON(wp, planner.JSONOptions{Compact: s.cfg.Format == "ndjson", Notes: notes})
		if err != nil {
			return err
		}
		_, err = s.out.Write(doc)
		return err
	}
	text := planner.ExplainWrite(wp)
	for i := len(notes) - 1; i >= 0; i-- {
		text = "note: " + notes[i] + "\n" + text
	}
	_, err = io.WriteString(s.out, text)
	return err
}

// WriteStats is what --stats reports of a write beside its reads.
type WriteStats struct {
	Kind         string             `json:"kind"`
	Table        string             `json:"table"`
	DryRun       bool               `json:"dry_run,omitempty"`
	Matched      int                `json:"matched"`
	Written      []string           `json:"written"`
	NotWritten   []string           `json:"not_written"`
	Skipped      []string           `json:"skipped,omitempty"`
	EstimatedWCU float64            `json:"estimated_wcu"`
	WCU          float64            `json:"wcu"`
	WCUBy        map[string]float64 `json:"wcu_by_table_and_index"`
	Conditions   int                `json:"conditional_check_failures"`
	Requests     int                `json:"write_requests"`
}

func (s *Session) reportWrite(stats *engine.Stats, env *engine.Env, res *write.Result, runErr error) {
	s.report(stats, env, runErr)
	if res == nil || s.cfg.Stats != StatsText && s.cfg.Stats != StatsJSON || s.errOut == nil {
		return
	}
	ws := WriteStats{Kind: res.Kind.String(), Table: res.Table, DryRun: res.DryRun, Matched: len(res.Keys), Written: nonNil(res.Written),
		NotWritten: nonNil(res.NotWritten), Skipped: res.Skipped, EstimatedWCU: res.EstimatedWCU, WCU: res.WCU, WCUBy: res.WCUBy,
		Conditions: res.Conditions, Requests: res.Requests}
	if s.cfg.Stats == StatsJSON {
		b, _ := json.Marshal(map[string]any{"write": ws})
		fmt.Fprintln(s.errOut, string(b))
		return
	}
	var by []string
	for _, k := range sortedKeys(res.WCUBy) {
		by = append(by, fmt.Sprintf("%s %s", k, planner.FormatRCU(res.WCUBy[k])))
	}
	fmt.Fprintf(s.errOut, "write: %s %d of %d items, %s WCU (%s), %d write requests, %d conditional-check failures\n",
		ws.Kind, len(res.Written), len(res.Keys), planner.FormatRCU(res.WCU), strings.Join(by, ", "), res.Requests, res.Conditions)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// isInMemory says whether a client's tables live in memory only.
func isInMemory(c dynamo.Client) bool {
	mem, ok := c.(interface{ InMemory() bool })
	return ok && mem.InMemory()
}
