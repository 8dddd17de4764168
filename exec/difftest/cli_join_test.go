package difftest

import (
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
)

// TestCLIJoinDifferential runs generated joins through the ddbsql command
// (see TestCLIDifferential): the four join tables on dynalite and, as a
// Workbench model with the GSI, on the in-process backend.

const (
	envCLIJoinQueries     = "DDBSQL_DIFFTEST_CLI_JOIN_QUERIES" // per backend (default defaultCLIJoinQueries)
	envCLIJoinQuery       = "DDBSQL_DIFFTEST_CLI_JOIN_QUERY"   // run only this one (replay)
	defaultCLIJoinQueries = 20
)

func TestCLIJoinDifferential(t *testing.T) {
	seed := envInt(t, envSeed, defaultSeed)
	n := envInt(t, envCLIJoinQueries, defaultCLIJoinQueries)
	only, replay := uint64(0), os.Getenv(envCLIJoinQuery) != ""
	if replay {
		only = envInt(t, envCLIJoinQuery, 0)
	}
	bin := buildCLI(t)
	// The same data twice: table names differ between the backends, and
	// the generated text carries them.
	dyn := &joinHarness{seed: seed, jd: genJoinData(seed)}
	dyn.be = backend{name: "dynalite", client: dynalitetest.Client(t), prefix: dynalitetest.Prefix(t)}
	dyn.db = openJoinLite(t, dyn.jd)
	loadJoinDynamo(t, dyn.be, dyn.jd)
	mem := &joinHarness{seed: seed, jd: genJoinData(seed), db: dyn.db}
	memTables := joinTables(mem.jd)
	for i, jt := range mem.jd.tables() {
		jt.ddb = "cli." + jt.name // table names have at least 3 characters
		memTables[i].Name = jt.ddb
	}
	backends := []struct {
		name string
		h    *joinHarness
		args []string
	}{
		{"dynalite", dyn, []string{"--endpoint-url", dynalitetest.Endpoint(t)}},
		{"memdb", mem, []string{"--data", writeModel(t, memTables...)}},
	}
	var dbMu sync.Mutex // both harnesses share one SQLite connection
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			var mu sync.Mutex
			formats := map[string]int{}
			failures := 0
			jobs := make(chan uint64)
			var wg sync.WaitGroup
			for range cliWorkers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for k := range jobs {
						q := b.h.query(k)
						g := &gen{r: rand.New(rand.NewPCG(seed, k|3<<40))}
						format := pick(g, cliFormats)
						if q.starOf != nil && format == "csv" {
							format = "ndjson"
						}
						diff := b.h.checkCLI(bin, b.args, q, format, &dbMu)
						mu.Lock()
						formats[format]++
						if diff != "" {
							if failures++; failures <= 5 {
								t.Errorf("seed %d CLI join %d on %s (replay: %s=%d %s=%d), --format %s: %s",
									seed, k, b.name, envSeed, seed, envCLIJoinQuery, k, format, diff)
							}
						}
						mu.Unlock()
					}
				}()
			}
			for k := range n {
				if !replay || k == only {
					jobs <- k
				}
			}
			close(jobs)
			wg.Wait()
			if failures > 5 {
				t.Errorf("… and %d more failing joins", failures-5)
			}
			t.Logf("formats: %v", formats)
		})
	}
}

// checkCLI runs join q through the command and compares with SQLite.
func (h *joinHarness) checkCLI(bin string, conn []string, q *jquery, format string, dbMu *sync.Mutex) string {
	ddbSQL := q.render(false)
	args := append(append([]string{}, conn...), "--format", format, "--concurrency", strconv.Itoa(q.concurrency))
	if q.scan {
		args = append(args, "--allow-scan")
	}
	if q.consistent {
		args = append(args, "--consistent")
	}
	res := runCLI(bin, append(args, "-e", ddbSQL)...)
	if bad := res.misbehaved(); bad != "" {
		return bad + "\n" + res.show(ddbSQL)
	}
	if res.code != 0 {
		return "the statement failed\n" + res.show(ddbSQL)
	}
	kinds := q.kinds()
	var got [][]norm
	var err error
	if format == "csv" {
		got, err = q.csvRows(res.stdout, kinds)
	} else {
		got, err = q.jsonRows(res.stdout, format, kinds)
	}
	if err != nil {
		return err.Error() + "\n" + res.show(ddbSQL)
	}
	liteQ := q
	if q.subset() {
		liteQ = q.copy()
		liteQ.limit, liteQ.offset = -1, -1
	}
	liteSQL := liteQ.render(true)
	dbMu.Lock()
	lraw, err := runLite(context.Background(), h.db, liteSQL)
	dbMu.Unlock()
	if err != nil {
		return "SQLite: " + err.Error() + "\nSQLite: " + liteSQL
	}
	var want [][]norm
	if format == "csv" {
		want = csvLiteRows(lraw, kinds)
	} else if want, err = normRows(lraw, kinds, jnormLite); err != nil {
		return "SQLite: " + err.Error()
	}
	var diff string
	switch {
	case q.subset():
		diff = compareSubset(got, want, q.limit, q.offset)
	default:
		diff = compareRows(got, want, q.ordered())
	}
	if diff == "" && q.driverOrder && format != "csv" {
		diff = checkSorted(got, q.order)
	}
	if diff == "" {
		return ""
	}
	return fmt.Sprintf("%s\nSQLite: %s\nddbsql rows (%d):\n%sSQLite rows (%d):\n%s%s", diff, liteSQL,
		len(got), formatRows(got, 20), len(want), formatRows(want, 20), res.show(ddbSQL))
}

// jsonRows parses json or ndjson output of a join strictly.
func (q *jquery) jsonRows(stdout, format string, kinds []outKind) ([][]norm, error) {
	var raw [][]any
	var keys [][]string
	var err error
	if format == "ndjson" {
		raw, keys, err = decodeNDJSON([]byte(stdout))
	} else {
		raw, keys, err = decodeJSONArray([]byte(stdout))
	}
	if err != nil {
		return nil, fmt.Errorf("%s output: %v", format, err)
	}
	if q.starOf != nil {
		if raw, err = jstarRows(raw, keys, q.starOf); err != nil {
			return nil, err
		}
	} else if d := checkHeaders(keys, q.headers()); d != "" {
		return nil, fmt.Errorf("%s", d)
	}
	return normRows(raw, kinds, jnormDDB)
}

// csvRows parses CSV output of a join: the header, then records as text.
func (q *jquery) csvRows(stdout string, kinds []outKind) ([][]norm, error) {
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("csv output: %v", err)
	}
	want := q.headers()
	if len(recs) == 0 || strings.Join(recs[0], "\x00") != strings.Join(want, "\x00") {
		var got []string
		if len(recs) > 0 {
			got = recs[0]
		}
		return nil, fmt.Errorf("csv header %q, want %q", got, want)
	}
	return csvRecords(recs[1:], kinds)
}
