package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/spill"
)

func TestMemoryLimitFlagParses(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want int64
	}{
		{"512MiB", 512 << 20}, {"2GB", 2e9}, {"4g", 4 << 30}, {"1048576", 1 << 20}, {"1.5 KiB", 1536},
	} {
		cfg, code, ok := parseFlags([]string{"--memory-limit", c.arg, "--temp-dir", "/some/dir", "-e", "SHOW TABLES"}, io.Discard, io.Discard)
		if !ok || code != exitOK {
			t.Errorf("--memory-limit %s: exit %d", c.arg, code)
			continue
		}
		if cfg.memoryLimit != c.want || cfg.tempDir != "/some/dir" {
			t.Errorf("--memory-limit %s: %d in %q, want %d", c.arg, cfg.memoryLimit, cfg.tempDir, c.want)
		}
	}
}

func TestMemoryLimitFlagRefusesMalformedSizes(t *testing.T) {
	for _, arg := range []string{"abc", "12XB", "-5MiB", "0", ""} {
		var errOut strings.Builder
		_, code, ok := parseFlags([]string{"--memory-limit", arg, "-e", "SHOW TABLES"}, io.Discard, &errOut)
		if ok || code != exitUsage {
			t.Errorf("--memory-limit %q accepted (exit %d)", arg, code)
			continue
		}
		msg := errOut.String()
		if !strings.Contains(msg, "--memory-limit") || !strings.Contains(msg, "such as") && !strings.Contains(msg, "use B, KB") && !strings.Contains(msg, "at least") {
			t.Errorf("--memory-limit %q: %q does not name the flag and say what to write", arg, msg)
		}
	}
}

func TestMemoryLimitDefaultIsAQuarterOfMemoryAndShown(t *testing.T) {
	cfg, _, ok := parseFlags([]string{"-e", "SHOW TABLES"}, io.Discard, io.Discard)
	if !ok {
		t.Fatal("no flags did not parse")
	}
	want := defaultMemoryLimit()
	if cfg.memoryLimit != want || want <= 0 {
		t.Fatalf("default --memory-limit %d, want %d", cfg.memoryLimit, want)
	}
	if total := physicalMemory(); total > 0 && (want > total/4 || want < total/4-(1<<30)) {
		t.Errorf("default %d is not a quarter of %d", want, total)
	}
	r := cliRun(t, "", "--help")
	shown := "default " + spill.FormatSize(want) + ": a quarter of this machine's memory"
	if !strings.Contains(strings.Join(strings.Fields(r.out), " "), shown) {
		t.Errorf("--help does not say %q:\n%s", shown, r.out)
	}
	if !flagWord("--temp-dir").MatchString(r.out) {
		t.Error("--help does not list --temp-dir")
	}
}

// spillingSort is an ORDER BY over the demo's largest table, read in
// parallel segments (several batches) with a limit that holds only a
// few of them: it must spill.
func spillingSort(tempDir string, extra ...string) []string {
	args := []string{"--demo", "--allow-scan", "--segments", "8", "--memory-limit", "200KiB", "--temp-dir", tempDir, "--format", "csv"}
	return append(append(args, extra...), "-e", "SELECT * FROM leaderboard ORDER BY rating DESC, partitionId, rangeId")
}

func checkEmptyDir(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("%s is left in --temp-dir", e.Name())
	}
}

func TestSpillingStatementLeavesTempDirEmpty(t *testing.T) {
	// The statement needs its spill directory: one that cannot be made
	// fails it.
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := cliRun(t, "", spillingSort(notDir)...); r.code != exitError || !strings.Contains(r.err, "spill directory") {
		t.Fatalf("a --temp-dir that is a file: exit %d, %q", r.code, r.err)
	}

	dir := t.TempDir()
	r := cliRun(t, "", spillingSort(dir)...)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	big := cliRun(t, "", "--demo", "--allow-scan", "--format", "csv", "-e", "SELECT * FROM leaderboard ORDER BY rating DESC, partitionId, rangeId")
	if r.out != big.out || strings.Count(r.out, "\n") < 1000 {
		t.Errorf("spilled ORDER BY differs from the in-memory one (%d and %d lines)", strings.Count(r.out, "\n"), strings.Count(big.out, "\n"))
	}
	checkEmptyDir(t, dir)

	// Stopped by --timeout part way: cancelled, and still nothing left.
	for _, timeout := range []string{"2ms", "5ms", "20ms"} {
		r := cliRun(t, "", spillingSort(dir, "--timeout", timeout)...)
		if r.code == exitOK {
			continue // finished in time: the machine is fast
		}
		if r.errorCode() == "" && !strings.Contains(r.err, "timeout") {
			t.Errorf("--timeout %s: %s", timeout, r.err)
		}
		checkEmptyDir(t, dir)
	}
}

func TestStatsShowWhatSpilled(t *testing.T) {
	dir := t.TempDir()
	r := cliRun(t, "", spillingSort(dir, "--stats", "text")...)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	if !regexp.MustCompile(` · spilled \d+ files?, \d+(\.\d)?(B|KiB|MiB)\n`).MatchString(r.err) {
		t.Errorf("--stats text does not say what spilled: %q", r.err)
	}
	r = cliRun(t, "", spillingSort(dir, "--stats", "json")...)
	var st struct {
		Files *int   `json:"spill_files"`
		Bytes *int64 `json:"spill_bytes"`
		Peak  *int64 `json:"memory_peak_bytes"`
	}
	line := strings.TrimSpace(r.err)
	if err := json.Unmarshal([]byte(line[strings.LastIndex(line, "\n")+1:]), &st); err != nil || st.Files == nil || *st.Files < 1 || *st.Bytes <= 0 || *st.Peak <= 0 {
		t.Errorf("--stats json spill figures: %q (%v)", r.err, err)
	}
	// A statement that fits says nothing of spilling.
	r = cliRun(t, "", "--demo", "--stats", "text", "-e", "SELECT * FROM leaderboard WHERE partitionId = 'p1' ORDER BY rangeId")
	if strings.Contains(r.err, "spilled") {
		t.Errorf("an unspilled statement reports spilling: %q", r.err)
	}
}

func TestExplainAnalyzeShowsWhatEachOperatorSpilled(t *testing.T) {
	dir := t.TempDir()
	base := []string{"--demo", "--allow-scan", "--segments", "8", "--memory-limit", "100KiB", "--temp-dir", dir}
	spilled := regexp.MustCompile(`actual: \d+ rows, [^;\n]+; spilled \d+ files?, \d+(\.\d)?(B|KiB|MiB), peak \d+(\.\d)?(B|KiB|MiB) reserved\n`)
	for _, c := range []struct{ op, stmt string }{
		{"Sort", "EXPLAIN ANALYZE SELECT * FROM leaderboard ORDER BY rating DESC, partitionId, rangeId"},
		{"Aggregate", "EXPLAIN ANALYZE SELECT partitionId, rangeId, COUNT(*) FROM leaderboard GROUP BY partitionId, rangeId"},
	} {
		r := cliRun(t, "", append(base, "-e", c.stmt)...)
		if r.code != exitOK {
			t.Fatalf("exit %d: %s", r.code, r.err)
		}
		lines := strings.Split(r.out, "\n")
		found := false
		for i, l := range lines {
			if strings.Contains(l, c.op+" (client)") && i+1 < len(lines) {
				found = spilled.MatchString(lines[i+1] + "\n")
			}
		}
		if !found || strings.Count(r.out, "spilled") != 1 {
			t.Errorf("EXPLAIN ANALYZE should show what %s spilled, and only there:\n%s", c.op, r.out)
		}
		checkEmptyDir(t, dir)

		r = cliRun(t, "", append(base, "--format", "json", "-e", c.stmt)...)
		var doc struct {
			Plan planNode `json:"plan"`
		}
		if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
			t.Fatalf("EXPLAIN ANALYZE JSON: %v\n%s", err, r.out)
		}
		var got []string
		var walk func(n planNode)
		walk = func(n planNode) {
			if a := n.Actual; a.Files != nil {
				if *a.Files < 1 || a.Bytes == nil || *a.Bytes <= 0 || a.Peak == nil || *a.Peak <= 0 {
					t.Errorf("%s: spill figures %d files, %v bytes, %v peak", n.Kind, *a.Files, a.Bytes, a.Peak)
				}
				got = append(got, n.Kind)
			}
			for _, c := range n.Children {
				walk(c)
			}
		}
		walk(doc.Plan)
		if len(got) != 1 || got[0] != c.op {
			t.Errorf("JSON spill figures on %v, want %s", got, c.op)
		}
		checkEmptyDir(t, dir)
	}

	// Within the limit, no operator speaks of spilling.
	r := cliRun(t, "", "--demo", "-e", "EXPLAIN ANALYZE SELECT * FROM leaderboard WHERE partitionId = 'p1' ORDER BY rangeId")
	if r.code != exitOK || strings.Contains(r.out, "spilled") {
		t.Errorf("exit %d, an unspilled statement reports spilling: %s%s", r.code, r.out, r.err)
	}
}

// planNode is one node of EXPLAIN's JSON document, as far as the spill
// figures go.
type planNode struct {
	Kind   string `json:"kind"`
	Actual struct {
		Files *int   `json:"spill_files"`
		Bytes *int64 `json:"spill_bytes"`
		Peak  *int64 `json:"memory_peak_bytes"`
	} `json:"actual"`
	Children []planNode `json:"children"`
}
