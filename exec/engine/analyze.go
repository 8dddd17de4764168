package engine

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// Analysis collects per-node figures for EXPLAIN ANALYZE: rows produced,
// time spent in the node and below, the DynamoDB requests it sent, and
// what it spilled past --memory-limit (files, bytes, the most it reserved).
type Analysis struct {
	mu    sync.Mutex
	nodes map[planner.Node]*nodeActual
}

type nodeActual struct {
	rows  int64
	time  time.Duration
	stats *Stats
	// The node's shares of the statement's budget and spill directory
	// (nil: no limit, no spilling, or not built as an operator).
	memory *spill.Budget
	spill  *spill.Dir
}

// spilled is what the node wrote to spill files and the most it
// reserved; files is 0 when it spilled nothing.
func (na *nodeActual) spilled() (files int, bytes, peak int64) {
	if na.spill != nil {
		files, bytes = na.spill.Files(), na.spill.Bytes()
	}
	return files, bytes, na.memory.Peak()
}

// NewAnalysis starts collecting.
func NewAnalysis() *Analysis { return &Analysis{nodes: map[planner.Node]*nodeActual{}} }

func (a *Analysis) get(n planner.Node) *nodeActual {
	a.mu.Lock()
	defer a.mu.Unlock()
	na, ok := a.nodes[n]
	if !ok {
		na = &nodeActual{stats: NewStats()}
		a.nodes[n] = na
	}
	return na
}

func (a *Analysis) stats(n planner.Node) *Stats { return a.get(n).stats }

// Line describes what node n did, for planner.ExplainWith.
func (a *Analysis) Line(n planner.Node) (string, bool) {
	a.mu.Lock()
	na, ok := a.nodes[n]
	a.mu.Unlock()
	if !ok {
		return "never ran", true
	}
	line := fmt.Sprintf("%s, %s", plural.Of(na.rows, "row"), roundDuration(na.time))
	if na.rows == 0 && na.time == 0 {
		// Not an operator: a read that is part of one (a lookup's fetch),
		// whose rows are its operator's.
		line = "rows counted by the join"
	}
	s := na.stats.Snapshot()
	if total := s.TotalRequests(); total > 0 {
		line += "; " + plural.Of(total, "request")
		if s.Pages > 0 {
			line += ", " + plural.Of(s.Pages, "page")
		}
		line += fmt.Sprintf(", %s read, %d returned, %s RCU", plural.Of(s.ItemsRead, "item"), s.ItemsReturned, planner.FormatRCU(s.RCU))
	}
	if files, bytes, peak := na.spilled(); files > 0 {
		line += fmt.Sprintf("; spilled %s, %s, peak %s reserved", plural.Of(files, "file"), spill.FormatSize(bytes), spill.FormatSize(peak))
	}
	return line, true
}

// Figures is what node n did, for EXPLAIN ANALYZE in JSON; a node that
// never ran reports Ran false.
func (a *Analysis) Figures(n planner.Node) (planner.ActualFigures, bool) {
	a.mu.Lock()
	na, ok := a.nodes[n]
	a.mu.Unlock()
	if !ok {
		return planner.ActualFigures{}, true
	}
	s := na.stats.Snapshot()
	files, bytes, peak := na.spilled()
	return planner.ActualFigures{Ran: true, Rows: na.rows, Time: na.time, Requests: s.Requests, Pages: s.Pages,
		ItemsRead: s.ItemsRead, ItemsReturned: s.ItemsReturned, RCU: s.RCU,
		SpillFiles: files, SpillBytes: bytes, MemoryPeak: peak}, true
}

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// analyzedOp counts the rows and time of the operator it wraps.
type analyzedOp struct {
	inner  Operator
	actual *nodeActual
}

func (op *analyzedOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	start := time.Now()
	b, err := op.inner.Next(ctx)
	op.actual.time += time.Since(start)
	if err == nil {
		op.actual.rows += b.NumRows()
	} else if err != io.EOF {
		return nil, err
	}
	return b, err
}

func (op *analyzedOp) Close() error { return op.inner.Close() }
