package session

import (
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/engine"
)

// TestStatsTextCountsNouns checks that every count in the stats line agrees
// with its number: "1 item read", never "1 items read".
func TestStatsTextCountsNouns(t *testing.T) {
	for _, tc := range []struct {
		snap engine.Snapshot
		want string
	}{
		{engine.Snapshot{Requests: map[string]int{"GetItem": 1}, Pages: 1, ItemsRead: 1, ItemsReturned: 1, Rows: 1, RCU: 0.5, Elapsed: 10 * time.Microsecond},
			"-- 1 row · 1 request (GetItem 1) · 1 page · 1 item read, 1 returned · RCU 0.5 · 10µs"},
		{engine.Snapshot{Requests: map[string]int{"Query": 2}, Pages: 3, ItemsRead: 5, ItemsReturned: 0, Rows: 0, RCU: 1.5, Elapsed: 2 * time.Millisecond},
			"-- 0 rows · 2 requests (Query 2) · 3 pages · 5 items read, 0 returned · RCU 1.5 · 2ms"},
		{engine.Snapshot{Requests: map[string]int{}, ItemsRead: 0, Rows: 2},
			"-- 2 rows · 0 requests · 0 items read, 0 returned · RCU 0 · 0µs"},
	} {
		if got := FormatStatsText(tc.snap, Completed, 0); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// TestStatsTextFailed checks that the line of a failed statement says its
// rows came before the error, and a completed one's does not.
func TestStatsTextFailed(t *testing.T) {
	snap := engine.Snapshot{Requests: map[string]int{"Query": 1}, Pages: 1, ItemsRead: 3, ItemsReturned: 3, Rows: 1}
	want := "-- 1 row before the error · 1 request (Query 1) · 1 page · 3 items read, 3 returned · RCU 0 · 0µs"
	if got := FormatStatsText(snap, Failed, 0); got != want {
		t.Errorf("failed:\ngot  %s\nwant %s", got, want)
	}
	if got := FormatStatsText(snap, Completed, 0); got != "-- 1 row · 1 request (Query 1) · 1 page · 3 items read, 3 returned · RCU 0 · 0µs" {
		t.Errorf("completed: got %s", got)
	}
}

// TestStatsTextCancelled checks that the line of an interrupted statement
// says its rows came before it was cancelled.
func TestStatsTextCancelled(t *testing.T) {
	st := StatementStats{Snapshot: engine.Snapshot{Requests: map[string]int{"Scan": 2}, Pages: 2, ItemsRead: 4, ItemsReturned: 4, Rows: 4}, Outcome: Cancelled}
	want := "-- 4 rows before it was cancelled · 2 requests (Scan 2) · 2 pages · 4 items read, 4 returned · RCU 0 · 0µs"
	if got := st.Text(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
