package session_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/session"
)

// TestNewTakesItsConfig makes sessions from a Config: a zero Config gives
// table output without statistics, and the settings given are those used.
func TestNewTakesItsConfig(t *testing.T) {
	var out, errOut bytes.Buffer
	s := session.New(memClient(t), &out, &errOut, session.Config{})
	if s.Format != "table" || s.Stats != session.StatsOff {
		t.Fatalf("zero Config: format %q, stats %q; want table, off", s.Format, s.Stats)
	}
	s = session.New(memClient(t), &out, &errOut, session.Config{Format: "csv", Stats: session.StatsText, MaxRCU: 7})
	if err := s.RunScript(context.Background(), "SHOW TABLES"); err != nil {
		t.Fatal(err)
	}
	if s.MaxRCU != 7 || !strings.HasPrefix(out.String(), "table_name\napp\n") {
		t.Fatalf("csv session: MaxRCU %v, output %q", s.MaxRCU, out.String())
	}
}

// TestSettersRefuseWhatTheSessionCannotDo changes settings through the
// methods: known values take, unknown ones are refused and change nothing.
func TestSettersRefuseWhatTheSessionCannotDo(t *testing.T) {
	s := session.New(memClient(t), &bytes.Buffer{}, &bytes.Buffer{}, session.DefaultConfig())
	if err := s.SetFormat("JSON"); err != nil || s.Format != "json" {
		t.Fatalf("SetFormat(JSON): %v, format %q", err, s.Format)
	}
	err := s.SetFormat("yaml")
	if err == nil || !strings.Contains(err.Error(), `unknown output format "yaml"`) || s.Format != "json" {
		t.Fatalf("SetFormat(yaml): %v, format %q", err, s.Format)
	}
	if err := s.SetStats(session.StatsJSON); err != nil || s.Stats != session.StatsJSON {
		t.Fatalf("SetStats(json): %v, stats %q", err, s.Stats)
	}
	if err := s.SetStats("loud"); err == nil || s.Stats != session.StatsJSON {
		t.Fatalf("SetStats(loud): %v, stats %q", err, s.Stats)
	}
	opts := s.PlanOptions()
	opts.AllowScan = true
	s.SetPlanOptions(opts)
	if !s.PlanOptions().AllowScan {
		t.Fatal("SetPlanOptions did not take")
	}
}
