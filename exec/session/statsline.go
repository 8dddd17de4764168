package session

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// Outcome is how a statement ended, as its stats line tells.
type Outcome int

const (
	Completed Outcome = iota
	Failed            // the rows are those "before the error"
	Cancelled         // the user interrupted it: rows "before it was cancelled"
)

// StatementStats is what one statement read and how it ended: the figures
// of its statistics line, for a caller that renders them itself (the REPL
// shows them on request, and as "cancelled" when the user interrupted).
type StatementStats struct {
	engine.Snapshot
	Outcome Outcome
	// ReadPrice is the on-demand price in USD per million read units the
	// cost is computed with.
	ReadPrice float64
	// Spill is what the statement's blocking operators wrote to
	// --temp-dir because they passed --memory-limit.
	Spill SpillFigures
}

// SpillFigures are a statement's spill files and bytes, and the most its
// operators held at once under --memory-limit.
type SpillFigures struct {
	Files      int
	Bytes      int64
	MemoryPeak int64
}

// text is the statistics line's spill part, "" when nothing spilled.
func (f SpillFigures) text() string {
	if f.Files == 0 {
		return ""
	}
	return fmt.Sprintf("spilled %s, %s", plural.Of(f.Files, "file"), spill.FormatSize(f.Bytes))
}

// Text is the statistics line FormatStatsText renders.
func (st StatementStats) Text() string {
	line := FormatStatsText(st.Snapshot, st.Outcome, st.ReadPrice)
	if t := st.Spill.text(); t != "" {
		line += " · " + t
	}
	return line
}

// JSON is the statistics object FormatStatsJSON renders.
func (st StatementStats) JSON() string {
	return formatStatsJSON(st.Snapshot, st.ReadPrice, &st.Spill)
}

// FormatStatsText renders one line: rows, requests by operation, pages,
// items read vs returned, consumed read capacity by table/index, time.
func FormatStatsText(s engine.Snapshot, end Outcome, pricePerMillion float64) string {
	return "-- " + statsFigures(s, end, pricePerMillion)
}

// statsFigures is the statistics line without its "-- " lead (EXPLAIN
// ANALYZE's "actual total:" line shows it).
func statsFigures(s engine.Snapshot, end Outcome, pricePerMillion float64) string {
	var parts []string
	rows := plural.Of(s.Rows, "row")
	switch end {
	case Failed:
		rows += " before the error"
	case Cancelled:
		rows += " before it was cancelled"
	}
	parts = append(parts, rows)
	var reqs []string
	for _, op := range s.Operations() {
		reqs = append(reqs, fmt.Sprintf("%s %d", op, s.Requests[op]))
	}
	req := plural.Of(s.TotalRequests(), "request")
	if len(reqs) > 0 {
		req += " (" + strings.Join(reqs, ", ") + ")"
	}
	parts = append(parts, req)
	if s.Pages > 0 {
		parts = append(parts, plural.Of(s.Pages, "page"))
	}
	parts = append(parts, fmt.Sprintf("%s read, %d returned", plural.Of(s.ItemsRead, "item"), s.ItemsReturned))
	rcu := "RCU " + formatUnits(s.RCU)
	if len(s.ByTarget) > 0 {
		rcu += " (" + targets(s.ByTarget) + ")"
	}
	if pricePerMillion > 0 {
		rcu += " ≈ " + formatUSD(s.RCU/1e6*pricePerMillion)
	}
	parts = append(parts, rcu)
	parts = append(parts, formatElapsed(s.Elapsed))
	return strings.Join(parts, " · ")
}

func targets(m map[string]float64) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + " " + formatUnits(m[n])
	}
	return strings.Join(out, ", ")
}

func formatUnits(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func formatElapsed(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

// FormatStatsJSON renders the statistics as one JSON object on one line.
func FormatStatsJSON(s engine.Snapshot, pricePerMillion float64) string {
	return formatStatsJSON(s, pricePerMillion, nil)
}

// formatStatsJSON adds the spill figures when there are some to add.
func formatStatsJSON(s engine.Snapshot, pricePerMillion float64, sp *SpillFigures) string {
	obj := map[string]any{
		"rows":           s.Rows,
		"requests":       s.TotalRequests(),
		"by_operation":   s.Requests,
		"pages":          s.Pages,
		"items_read":     s.ItemsRead,
		"items_returned": s.ItemsReturned,
		"rcu":            s.RCU,
		"by_index":       s.ByTarget,
		"elapsed_ms":     float64(s.Elapsed.Microseconds()) / 1000,
		"cost_usd":       s.RCU / 1e6 * pricePerMillion,
	}
	if sp != nil {
		obj["spill_files"], obj["spill_bytes"], obj["memory_peak_bytes"] = sp.Files, sp.Bytes, sp.MemoryPeak
	}
	b, _ := json.Marshal(obj)
	return string(b)
}

// formatUSD prints a small amount with two significant digits: $0.0000063.
func formatUSD(usd float64) string {
	if usd == 0 {
		return "$0"
	}
	decimals := 2
	for f := usd; f < 1 && decimals < 12; f *= 10 {
		decimals++
	}
	return "$" + strconv.FormatFloat(usd, 'f', decimals-1, 64)
}
