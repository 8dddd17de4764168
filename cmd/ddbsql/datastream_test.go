package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/internal/exportgen"
)

// dataSources writes the same generated orders as an export of three
// gzipped data files, as plain and gzipped JSON lines and as a JSON array,
// and returns the --data arguments of each (the table is orders).
func dataSources(t *testing.T, items int) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	tot, err := exportgen.Write(dir, exportgen.Options{Items: items, Files: 3, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(tot.ExportDir, "data", "*.json.gz"))
	sort.Strings(files)
	var lines []byte
	for _, f := range files {
		lines = append(lines, gunzipFile(t, f)...)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(lines)
	zw.Close()
	array := "[" + strings.Join(strings.Split(strings.TrimSpace(string(lines)), "\n"), ",\n") + "]"
	key := []string{"--key", "PK,SK"}
	return map[string][]string{
		"export":     append([]string{"--data", "orders=" + tot.ExportDir}, key...),
		"lines":      append([]string{"--data", write("orders.jsonl", lines)}, key...),
		"lines.gz":   append([]string{"--data", write("orders.jsonl.gz", gz.Bytes())}, key...),
		"json array": append([]string{"--data", write("orders.json", []byte(array))}, key...),
	}
}

func gunzipFile(t *testing.T, p string) []byte {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withBackend runs args with the offline backend passed to seen once it
// is open (and, with load, every table loaded first).
func withBackend(t *testing.T, args []string, load bool, seen func(*offline.Backend)) result {
	t.Helper()
	offlineOpened = func(b *offline.Backend) {
		if load {
			if err := b.LoadAll(context.Background()); err != nil {
				t.Errorf("loading: %v", err)
			}
		}
		if seen != nil {
			seen(b)
		}
	}
	defer func() { offlineOpened = nil }()
	return invoke(args, "")
}

// statsFigures is what the --stats json line (on stderr) says a statement read, without
// its timing.
type statsFigures struct {
	Requests      int     `json:"requests"`
	Pages         int     `json:"pages"`
	ItemsRead     int     `json:"items_read"`
	ItemsReturned int     `json:"items_returned"`
	RCU           float64 `json:"rcu"`
	Rows          int     `json:"rows"`
}

func splitStats(t *testing.T, r result) (out string, st statsFigures) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	if err := json.Unmarshal([]byte(r.err), &st); err != nil {
		t.Fatalf("stats %q: %v", r.err, err)
	}
	return r.out, st
}

// TestStreamedScanEqualsLoaded runs the same statements over the same
// files streamed (a -e scan never loads) and loaded into the in-process
// DynamoDB: the output and the stats figures (requests, pages, items read,
// RCU) are the same, whatever the file's form and the segment count.
func TestStreamedScanEqualsLoaded(t *testing.T) {
	statements := []string{
		"SELECT status, COUNT(*) AS n, SUM(total) AS s FROM orders GROUP BY status ORDER BY status",
		"SELECT PK, SK, total, qty FROM orders WHERE total > 300 AND currency = 'EUR' ORDER BY PK, SK",
		"SELECT COUNT(*) AS n FROM orders",
		"SELECT COUNT(*) AS n FROM orders WHERE status = 'paid'",
		"SELECT * FROM orders ORDER BY PK, SK",
		"SELECT PK, SK, shipping.city FROM orders WHERE begins_with(SK, 'ORDER#2025') ORDER BY SK DESC LIMIT 5",
	}
	for name, src := range dataSources(t, 1200) {
		for _, segments := range []string{"1", "2", "4"} {
			for _, stmt := range statements {
				args := append(append([]string{}, src...), "--allow-scan", "--segments", segments, "--format", "ndjson", "--stats", "json", "-e", stmt)
				var sb, lb *offline.Backend
				streamed := withBackend(t, args, false, func(b *offline.Backend) { sb = b })
				loaded := withBackend(t, args, true, func(b *offline.Backend) { lb = b })
				if sb.Loads() != 0 || lb.Loads() != 1 {
					t.Fatalf("%s: %d loads streamed, %d loaded; want 0 and 1", name, sb.Loads(), lb.Loads())
				}
				sOut, sStats := splitStats(t, streamed)
				lOut, lStats := splitStats(t, loaded)
				if sOut != lOut {
					t.Errorf("%s, %s segments, %s: streamed output\n%.600s\nloaded\n%.600s", name, segments, stmt, sOut, lOut)
				}
				if sStats != lStats {
					t.Errorf("%s, %s segments, %s: streamed stats %+v, loaded %+v", name, segments, stmt, sStats, lStats)
				}
				if sStats.ItemsRead != 1200 {
					t.Errorf("%s, %s segments, %s: %d items read, want the table's 1200", name, segments, stmt, sStats.ItemsRead)
				}
			}
		}
	}
}

// TestStreamedScanEqualsLoadedPages is the same over several 1 MB pages
// per segment: pages end where memdb's rule ends them, so the figures
// still agree except for RCU, which rounds each page's bytes up to 4 KB
// once — the items of a page differ (file order rather than placement
// order), so the rounding may differ by half a unit per page.
func TestStreamedScanEqualsLoadedPages(t *testing.T) {
	src := dataSources(t, 25000)["export"]
	for _, segments := range []string{"1", "2"} {
		for _, stmt := range []string{
			"SELECT status, COUNT(*) AS n, SUM(total) AS s FROM orders GROUP BY status ORDER BY status",
			"SELECT PK, SK, total FROM orders WHERE qty > 2 ORDER BY PK, SK",
		} {
			args := append(append([]string{}, src...), "--allow-scan", "--segments", segments, "--format", "ndjson", "--stats", "json", "-e", stmt)
			sOut, sStats := splitStats(t, withBackend(t, args, false, nil))
			lOut, lStats := splitStats(t, withBackend(t, args, true, nil))
			if sOut != lOut {
				t.Errorf("%s segments, %s: streamed output\n%.600s\nloaded\n%.600s", segments, stmt, sOut, lOut)
			}
			if sStats.Pages < 3 {
				t.Fatalf("%s segments: %d pages; the test wants several", segments, sStats.Pages)
			}
			rcuDiff := sStats.RCU - lStats.RCU
			sStats.RCU, lStats.RCU = 0, 0
			if sStats != lStats || rcuDiff > float64(sStats.Pages)/2 || -rcuDiff > float64(sStats.Pages)/2 {
				t.Errorf("%s segments, %s: streamed stats %+v, loaded %+v, RCU differ by %v", segments, stmt, sStats, lStats, rcuDiff)
			}
			t.Logf("%s segments, %s: RCU streamed − loaded = %v over %d pages", segments, stmt, rcuDiff, sStats.Pages)
		}
	}
}

// TestDataLoadsOnlyForKeys: a -e scan streams the files and never loads;
// in a script, the first keyed statement loads the table, once, and
// later statements, scans included, read the loaded table.
func TestDataLoadsOnlyForKeys(t *testing.T) {
	src := dataSources(t, 300)["lines.gz"]
	var b *offline.Backend
	run := func(stmts ...string) result {
		args := append(append([]string{}, src...), "--allow-scan", "--format", "csv")
		for _, s := range stmts {
			args = append(args, "-e", s)
		}
		return withBackend(t, args, false, func(opened *offline.Backend) { b = opened })
	}
	r := run("SELECT COUNT(*) AS n FROM orders", "SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY status")
	if r.code != 0 || !strings.HasPrefix(r.out, "n\n300\n") || b.Loads() != 0 || b.Loaded("orders") {
		t.Fatalf("scans: exit %d, out %q, err %q, %d loads", r.code, r.out, r.err, b.Loads())
	}
	r = run("SELECT COUNT(*) AS n FROM orders", "SELECT COUNT(*) AS n FROM orders WHERE PK = 'CUST#1'",
		"SELECT COUNT(*) AS n FROM orders WHERE PK = 'CUST#2'", "SELECT COUNT(*) AS n FROM orders")
	if r.code != 0 || b.Loads() != 1 || !b.Loaded("orders") {
		t.Fatalf("a keyed statement after a scan: exit %d, err %q, %d loads", r.code, r.err, b.Loads())
	}
	if !strings.HasPrefix(r.out, "n\n300\n") || !strings.HasSuffix(r.out, "n\n300\n") {
		t.Errorf("out %q", r.out)
	}
}

// TestREPLLoadsAtStart: the REPL opens --data loaded (keyed statements are
// then fast from the first one); scripts open it lazily.
func TestREPLLoadsAtStart(t *testing.T) {
	src := dataSources(t, 50)["export"]
	for _, eager := range []bool{true, false} {
		var out bytes.Buffer
		cfg, code, ok := parseFlags(src, &out, &out)
		if !ok {
			t.Fatalf("flags: exit %d: %s", code, out.String())
		}
		oc, err := openOffline(context.Background(), cfg, nil, eager)
		if err != nil {
			t.Fatal(err)
		}
		if oc.Loaded("orders") != eager || oc.Loads() != map[bool]int{true: 1, false: 0}[eager] {
			t.Errorf("eager %v: loaded %v after %d loads", eager, oc.Loaded("orders"), oc.Loads())
		}
		oc.Close()
	}
}
