//go:build unix

package main

// BenchmarkPeakRSSSpill measures what --memory-limit holds at the level of
// the whole process: each statement runs in a fresh ddbsql process of its
// own (built from this package) against a replay server in this one, so
// the child's getrusage maxrss is the statement's own peak RSS. It takes
// minutes, so it runs only when DDBSQL_PEAKRSS=1 asks for it, as
// `make bench` does:
//
//	DDBSQL_PEAKRSS=1 go test -run '^$' -bench '^BenchmarkPeakRSSSpill$' -benchtime 1x -timeout 30m ./cmd/ddbsql/
//
// DDBSQL_PEAKRSS_ITEMS scales the tables down (keys in proportion) while
// working on it; DDBSQL_PEAKRSS_KEEPSTDERR=DIR keeps each child's stderr
// there, which with GODEBUG=gctrace=1 shows the heap live after every
// collection against the budget.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/replay"
)

// spillStatement is one measured statement: its SQL, the limit it must
// hold, the peak RSS it targets, and the check of its streamed output.
type spillStatement struct {
	name, sql string
	limit     string
	targetMiB float64
	verify    func(items, keys int) lineVerifier
}

// lineVerifier checks ndjson output line by line and, at the end, that
// nothing was missing.
type lineVerifier interface {
	line([]byte) error
	done() error
}

// childRun is what one ddbsql process did.
type childRun struct {
	wall       time.Duration
	maxRSSMiB  float64
	spillFiles float64
	spillMiB   float64
	budgetMiB  float64
}

func BenchmarkPeakRSSSpill(b *testing.B) {
	if os.Getenv("DDBSQL_PEAKRSS") != "1" {
		b.Skip("minutes long: DDBSQL_PEAKRSS=1 runs it (make bench does)")
	}
	items, keys := 5_000_000, 2_000_000
	if s := os.Getenv("DDBSQL_PEAKRSS_ITEMS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 {
			b.Fatalf("DDBSQL_PEAKRSS_ITEMS=%q: want a whole number of at least 10", s)
		}
		items, keys = n, n*2/5
	}
	bin := buildDDBSQL(b)
	// Lazy: pages are built per request, so this process stays small and
	// its page cache never flatters the child.
	srv := replay.New(replay.Options{Items: items, Keys: keys, Lazy: true})
	defer srv.Close()

	statements := []spillStatement{
		{name: "OrderBy5M", sql: "SELECT * FROM t ORDER BY x", limit: "256MiB", targetMiB: 400e6 / (1 << 20),
			verify: func(items, _ int) lineVerifier { return newOrderVerifier(items) }},
		{name: "GroupBy2MKeys", sql: "SELECT k, COUNT(*) AS n, SUM(x) AS s FROM t GROUP BY k", limit: "128MiB", targetMiB: 250e6 / (1 << 20),
			verify: func(items, keys int) lineVerifier { return newGroupVerifier(items, keys) }},
	}
	for _, st := range statements {
		var unlimited time.Duration
		// "no limit" is a limit no statement here reaches: the same
		// statement held only by the collector's defaults.
		for _, limit := range []string{"1TiB", st.limit} {
			label := "limit=" + limit
			if limit == "1TiB" {
				label = "nolimit"
			}
			b.Run(st.name+"/"+label, func(b *testing.B) {
				var last childRun
				for i := 0; i < b.N; i++ {
					last = runChild(b, bin, srv.URL, st.sql, limit, st.verify(items, keys), st.name+"-"+label)
				}
				b.Logf("%s --memory-limit %s: peak RSS %.0f MiB, %.1f s, %.0f spill files, %.0f MiB spilled, budget peak %.0f MiB",
					st.name, limit, last.maxRSSMiB, last.wall.Seconds(), last.spillFiles, last.spillMiB, last.budgetMiB)
				b.ReportMetric(last.maxRSSMiB, "peak-RSS-MiB")
				b.ReportMetric(last.wall.Seconds(), "wall-s")
				b.ReportMetric(last.spillFiles, "spill-files")
				b.ReportMetric(last.spillMiB, "spill-MiB")
				b.ReportMetric(last.budgetMiB, "budget-peak-MiB")
				if limit == "1TiB" {
					unlimited = last.wall
					return
				}
				limitBytes, _ := strconv.ParseFloat(limit[:len(limit)-3], 64)
				b.ReportMetric(last.maxRSSMiB/limitBytes, "RSS/limit")
				if unlimited > 0 {
					b.ReportMetric(last.wall.Seconds()/unlimited.Seconds(), "time/unlimited")
				}
				if last.maxRSSMiB > st.targetMiB {
					b.Errorf("peak RSS %.0f MiB with --memory-limit %s: the target is %.0f MiB", last.maxRSSMiB, limit, st.targetMiB)
				}
			})
		}
	}
}

// runChild runs one statement in a fresh ddbsql process, verifying its
// ndjson output as it streams, and reads the process's peak RSS and the
// statement's spill figures (--stats json).
func runChild(b *testing.B, bin, endpoint, sql, limit string, v lineVerifier, label string) childRun {
	b.Helper()
	cmd := exec.Command(bin, "--endpoint-url", endpoint, "--allow-scan", "--format", "ndjson", "--stats", "json",
		"--memory-limit", limit, "--temp-dir", b.TempDir(), "-e", sql)
	cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_REGION=us-east-1",
		"AWS_EC2_METADATA_DISABLED=true", "DDBSQL_CONFIG=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	verr := verifyLines(out, v)
	if verr != nil {
		_, _ = io.Copy(io.Discard, out) // let the child finish writing
	}
	werr := cmd.Wait()
	wall := time.Since(start)
	if werr != nil {
		b.Fatalf("%s: %v\n%s", sql, werr, stderr.String())
	}
	if verr != nil {
		b.Fatalf("%s: %v", sql, verr)
	}
	run := childRun{wall: wall}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		run.maxRSSMiB = float64(ru.Maxrss) / 1024 // kilobytes on Linux
	}
	var stats struct {
		SpillFiles float64 `json:"spill_files"`
		SpillBytes float64 `json:"spill_bytes"`
		MemoryPeak float64 `json:"memory_peak_bytes"`
	}
	// The statistics line is the last JSON object on stderr (a GODEBUG
	// trace may surround it).
	lines := bytes.Split(bytes.TrimSpace(stderr.Bytes()), []byte("\n"))
	statsLine := lines[len(lines)-1]
	for k := len(lines) - 1; k >= 0; k-- {
		if bytes.HasPrefix(lines[k], []byte("{")) {
			statsLine = lines[k]
			break
		}
	}
	if os.Getenv("DDBSQL_PEAKRSS_KEEPSTDERR") != "" {
		_ = os.WriteFile(filepath.Join(os.Getenv("DDBSQL_PEAKRSS_KEEPSTDERR"), label+".stderr"), stderr.Bytes(), 0o644)
	}
	if err := json.Unmarshal(statsLine, &stats); err != nil {
		b.Fatalf("statistics line: %v\n%s", err, stderr.String())
	}
	run.spillFiles, run.spillMiB, run.budgetMiB = stats.SpillFiles, stats.SpillBytes/(1<<20), stats.MemoryPeak/(1<<20)
	return run
}

func verifyLines(r io.Reader, v lineVerifier) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if err := v.line(sc.Bytes()); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return v.done()
}

// field is the value of a top-level member of a flat ndjson object, its
// quotes removed (the statements here print no commas inside values).
func field(line []byte, name string) ([]byte, bool) {
	key := []byte(`"` + name + `":`)
	i := bytes.Index(line, key)
	if i < 0 {
		return nil, false
	}
	v := line[i+len(key):]
	if j := bytes.IndexAny(v, ",}"); j >= 0 {
		v = v[:j]
	}
	return bytes.Trim(v, `"`), true
}

func intField(line []byte, name string) (int64, error) {
	v, ok := field(line, name)
	if !ok {
		return 0, fmt.Errorf("no %s in %s", name, line)
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s in %s: %v", name, line, err)
	}
	return n, nil
}

// orderVerifier checks ORDER BY x over the narrow table: x never
// decreases, each row's x is its item's, and every item comes exactly once.
type orderVerifier struct {
	items int
	seen  []bool
	rows  int
	prevX int64
}

func newOrderVerifier(items int) *orderVerifier {
	return &orderVerifier{items: items, seen: make([]bool, items), prevX: -1}
}

func (v *orderVerifier) line(l []byte) error {
	x, err := intField(l, "x")
	if err != nil {
		return err
	}
	sk, ok := field(l, "sk")
	if !ok || !bytes.HasPrefix(sk, []byte("ORDER#")) {
		return fmt.Errorf("no sk in %s", l)
	}
	i, err := strconv.Atoi(string(sk[len("ORDER#"):]))
	if err != nil || i < 0 || i >= v.items {
		return fmt.Errorf("sk in %s is not an item of the table", l)
	}
	switch {
	case x < v.prevX:
		return fmt.Errorf("row %d: x %d after %d: not in order", v.rows, x, v.prevX)
	case x != replay.NarrowX(i):
		return fmt.Errorf("row %d: item %d has x %d, want %d", v.rows, i, x, replay.NarrowX(i))
	case v.seen[i]:
		return fmt.Errorf("row %d: item %d a second time", v.rows, i)
	}
	v.seen[i], v.prevX = true, x
	v.rows++
	return nil
}

func (v *orderVerifier) done() error {
	if v.rows != v.items {
		return fmt.Errorf("%d rows, want %d", v.rows, v.items)
	}
	return nil
}

// groupVerifier checks GROUP BY k over the narrow table: every group once,
// with the count and sum of x its items give.
type groupVerifier struct {
	count []int32
	sum   []int64
	seen  []bool
	rows  int
}

func newGroupVerifier(items, keys int) *groupVerifier {
	v := &groupVerifier{count: make([]int32, keys), sum: make([]int64, keys), seen: make([]bool, keys)}
	for i := 0; i < items; i++ {
		g := replay.NarrowKey(i, keys)
		v.count[g]++
		v.sum[g] += replay.NarrowX(i)
	}
	return v
}

func (v *groupVerifier) line(l []byte) error {
	k, ok := field(l, "k")
	if !ok || !bytes.HasPrefix(k, []byte("K#")) {
		return fmt.Errorf("no k in %s", l)
	}
	g, err := strconv.Atoi(string(k[len("K#"):]))
	if err != nil || g < 0 || g >= len(v.count) {
		return fmt.Errorf("k in %s is not a key of the table", l)
	}
	n, err := intField(l, "n")
	if err != nil {
		return err
	}
	s, err := intField(l, "s")
	if err != nil {
		return err
	}
	switch {
	case v.seen[g]:
		return fmt.Errorf("group %s a second time", k)
	case n != int64(v.count[g]) || s != v.sum[g]:
		return fmt.Errorf("group %s: COUNT %d, SUM %d; want %d, %d", k, n, s, v.count[g], v.sum[g])
	}
	v.seen[g] = true
	v.rows++
	return nil
}

func (v *groupVerifier) done() error {
	if v.rows != len(v.count) {
		return fmt.Errorf("%d groups, want %d", v.rows, len(v.count))
	}
	return nil
}
