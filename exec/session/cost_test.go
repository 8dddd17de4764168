package session_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// The tests in this file check what statements cost against what ddbsql
// says they cost: EXPLAIN's estimates, the --stats figures, EXPLAIN
// ANALYZE, budgets, the rate limit, parallel Scan segments and --strict.
// Estimate accuracy runs on memdb (DescribeTable reports live ItemCount and
// TableSizeBytes there; dynalite reports 0); consumed capacity and pacing
// run on dynalite, which rounds capacity as DynamoDB does.

func allowScan(cfg *session.Config) { cfg.Plan.AllowScan = true }

// TestEstimatesAgainstActuals compares EXPLAIN's estimated total with what
// the statement then reads and consumes (--stats json).
func TestEstimatesAgainstActuals(t *testing.T) {
	db := memClient(t)

	// exact: every item of "uniform" has the same size, so an estimate that
	// is not marked "at least" must be the actual figure.
	exact := []struct{ name, sql string }{
		{"GetItem", "SELECT * FROM uniform WHERE PK = 'P#3' AND SK = 'S#00003'"},
		{"BatchGetItem", "SELECT * FROM uniform WHERE PK = 'P#3' AND SK IN ('S#00003', 'S#00013', 'S#00023', 'S#00033')"},
		{"Query LIMIT", "SELECT * FROM uniform WHERE PK = 'P#1' ORDER BY SK LIMIT 20"},
		{"Query LIMIT DESC", "SELECT * FROM uniform WHERE PK = 'P#1' ORDER BY SK DESC LIMIT 7"},
		{"GSI Query LIMIT", "SELECT * FROM uniform WHERE G = 'G' ORDER BY GS LIMIT 100"},
		{"Scan LIMIT", "SELECT * FROM uniform LIMIT 50"},
		{"GetItem app", "SELECT * FROM app WHERE PK = 'WS#acme' AND SK = 'DOC#0001'"},
		{"BatchGetItem app", "SELECT * FROM app WHERE PK = 'WS#big' AND SK IN ('DOC#B00001', 'DOC#B00002', 'META')"},
		// The Fetch after a KEYS_ONLY index: one BatchGetItem key per index
		// row, 100 a request, each item rounded up on its own.
		{"Fetch after KEYS_ONLY Query LIMIT", "SELECT * FROM uniform USE INDEX (ByGKeys) WHERE G = 'G' ORDER BY GS LIMIT 250"},
		{"Fetch after KEYS_ONLY index Scan", "SELECT * FROM uniform.ByGKeys"},
	}
	for _, c := range exact {
		t.Run("exact/"+c.name, func(t *testing.T) {
			est := explainTotal(t, db, allowScan, c.sql)
			act := mustRun(t, db, allowScan, c.sql).Stats
			if est.AtLeast {
				t.Fatalf("estimate %+v is a lower bound; want an exact estimate for this statement", est)
			}
			if est.Requests != int64(act.Requests) || est.Items != act.ItemsRead || !near(est.RCU, act.RCU) {
				t.Fatalf("estimated %d requests, %d items, %v RCU; actual %d requests, %d items read, %v RCU",
					est.Requests, est.Items, est.RCU, act.Requests, act.ItemsRead, act.RCU)
			}
		})
	}

	// atLeast: a Query's partition size is unknown, so its estimate is a
	// lower bound; it must never exceed what the statement reads.
	atLeast := []struct{ name, sql string }{
		{"Query", "SELECT * FROM app WHERE PK = 'WS#acme'"},
		{"Query 4 pages", "SELECT * FROM app WHERE PK = 'WS#big'"},
		{"Query range", "SELECT * FROM app WHERE PK = 'WS#big' AND SK BETWEEN 'DOC#B00100' AND 'DOC#B00900'"},
		{"Query filter", "SELECT * FROM app WHERE PK = 'WS#acme' AND status = 'draft'"},
		{"Query filter 4 pages", "SELECT SK FROM app WHERE PK = 'WS#big' AND seq > 2400"},
		{"Query client filter", "SELECT * FROM app WHERE PK = 'WS#acme' AND size + 1 > 2000"},
		{"GSI Query", "SELECT * FROM app WHERE GSI1PK = 'STATUS#REVIEW'"},
		{"GSI Query filter", "SELECT * FROM app WHERE GSI1PK = 'STATUS#REVIEW' AND owner = 'u_bob'"},
		{"GSI INCLUDE Query", "SELECT title FROM app WHERE owner = 'u_alice'"},
		{"Query uniform", "SELECT * FROM uniform WHERE PK = 'P#4'"},
		{"IN Queries", "SELECT * FROM app WHERE PK IN ('WS#acme', 'WS#globex', 'WS#hooli')"},
		// Fetches and lookups count at least one key or lookup for the rows
		// that reach them.
		{"Fetch after index Query", "SELECT * FROM app WHERE owner = 'u_alice'"},
		{"Fetch after KEYS_ONLY Query", "SELECT * FROM uniform USE INDEX (ByGKeys) WHERE G = 'G'"},
		{"lookup by table key", "SELECT c.name, p.name, p.price FROM customers c JOIN products p ON c.favoriteSku = p.sku WHERE c.id IN ('c_0001', 'c_0002', 'c_0003')"},
		{"lookup of missing keys", "SELECT a.SK, c.name FROM app a JOIN customers c ON a.owner = c.id WHERE a.PK = 'WS#acme'"},
		{"lookup by GSI", "SELECT c.id, p.sku FROM customers c JOIN products p ON p.category = c.tier WHERE c.id IN ('c_0001', 'c_0002')"},
		{"two lookups", "SELECT c.id, p.sku, m.temp FROM customers c JOIN products p ON c.favoriteSku = p.sku JOIN metrics m ON m.device = p.stock WHERE c.id = 'c_0001'"},
	}
	for _, c := range atLeast {
		t.Run("at least/"+c.name, func(t *testing.T) {
			est := explainTotal(t, db, nil, c.sql)
			act := mustRun(t, db, nil, c.sql).Stats
			if !est.AtLeast {
				t.Fatalf("estimate %+v claims to be exact for a Query of unknown partition size", est)
			}
			if est.Requests > int64(act.Requests) || est.Items > act.ItemsRead || est.RCU > act.RCU {
				t.Fatalf("lower bound %d requests, %d items, %v RCU exceeds the actual %d requests, %d items read, %v RCU",
					est.Requests, est.Items, est.RCU, act.Requests, act.ItemsRead, act.RCU)
			}
		})
	}

	// paged: reads over several 1 MB pages. DynamoDB rounds each page to
	// 4 KB units and ends pages by its internal storage size, which
	// DescribeTable does not report, so the estimate can be exact only up
	// to that rounding: items exact, requests exact, RCU at most ½ unit per
	// extra page below the actual. Segments split the table by key hash,
	// unevenly, so with segments the requests are a lower bound.
	paged := []struct {
		name, sql string
		segments  int
	}{
		{"Scan app", "SELECT * FROM app", 1},
		{"Scan uniform", "SELECT * FROM uniform", 1},
		{"Scan uniform LIMIT 2500", "SELECT * FROM uniform LIMIT 2500", 1},
		{"GSI Query LIMIT 1500", "SELECT * FROM uniform WHERE G = 'G' ORDER BY GS LIMIT 1500", 1},
		{"Scan app 4 segments", "SELECT * FROM app", 4},
		{"Scan uniform 3 segments", "SELECT * FROM uniform", 3},
	}
	for _, c := range paged {
		t.Run("paged/"+c.name, func(t *testing.T) {
			setup := func(cfg *session.Config) { cfg.Plan.AllowScan = true; cfg.Plan.Segments = c.segments }
			est := explainTotal(t, db, setup, c.sql)
			act := mustRun(t, db, setup, c.sql).Stats
			if est.AtLeast {
				t.Fatalf("estimate %+v is a lower bound; the item count is known", est)
			}
			slack := 0.5 * float64(act.Requests-1)
			requestsOK := est.Requests == int64(act.Requests) || (c.segments > 1 && est.Requests <= int64(act.Requests))
			if est.Items != act.ItemsRead || !requestsOK || est.RCU > act.RCU || act.RCU > est.RCU+slack {
				t.Fatalf("estimated %d requests, %d items, %v RCU; actual %d requests, %d items read, %v RCU (allowed: RCU up to %v more)",
					est.Requests, est.Items, est.RCU, act.Requests, act.ItemsRead, act.RCU, slack)
			}
		})
	}
}

// TestCapacityOnDynalite checks reads and consumed capacity as DynamoDB
// (dynalite) reports them.
func TestCapacityOnDynalite(t *testing.T) {
	client, app := dynaliteApp(t)

	t.Run("ORDER BY sort key LIMIT 5 reads exactly 5 items", func(t *testing.T) {
		cases := []struct {
			pk         string
			consistent bool
			rcu        float64
		}{
			// 5 documents of WS#acme take well under 4 KB: one unit, ½ RCU
			// eventually consistent, 1 RCU strongly consistent.
			{"WS#acme", false, 0.5},
			{"WS#acme", true, 1},
			// 5 WS#big documents of about 1.5 KB are 2 units: 1 RCU.
			{"WS#big", false, 1},
		}
		for _, c := range cases {
			sql := fmt.Sprintf("SELECT * FROM `%s` WHERE PK = '%s' ORDER BY SK LIMIT 5", app, c.pk)
			sp := spy(client)
			r := mustRun(t, sp, func(cfg *session.Config) { cfg.Plan.Consistent = c.consistent }, sql)
			st := r.Stats
			if st.ItemsRead != 5 || st.Requests != 1 || st.ByOperation["Query"] != 1 || st.Rows != 5 || len(r.rows()) != 5 {
				t.Errorf("%s: read %d items in %d requests (%v), %d rows; want 5 items, 1 Query, 5 rows", sql, st.ItemsRead, st.Requests, st.ByOperation, st.Rows)
			}
			if st.RCU != c.rcu || sumRCU(sp.requests()) != c.rcu {
				t.Errorf("%s (consistent %v): %v RCU in the stats, %v reported by DynamoDB; want %v", sql, c.consistent, st.RCU, sumRCU(sp.requests()), c.rcu)
			}
		}
	})

	t.Run("a LIMIT larger than a page reads no more than LIMIT items", func(t *testing.T) {
		sql := fmt.Sprintf("SELECT SK FROM `%s` WHERE PK = 'WS#big' ORDER BY SK LIMIT 1000", app)
		r := mustRun(t, client, nil, sql)
		if r.Stats.ItemsRead != 1000 || r.Stats.Requests != 2 || len(r.rows()) != 1000 {
			t.Fatalf("read %d items in %d requests for %d rows; want 1000 items in 2 requests (the 1 MB page, then the rest)",
				r.Stats.ItemsRead, r.Stats.Requests, len(r.rows()))
		}
	})

	t.Run("COUNT(*) uses Select=COUNT", func(t *testing.T) {
		for pk, want := range map[string]int{"WS#big": fixtures.AppBigDocuments + 1, "WS#acme": 13} {
			sp := spy(client)
			r := mustRun(t, sp, nil, fmt.Sprintf("SELECT COUNT(*) FROM `%s` WHERE PK = '%s'", app, pk))
			if rows := r.rows(); len(rows) != 1 || rows[0] != strconv.Itoa(want) {
				t.Errorf("%s: COUNT(*) printed %q, want %d", pk, rows, want)
			}
			sels := sp.querySelects()
			if len(sels) == 0 {
				t.Fatalf("%s: no Query sent", pk)
			}
			for i, s := range sels {
				if s != types.SelectCount {
					t.Errorf("%s: Query %d has Select=%q, want COUNT", pk, i+1, s)
				}
			}
			if r.Stats.ItemsRead != int64(want) || r.Stats.Requests != len(sels) {
				t.Errorf("%s: stats say %d items read in %d requests; %d Queries were sent, %d items counted", pk, r.Stats.ItemsRead, r.Stats.Requests, len(sels), want)
			}
		}
	})

	t.Run("budget stops a statement that crosses it", func(t *testing.T) {
		// A full read of WS#big is about 460 RCU in 4 pages of about 128:
		// the second page crosses 150.
		for _, format := range []string{"csv", "table"} {
			sp := spy(client)
			r := run(t, sp, func(cfg *session.Config) { cfg.MaxRCU = 150; cfg.Format = format },
				fmt.Sprintf("SELECT * FROM `%s` WHERE PK = 'WS#big'", app))
			var ee *diag.Error
			if !errors.As(r.Error, &ee) || ee.Code != diag.CodeBudget {
				t.Fatalf("%s: err = %v, want an exec error with code %q", format, r.Error, diag.CodeBudget)
			}
			consumed := sumRCU(sp.requests())
			if consumed <= 150 || len(sp.requests()) != 2 {
				t.Fatalf("%s: sent %d requests consuming %v RCU; want it to stop right after crossing 150 (2 pages)", format, len(sp.requests()), consumed)
			}
			if !strings.Contains(r.Error.Error(), "consuming "+planner.FormatRCU(consumed)+" RCU") || !strings.Contains(r.Error.Error(), "150") {
				t.Fatalf("%s: error %q does not say that %v RCU were consumed against the budget of 150", format, r.Error, consumed)
			}
			if r.Stats == nil || r.Stats.RCU != consumed {
				t.Fatalf("%s: stats %+v, want the %v RCU consumed", format, r.Stats, consumed)
			}
			if format == "table" && r.Out != "" {
				t.Fatalf("table output printed a partial result:\n%s", r.Out)
			}
		}
	})

	t.Run("budget refuses a Scan of unknown cost before any request", func(t *testing.T) {
		// dynalite's DescribeTable reports 0 items for every table, as
		// DynamoDB does for a new or freshly loaded one, so a Scan's cost is
		// unknown and --max-rcu cannot be kept.
		sp := spy(client)
		r := run(t, sp, func(cfg *session.Config) { cfg.MaxRCU = 1; cfg.Plan.AllowScan = true }, fmt.Sprintf("SELECT * FROM `%s`", app))
		assertRefused(t, r, sp)
		assertUnknownCost(t, r, "table "+app, "1")
		// A LIMIT with no filter bounds it (5 items of at most 400 KB are
		// at most 250.5 RCU), so it may start under any budget.
		sp = spy(client)
		r = run(t, sp, func(cfg *session.Config) { cfg.MaxRCU = 1; cfg.Plan.AllowScan = true }, fmt.Sprintf("SELECT * FROM `%s` LIMIT 5", app))
		if r.Error != nil || len(r.rows()) != 5 {
			t.Fatalf("LIMIT 5 within its bound: %v, %d rows", r.Error, len(r.rows()))
		}
		if got := sumRCU(sp.requests()); got > 250.5 || r.Stats.RCU != got {
			t.Fatalf("LIMIT 5 consumed %v RCU (stats %v); its bound is 250.5", got, r.Stats.RCU)
		}
	})

	t.Run("rate limit", func(t *testing.T) { testRateLimit(t, client, app) })

	t.Run("segments", func(t *testing.T) { testSegments(t, client, "`"+app+"`") })
}

func sumRCU(reqs []spyRequest) float64 {
	var n float64
	for _, r := range reqs {
		n += r.RCU
	}
	return n
}

func assertRefused(t *testing.T, r result, sp *spyClient) {
	t.Helper()
	var pe *diag.Error
	if !errors.As(r.Error, &pe) || pe.Phase != diag.Plan || pe.Code != diag.CodeBudget {
		t.Fatalf("err = %v, want a plan error with code %q", r.Error, diag.CodeBudget)
	}
	if n := len(sp.requests()); n != 0 {
		t.Fatalf("%d read requests were sent before the refusal", n)
	}
	if !strings.Contains(r.Error.Error(), "nothing was read") {
		t.Fatalf("error %q does not say that nothing was read", r.Error)
	}
}

func TestBudgetRefusesBeforeAnyRequest(t *testing.T) {
	db := memClient(t)
	cases := []struct {
		sql    string
		budget float64
	}{
		{"SELECT * FROM app", 100}, // Scan: about 460 RCU
		{"SELECT * FROM app WHERE PK = 'WS#big' ORDER BY SK LIMIT 2000", 100},                     // about 360 RCU
		{"SELECT * FROM uniform WHERE PK = 'P#1' AND SK IN ('S#00001', 'S#00011', 'S#00021')", 1}, // 1.5 RCU
	}
	for _, c := range cases {
		sp := spy(db)
		r := run(t, sp, func(cfg *session.Config) { cfg.Plan.AllowScan = true; cfg.MaxRCU = c.budget }, c.sql)
		assertRefused(t, r, sp)
		// Within budget, the same statement runs.
		r = run(t, db, func(cfg *session.Config) { cfg.Plan.AllowScan = true; cfg.MaxRCU = 1000 }, c.sql)
		if r.Error != nil {
			t.Fatalf("%s with a budget of 1000: %v", c.sql, r.Error)
		}
	}
}

// outgrownCatalog reports every table as DynamoDB does when it has grown
// since the last refresh of its figures: 10 items of 700 bytes.
type outgrownCatalog struct{ dynamo.Client }

func (c outgrownCatalog) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	out, err := c.Client.DescribeTable(ctx, in, o...)
	if err != nil {
		return nil, err
	}
	td := *out.Table
	td.ItemCount, td.TableSizeBytes = aws.Int64(10), aws.Int64(7000)
	return &dynamodb.DescribeTableOutput{Table: &td}, nil
}

// TestBudgetStopsParallelScan: the estimate passes (DescribeTable's stale
// figures make the table look small), then the Scan's segments cross the
// budget while running (on memdb: stopping cancels segments in flight).
func TestBudgetStopsParallelScan(t *testing.T) {
	sp := spy(outgrownCatalog{memClient(t)})
	r := run(t, sp, func(cfg *session.Config) { cfg.Plan.AllowScan = true; cfg.Plan.Segments = 4; cfg.MaxRCU = 150 },
		"SELECT PK, SK FROM app WHERE seq > 0")
	var ee *diag.Error
	if !errors.As(r.Error, &ee) || ee.Code != diag.CodeBudget {
		t.Fatalf("err = %v, want code %q", r.Error, diag.CodeBudget)
	}
	if got := sumRCU(sp.requests()); got <= 150 || !strings.Contains(r.Error.Error(), "150") || r.Stats == nil || r.Stats.RCU <= 150 {
		t.Fatalf("consumed %v RCU (stats %+v); error %q", got, r.Stats, r.Error)
	}
	if total := 0.5 * 921; r.Stats.RCU >= total {
		t.Fatalf("consumed %v RCU: the whole table, the budget did not stop the Scan", r.Stats.RCU)
	}
}

// testRateLimit reads WS#big (about 460 RCU in 4 pages of about 115)
// twice in one session with --rate-limit 250, about 3.7 seconds, and
// measures the rate DynamoDB saw. Capacity is known only from responses, so
// pacing is paid after each request: the steady rate, from the first
// request to the start of the last, is what the limiter holds (the last
// response, paid by whatever request would come next, is outside it).
func testRateLimit(t *testing.T, client dynamo.Client, app string) {
	const rate = 250.0
	sp := spy(client)
	var out, errOut strings.Builder
	cfg := session.DefaultConfig()
	cfg.Format, cfg.RateLimit, cfg.Mem = "csv", rate, memtest.Allocator(t)
	s := session.New(sp, &out, &errOut, cfg)
	sql := fmt.Sprintf("SELECT SK FROM `%s` WHERE PK = 'WS#big'", app)
	start := time.Now()
	const statements = 2
	for range statements {
		if err := s.RunScript(t.Context(), sql); err != nil {
			t.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	reqs := sp.requests()
	last := reqs[len(reqs)-1]
	consumed := sumRCU(reqs)
	steady := (consumed - last.RCU) / last.Start.Sub(reqs[0].Start).Seconds()
	overall := consumed / elapsed.Seconds()
	t.Logf("--rate-limit %v: %d statements, %d requests, %v RCU in %v: steady %.1f RCU/s (%.1f%%), overall %.1f RCU/s (%.1f%%)",
		rate, statements, len(reqs), consumed, elapsed.Round(time.Millisecond), steady, 100*steady/rate, overall, 100*overall/rate)
	// Only the limit is asserted: a loaded machine reads slower, never
	// faster. That the limiter reaches the rate is proven on a fake clock
	// (exec/engine/ratelimit_test.go), where no timing depends on the machine.
	if steady > rate*1.1 {
		t.Fatalf("measured %.1f RCU/s with --rate-limit %v; want at most 10%% above it", steady, rate)
	}
	// Overall, only the last response is unpaid: at most one page more.
	if max := (rate*elapsed.Seconds() + last.RCU) * 1.1; consumed > max {
		t.Fatalf("consumed %v RCU in %v at --rate-limit %v", consumed, elapsed, rate)
	}
}

// testSegments compares a parallel Scan's rows with a single segment's.
func testSegments(t *testing.T, client dynamo.Client, table string) {
	sql := "SELECT PK, SK, title, seq, status FROM " + table
	base := sortedRows(t, client, 1, sql)
	if len(base) != fixtures.AppItems {
		t.Fatalf("one segment returned %d rows, want %d", len(base), fixtures.AppItems)
	}
	for _, n := range []int{2, 3, 8} {
		sp := spy(client)
		got := sortedRows(t, sp, n, sql)
		if len(got) != len(base) {
			t.Fatalf("%d segments: %d rows, want %d", n, len(got), len(base))
		}
		for i := range got {
			if got[i] != base[i] {
				t.Fatalf("%d segments: row %d is %q, one segment has %q", n, i, got[i], base[i])
			}
		}
		if scans := len(sp.requests()); scans < n {
			t.Fatalf("%d segments sent only %d Scan requests", n, scans)
		}
		r := mustRun(t, client, func(cfg *session.Config) { cfg.Plan.AllowScan = true; cfg.Plan.Segments = n }, "SELECT COUNT(*) FROM "+table)
		if rows := r.rows(); len(rows) != 1 || rows[0] != strconv.Itoa(fixtures.AppItems) {
			t.Fatalf("%d segments: COUNT(*) = %q, want %d", n, rows, fixtures.AppItems)
		}
	}
}

func sortedRows(t *testing.T, client dynamo.Client, segments int, sql string) []string {
	t.Helper()
	r := mustRun(t, client, func(cfg *session.Config) { cfg.Plan.AllowScan = true; cfg.Plan.Segments = segments }, sql)
	rows := r.rows()
	sort.Strings(rows)
	return rows
}

func TestSegmentsMemdb(t *testing.T) { testSegments(t, memClient(t), "app") }

// TestStrict checks each rule of --strict and that key-only plans pass.
func TestStrict(t *testing.T) {
	db := memClient(t)
	strict := func(cfg *session.Config) { cfg.Plan.Strict = true; cfg.Plan.AllowScan = true }
	fails := []struct{ sql, part string }{
		{"SELECT * FROM app", "reads table app with a Scan"},
		{"SELECT COUNT(*) FROM customers", "reads table customers with a Scan"},
		{"SELECT * FROM app WHERE PK = 'WS#acme' AND status = 'draft'", "FilterExpression (status = 'draft')"},
		{"SELECT * FROM app WHERE GSI1PK = 'STATUS#REVIEW' AND owner = 'u_bob'", "index GSI1 of app has a FilterExpression (owner = 'u_bob')"},
		{"SELECT * FROM app WHERE PK = 'WS#acme' AND size + 1 > 2000", "filters the items it reads on the client (size + 1 > 2000)"},
		{"SELECT * FROM app WHERE PK = 'WS#acme' ORDER BY title", "sorts the items it reads on the client (ORDER BY title)"},
		{"SELECT SK FROM app WHERE PK = 'WS#acme' ORDER BY title DESC LIMIT 3", "(ORDER BY title DESC)"},
		{"SELECT a.SK, c.name FROM app a JOIN customers c ON a.owner = c.name WHERE a.PK = 'WS#acme'", "hash join"},
		{"SELECT * FROM app WHERE owner = 'u_alice'", "fetch the full items of app"},
	}
	for _, c := range fails {
		sp := spy(db)
		r := run(t, sp, strict, c.sql)
		var pe *diag.Error
		if !errors.As(r.Error, &pe) || pe.Phase != diag.Plan || pe.Code != diag.CodeStrict {
			t.Errorf("%s: err = %v, want code %q", c.sql, r.Error, diag.CodeStrict)
			continue
		}
		if !strings.Contains(pe.Msg, c.part) {
			t.Errorf("%s: %q does not name the part that breaks the rule (%q)", c.sql, pe.Msg, c.part)
		}
		if n := len(sp.requests()); n != 0 {
			t.Errorf("%s: %d requests sent before the strict check failed", c.sql, n)
		}
	}
	passes := []string{
		"SELECT * FROM app WHERE PK = 'WS#acme' AND SK = 'META'",
		"SELECT * FROM app WHERE PK = 'WS#acme' AND SK IN ('META', 'DOC#0001')",
		"SELECT * FROM app WHERE PK = 'WS#acme'",
		"SELECT SK FROM app WHERE PK = 'WS#big' ORDER BY SK DESC LIMIT 3",
		"SELECT * FROM app WHERE PK = 'WS#acme' AND SK LIKE 'DOC#%'",
		"SELECT * FROM app WHERE GSI1PK = 'STATUS#REVIEW'",
		"SELECT title FROM app WHERE owner = 'u_alice'",
		"SELECT COUNT(*) FROM app WHERE PK = 'WS#big'",
		"SELECT status, COUNT(*) AS n FROM app WHERE PK = 'WS#acme' GROUP BY status ORDER BY status",
		"SELECT a.SK, c.name FROM app a JOIN customers c ON a.owner = c.id WHERE a.PK = 'WS#acme'",
	}
	for _, sql := range passes {
		if r := run(t, db, strict, sql); r.Error != nil {
			t.Errorf("%s: %v", sql, r.Error)
		}
	}
}

var (
	actualRE = regexp.MustCompile(`actual: .*; (\d+) requests?(?:, (\d+) pages?)?, (\d+) items? read, (\d+) returned, ([0-9.]+) RCU`)
	totalRE  = regexp.MustCompile(`actual total: .*?(\d+) requests? .*?(\d+) items? read, (\d+) returned · RCU ([0-9.]+)`)
)

// TestExplainAnalyze checks that EXPLAIN ANALYZE's actual figures per
// DynamoDB access add up to the statement's statistics.
func TestExplainAnalyze(t *testing.T) {
	db := memClient(t)
	stmts := []string{
		"SELECT * FROM app WHERE PK = 'WS#acme' AND SK = 'META'",
		"SELECT * FROM app WHERE PK = 'WS#big' AND SK IN ('DOC#B00001', 'DOC#B00002')",
		"SELECT SK FROM app WHERE PK = 'WS#big' AND seq > 2400",
		"SELECT * FROM app WHERE owner = 'u_alice'",
		"SELECT COUNT(*) FROM app",
		"SELECT a.SK, c.name FROM app a JOIN customers c ON a.owner = c.id WHERE a.PK = 'WS#acme'",
		"SELECT a.SK, c.name FROM app a JOIN customers c ON a.owner = c.name WHERE a.PK = 'WS#acme'",
	}
	for _, sql := range stmts {
		plain := mustRun(t, db, allowScan, sql).Stats
		r := mustRun(t, db, allowScan, "EXPLAIN ANALYZE "+sql)
		var reqs, pages int
		var read, returned int64
		var rcu float64
		for _, m := range actualRE.FindAllStringSubmatch(r.Out, -1) {
			n, _ := strconv.Atoi(m[1])
			p, _ := strconv.Atoi(m[2])
			i, _ := strconv.ParseInt(m[3], 10, 64)
			o, _ := strconv.ParseInt(m[4], 10, 64)
			u, _ := strconv.ParseFloat(m[5], 64)
			reqs, pages, read, returned, rcu = reqs+n, pages+p, read+i, returned+o, rcu+u
		}
		st := r.Stats
		if reqs != st.Requests || pages != st.Pages || read != st.ItemsRead || returned != st.ItemsReturned || !near(rcu, st.RCU) {
			t.Errorf("%s: actual lines add up to %d requests, %d pages, %d items read, %d returned, %v RCU; stats say %+v\n%s",
				sql, reqs, pages, read, returned, rcu, *st, r.Out)
		}
		if st.Requests != plain.Requests || st.ItemsRead != plain.ItemsRead || st.RCU != plain.RCU || st.Rows != plain.Rows {
			t.Errorf("%s: EXPLAIN ANALYZE read %+v, the statement itself %+v", sql, *st, *plain)
		}
		if !strings.Contains(r.Out, "estimated total: ") {
			t.Errorf("%s: no estimated total:\n%s", sql, r.Out)
		}
		m := totalRE.FindStringSubmatch(r.Out)
		if m == nil {
			t.Errorf("%s: no actual total:\n%s", sql, r.Out)
			continue
		}
		if m[1] != strconv.Itoa(st.Requests) || m[2] != strconv.FormatInt(st.ItemsRead, 10) || m[4] != planner.FormatRCU(st.RCU) {
			t.Errorf("%s: actual total %q, stats %+v", sql, m[0], *st)
		}
	}
}

var nodeEstimateRE = regexp.MustCompile(`(?m)^[│ ]*(?:fetch )?estimate: (.*)$`)

// TestExplainAnalyzeJoinEstimates: the estimated total of a join counts
// its lookups (and fetches), it is the sum of the estimates EXPLAIN prints
// per read, and as a lower bound it never exceeds what the statement reads.
func TestExplainAnalyzeJoinEstimates(t *testing.T) {
	check := func(t *testing.T, client dynamo.Client, sql string, lookups int) {
		t.Helper()
		r := mustRun(t, client, nil, "EXPLAIN ANALYZE "+sql)
		var sum estimate
		lines := nodeEstimateRE.FindAllStringSubmatch(r.Out, -1)
		for _, m := range lines {
			e := parseEstimate(t, m[1])
			sum.Requests, sum.Items, sum.RCU = sum.Requests+e.Requests, sum.Items+e.Items, sum.RCU+e.RCU
		}
		if got := strings.Count(r.Out, "Lookup Join"); got != lookups {
			t.Fatalf("%s: %d lookup steps, want %d:\n%s", sql, got, lookups, r.Out)
		}
		if len(lines) < 1+lookups {
			t.Fatalf("%s: %d estimate lines for %d lookup steps and the driving read:\n%s", sql, len(lines), lookups, r.Out)
		}
		var total estimate
		for _, line := range strings.Split(r.Out, "\n") {
			if strings.HasPrefix(line, "estimated total: ") {
				total = parseEstimate(t, line)
			}
		}
		if !total.AtLeast || total.Requests != sum.Requests || total.Items != sum.Items || !near(total.RCU, sum.RCU) {
			t.Fatalf("%s: estimated total %+v is not the sum %+v of the reads' estimates:\n%s", sql, total, sum, r.Out)
		}
		act := r.Stats
		if total.Requests > int64(act.Requests) || total.Items > act.ItemsRead || total.RCU > act.RCU {
			t.Fatalf("%s: lower bound %+v exceeds the actual %d requests, %d items read, %v RCU:\n%s", sql, total, act.Requests, act.ItemsRead, act.RCU, r.Out)
		}
		if total.Requests < int64(1+lookups) {
			t.Fatalf("%s: the estimate (%d requests) does not count a request per lookup step and the driving read", sql, total.Requests)
		}
	}
	t.Run("memdb", func(t *testing.T) {
		db := memClient(t)
		// The join the estimate used to count as ≥0.5 RCU while it read 3.
		check(t, db, "SELECT a.SK, c.name FROM app a JOIN customers c ON a.owner = c.id WHERE a.PK = 'WS#acme'", 1)
		check(t, db, "SELECT c.name, p.name, p.price FROM customers c JOIN products p ON c.favoriteSku = p.sku WHERE c.id IN ('c_0001', 'c_0002', 'c_0003')", 1)
		check(t, db, "SELECT c.id, p.sku, m.temp FROM customers c JOIN products p ON c.favoriteSku = p.sku JOIN metrics m ON m.device = p.stock WHERE c.id = 'c_0001'", 2)
	})
	t.Run("dynalite", func(t *testing.T) {
		// 250 driving rows, 120 distinct lookup values: 2 BatchGetItems.
		client := dynalitetest.Client(t)
		prefix := dynalitetest.Prefix(t)
		orders, custs := joinTables()
		if err := fixtures.Load(context.Background(), client, prefix, orders, custs); err != nil {
			t.Fatal(err)
		}
		check(t, client, fmt.Sprintf("SELECT o.SK, c.name FROM `%s` o JOIN `%s` c ON o.cust = c.id WHERE o.PK = 'ORD'", orders.Named(prefix), custs.Named(prefix)), 1)
	})
}

// TestBudgetStopsFetchesAndLookups: every read counts against --max-rcu
// while the statement runs, not only the first: a fetch after an index
// read and a join's lookups stop the statement once they cross it.
func TestBudgetStopsFetchesAndLookups(t *testing.T) {
	db := memClient(t)
	cases := []struct {
		name, sql string
		budget    float64
		last      string // the operation whose response crosses the budget
	}{
		// The index Query costs 0.5 RCU, the fetch of 8 items 4.
		{"fetch", "SELECT * FROM app WHERE owner = 'u_alice'", 2, "BatchGetItem"},
		// The Query costs 0.5, the lookup of 5 missing keys 2.5 (DynamoDB
		// charges a missing key the minimum).
		{"lookups", "SELECT a.SK, c.name FROM app a JOIN customers c ON a.owner = c.id WHERE a.PK = 'WS#acme'", 1, "BatchGetItem"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := spy(db)
			r := run(t, sp, func(cfg *session.Config) { cfg.MaxRCU = c.budget }, c.sql)
			var ee *diag.Error
			if !errors.As(r.Error, &ee) || ee.Code != diag.CodeBudget {
				t.Fatalf("err = %v, want an exec error with code %q", r.Error, diag.CodeBudget)
			}
			reqs := sp.requests()
			if len(reqs) < 2 || reqs[len(reqs)-1].Op != c.last {
				t.Fatalf("requests %+v: want the %s to cross the budget", reqs, c.last)
			}
			if before := sumRCU(reqs[:len(reqs)-1]); before > c.budget || sumRCU(reqs) <= c.budget {
				t.Fatalf("consumed %v RCU before the last request and %v in all; the budget is %v", before, sumRCU(reqs), c.budget)
			}
			if r.Out != "" && strings.Count(r.Out, "\n") > 1 {
				t.Fatalf("printed rows of an incomplete result:\n%s", r.Out)
			}
		})
	}
}
