package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/internal/exportgen"
)

func chainArgs(ch *exportgen.Chain) []string {
	args := []string{"--data", ch.Full.Root, "--key", "PK,SK"}
	for _, w := range ch.Windows {
		args = append(args, "--data", w.Root)
	}
	return append(args, "--allow-scan", "--format", "csv")
}

// stateCSV is "PK,SK,rev,status" for each item of a state, in key order.
func stateCSV(t *testing.T, items []string) string {
	rows := []string{"PK,SK,rev,status"}
	var body []string
	for _, it := range items {
		var m map[string]map[string]any
		if err := json.Unmarshal([]byte(it), &m); err != nil {
			t.Fatal(err)
		}
		body = append(body, fmt.Sprintf("%s,%s,%s,%s", m["PK"]["S"], m["SK"]["S"], m["rev"]["N"], m["status"]["S"]))
	}
	sort.Strings(body)
	return strings.Join(append(rows, body...), "\n") + "\n"
}

// Through the command line: every boundary's table and change rows, the
// line saying which boundary --as-of chose, and the errors.
func TestAsOf(t *testing.T) {
	ch, err := exportgen.WriteChain(t.TempDir(), exportgen.ChainOptions{Items: 30, Windows: 3, Changes: 12, Files: 2, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	query := "SELECT PK, SK, rev, status FROM accounts ORDER BY PK, SK"
	r := invoke(append(chainArgs(ch), "-e", query), "")
	if r.code != 0 || r.out != stateCSV(t, ch.States[3]) || r.err != "" {
		t.Fatalf("latest: exit %d, err %q\n got %s\nwant %s", r.code, r.err, r.out, stateCSV(t, ch.States[3]))
	}
	bounds := []time.Time{ch.Full.Time, ch.Windows[0].To, ch.Windows[1].To, ch.Windows[2].To}
	for k, at := range bounds {
		for _, asOf := range []string{at.Format(time.RFC3339), at.Add(59 * time.Minute).In(time.FixedZone("JST", 9*3600)).Format(time.RFC3339), fmt.Sprint(at.Add(time.Minute).Unix())} {
			r := invoke(append(chainArgs(ch), "--as-of", asOf, "-e", query), "")
			if r.code != 0 || r.out != stateCSV(t, ch.States[k]) {
				t.Fatalf("--as-of %s: exit %d, err %q\n got %s\nwant %s", asOf, r.code, r.err, r.out, stateCSV(t, ch.States[k]))
			}
			want := fmt.Sprintf("as of %s (the latest window boundary at or before --as-of ", at.Format(time.RFC3339))
			if !strings.HasPrefix(r.err, want) || !strings.HasSuffix(r.err, fmt.Sprintf(", %d of 3 incremental exports applied\n", k)) || strings.Count(r.err, "\n") != 1 {
				t.Errorf("--as-of %s: stderr %q", asOf, r.err)
			}
		}
	}

	// $changes, written without quotes, as of the second window.
	r = invoke(append(chainArgs(ch), "--as-of", bounds[2].Format(time.RFC3339), "-e", "SELECT export_id, seq, operation, PK, SK, new_rev, old_rev FROM accounts$changes ORDER BY write_time"), "")
	want := []string{"export_id,seq,operation,PK,SK,new_rev,old_rev"}
	for _, w := range ch.Windows[:2] {
		for i, rec := range w.Records {
			var keys map[string]map[string]string
			_ = json.Unmarshal([]byte(rec.Keys), &keys)
			want = append(want, fmt.Sprintf("%s,%d,%s,%s,%s,%s,%s", w.ID, i+1, rec.Op, keys["PK"]["S"], keys["SK"]["S"], revOf(t, rec.New), revOf(t, rec.Old)))
		}
	}
	if r.code != 0 || r.out != strings.Join(want, "\n")+"\n" {
		t.Fatalf("$changes: exit %d, err %q\n got %s\nwant %s", r.code, r.err, r.out, strings.Join(want, "\n"))
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{append(chainArgs(ch), "--as-of", bounds[0].Add(-time.Second).Format(time.RFC3339), "-e", query), 1, "is before the full export of table accounts"},
		{append(chainArgs(ch), "--as-of", "yesterday", "-e", query), 2, "is not a time"},
		{[]string{"--demo", "--as-of", "2026-03-01", "-e", "SHOW TABLES"}, 2, "--as-of selects a point in time of --data"},
		{[]string{"--data", ch.Full.Root, "--key", "PK,SK", "--as-of", "2026-03-01", "-e", "SHOW TABLES"}, 1, "no --data table has incremental exports"},
		{[]string{"--data", ch.Windows[0].Root, "--key", "PK,SK", "-e", "SHOW TABLES"}, 1, "give the full export it follows too"},
	} {
		r := invoke(tc.args, "")
		if r.code != tc.code || !strings.Contains(r.err, tc.want) {
			t.Errorf("%v: exit %d, err %q; want exit %d with %q", tc.args, r.code, r.err, tc.code, tc.want)
		}
	}
}

func revOf(t *testing.T, item string) string {
	if item == "" {
		return ""
	}
	var m map[string]map[string]any
	if err := json.Unmarshal([]byte(item), &m); err != nil {
		t.Fatal(err)
	}
	return m["rev"]["N"].(string)
}

// A gap or an overlap fails every statement, naming both exports.
func TestAsOfChainErrors(t *testing.T) {
	for _, o := range []exportgen.ChainOptions{{Windows: 3, Gap: 2}, {Windows: 2, Overlap: 2}} {
		o.Items, o.Changes = 10, 3
		ch, err := exportgen.WriteChain(t.TempDir(), o)
		if err != nil {
			t.Fatal(err)
		}
		k := max(o.Gap, o.Overlap)
		r := invoke(append(chainArgs(ch), "-e", "SELECT COUNT(*) FROM accounts"), "")
		if r.code != 1 || r.out != "" || !strings.Contains(r.err, ch.Windows[k-2].Root) || !strings.Contains(r.err, ch.Windows[k-1].Root) {
			t.Errorf("%+v: exit %d, out %q, err %q", o, r.code, r.out, r.err)
		}
	}
}

// EXPLAIN says which point in time a table with incremental exports shows.
func TestAsOfExplain(t *testing.T) {
	ch, err := exportgen.WriteChain(t.TempDir(), exportgen.ChainOptions{Items: 10, Windows: 2, Changes: 4})
	if err != nil {
		t.Fatal(err)
	}
	r := invoke(append(chainArgs(ch), "--as-of", ch.Windows[0].To.Add(time.Minute).Format(time.RFC3339), "-e",
		"EXPLAIN SELECT a.PK, c.operation FROM accounts a JOIN accounts$changes c ON a.PK = c.PK AND a.SK = c.SK"), "")
	for _, want := range []string{
		"note: accounts is shown as of " + ch.Windows[0].To.Format(time.RFC3339) + ", after incremental export " + ch.Windows[0].ID + " (1 of 2 incremental exports applied: --as-of ",
		"note: accounts$changes holds the changes of 1 of 2 incremental exports, up to " + ch.Windows[0].To.Format(time.RFC3339),
	} {
		if r.code != 0 || !strings.Contains(r.out, want) {
			t.Errorf("exit %d, err %q, EXPLAIN lacks %q:\n%s", r.code, r.err, want, r.out)
		}
	}
	r = invoke(append(chainArgs(ch), "-e", "EXPLAIN SELECT * FROM accounts WHERE PK = 'ACC#0001'"), "")
	if want := "(2 of 2 incremental exports applied: the last window)"; r.code != 0 || !strings.Contains(r.out, want) {
		t.Errorf("exit %d, EXPLAIN lacks %q:\n%s", r.code, want, r.out)
	}
}

func TestParseAsOf(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 30, 15, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"2026-03-01T12:30:15Z":       at,
		"2026-03-01T21:30:15+09:00":  at,
		"2026-03-01T12:30:15.25Z":    at.Add(250 * time.Millisecond),
		"2026-03-01T12:30:15":        at,
		"2026-03-01 12:30:15":        at,
		"2026-03-01 12:30":           at.Add(-15 * time.Second),
		"2026-03-01":                 time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		fmt.Sprint(at.Unix()):        at,
		fmt.Sprint(at.Unix()) + ".5": at.Add(500 * time.Millisecond),
		fmt.Sprint(at.UnixMilli()):   at,
		fmt.Sprint(at.UnixMicro()):   at,
		" 2026-03-01T12:30:15Z ":     at,
	} {
		var got time.Time
		if err := (asOfFlag{&got}).Set(in); err != nil || !got.Equal(want) {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "yesterday", "2026-13-01", "123456789012", "1.2.3"} {
		var got time.Time
		if err := (asOfFlag{&got}).Set(in); err == nil {
			t.Errorf("%q parsed as %v", in, got)
		}
	}
}
