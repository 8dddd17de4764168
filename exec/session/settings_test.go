package session_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/planner"
)

// TestNewTakesItsConfig makes sessions from a Config: a zero Config gives
// table output without statistics, and the settings given are those used.
func TestNewTakesItsConfig(t *testing.T) {
	var out, errOut bytes.Buffer
	s := session.New(memClient(t), &out, &errOut, session.Config{})
	if st := s.Settings(); st.Format != "table" || st.Stats != session.StatsOff || st.Mem == nil {
		t.Fatalf("zero Config: format %q, stats %q, allocator %v; want table, off, the default", st.Format, st.Stats, st.Mem)
	}
	s = session.New(memClient(t), &out, &errOut, session.Config{Format: "csv", Stats: session.StatsText, MaxRCU: 7})
	if err := s.RunScript(context.Background(), "SHOW TABLES"); err != nil {
		t.Fatal(err)
	}
	if s.Settings().MaxRCU != 7 || !strings.HasPrefix(out.String(), "table_name\napp\n") {
		t.Fatalf("csv session: MaxRCU %v, output %q", s.Settings().MaxRCU, out.String())
	}
}

// TestSettersRefuseWhatTheSessionCannotDo changes settings through the
// methods: known values take, unknown ones are refused and change nothing.
func TestSettersRefuseWhatTheSessionCannotDo(t *testing.T) {
	s := session.New(memClient(t), &bytes.Buffer{}, &bytes.Buffer{}, session.DefaultConfig())
	if err := s.SetFormat("JSON"); err != nil || s.Settings().Format != "json" {
		t.Fatalf("SetFormat(JSON): %v, format %q", err, s.Settings().Format)
	}
	err := s.SetFormat("yaml")
	if err == nil || !strings.Contains(err.Error(), `unknown output format "yaml"`) || s.Settings().Format != "json" {
		t.Fatalf("SetFormat(yaml): %v, format %q", err, s.Settings().Format)
	}
	if err := s.SetStats(session.StatsJSON); err != nil || s.Settings().Stats != session.StatsJSON {
		t.Fatalf("SetStats(json): %v, stats %q", err, s.Settings().Stats)
	}
	if err := s.SetStats("loud"); err == nil || s.Settings().Stats != session.StatsJSON {
		t.Fatalf("SetStats(loud): %v, stats %q", err, s.Settings().Stats)
	}
	opts := s.Settings().Plan
	opts.AllowScan = true
	s.SetPlanOptions(opts)
	if !s.Settings().Plan.AllowScan {
		t.Fatal("SetPlanOptions did not take")
	}
}

// TestStatsSinkReceivesTheFigures runs statements with a statistics sink:
// each statement's figures reach it, in order, rendered as the statistics
// writer would have shown them, and nothing is written there; without the
// sink the same line is written again.
func TestStatsSinkReceivesTheFigures(t *testing.T) {
	var errOut bytes.Buffer
	s := session.New(memClient(t), &bytes.Buffer{}, &errOut, session.Config{Stats: session.StatsText, ReadPrice: session.DefaultReadPrice})
	var got []session.StatementStats
	s.SetStatsSink(func(st session.StatementStats) { got = append(got, st) })
	if err := s.RunScript(context.Background(), "SELECT id FROM customers WHERE id = 'c_0001'; SELECT id FROM customers WHERE id IN ('c_0001', 'c_0002')"); err != nil {
		t.Fatal(err)
	}
	if errOut.Len() != 0 {
		t.Fatalf("the sink is set, yet the statistics writer got %q", errOut.String())
	}
	if len(got) != 2 || got[0].Rows != 1 || got[1].Rows != 2 || got[0].Outcome != session.Completed || got[0].TotalRequests() == 0 {
		t.Fatalf("sink got %+v, want the figures of 2 completed statements of 1 and 2 rows", got)
	}
	if want := session.FormatStatsText(got[1].Snapshot, session.Completed, session.DefaultReadPrice); got[1].Text() != want {
		t.Errorf("Text() = %q, want %q", got[1].Text(), want)
	}
	s.SetStatsSink(nil)
	if err := s.RunScript(context.Background(), "SELECT id FROM customers WHERE id = 'c_0001'"); err != nil {
		t.Fatal(err)
	}
	if line := errOut.String(); !strings.HasPrefix(line, "-- 1 row · ") || !strings.HasSuffix(line, "\n") {
		t.Errorf("without the sink the statistics writer got %q, want the stats line", line)
	}
}

// TestSettingsReadBack checks that Settings gives back what New was given,
// as the setters changed it since.
func TestSettingsReadBack(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.MaxRCU, cfg.Timeout, cfg.Concurrency = 3, time.Second, 2
	s := session.New(memClient(t), &bytes.Buffer{}, &bytes.Buffer{}, cfg)
	got := s.Settings()
	if got.Format != "table" || got.MaxRCU != 3 || got.Timeout != time.Second || got.Concurrency != 2 || got.ReadPrice != session.DefaultReadPrice {
		t.Fatalf("Settings() = %+v, want the Config given", got)
	}
	if err := s.SetFormat("csv"); err != nil {
		t.Fatal(err)
	}
	s.SetExpanded(true)
	s.SetConcurrency(5)
	s.SetPlanOptions(planner.Options{Consistent: true, Segments: 2})
	got = s.Settings()
	if got.Format != "csv" || !got.FormatOptions.Expanded || got.Concurrency != 5 || !got.Plan.Consistent || got.Plan.Segments != 2 || got.MaxRCU != 3 {
		t.Fatalf("after the setters Settings() = %+v", got)
	}
}

// TestConfirmScanAndWrapClient checks the hooks an embedding caller sets
// after New: the scan question is asked, and the wrapped client sees the
// reads while the catalog keeps its own.
func TestConfirmScanAndWrapClient(t *testing.T) {
	var out bytes.Buffer
	cfg := session.DefaultConfig()
	cfg.Format = "csv"
	s := session.New(memClient(t), &out, &bytes.Buffer{}, cfg)
	catalog := s.Catalog()
	var sp *spyClient
	s.WrapClient(func(c dynamo.Client) dynamo.Client { sp = spy(c); return sp })
	if s.Client() != dynamo.Client(sp) || s.Catalog() != catalog {
		t.Fatal("WrapClient must replace the client and keep the catalog")
	}
	asked := 0
	s.SetConfirmScan(func(context.Context, planner.ScanEstimate) bool { asked++; return true })
	if err := s.RunScript(context.Background(), "SELECT COUNT(*) AS n FROM customers"); err != nil {
		t.Fatal(err)
	}
	if asked != 1 || !strings.HasPrefix(out.String(), "n\n") {
		t.Fatalf("asked %d times, output %q; want one question and the count", asked, out.String())
	}
	if reqs := sp.requests(); len(reqs) == 0 || reqs[0].Op != "Scan" {
		t.Fatalf("the wrapped client saw %+v, want the Scan", reqs)
	}
	s.SetConfirmScan(nil)
	if err := s.RunScript(context.Background(), "SELECT COUNT(*) AS n FROM customers"); err == nil || asked != 1 {
		t.Fatalf("without a question the Scan must be refused: %v (asked %d)", err, asked)
	}
}
