package main

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
)

// TestWindows runs window functions end to end over the metrics fixture
// and checks them against values computed here from the fixture items.
func TestWindows(t *testing.T) { backends(t, testWindows) }

// metricsReading is one metrics item as the checks read it.
type metricsReading struct {
	device, seq, humidity int64
	temp                  *big.Rat
}

func metricsReadings(t *testing.T) []metricsReading {
	t.Helper()
	var out []metricsReading
	for _, it := range fixtures.Metrics().Items {
		num := func(name string) *big.Rat {
			r, ok := new(big.Rat).SetString(it.Attr(name).Text())
			if !ok {
				t.Fatalf("%s = %v", name, it.Attr(name))
			}
			return r
		}
		out = append(out, metricsReading{device: num("device").Num().Int64(), seq: num("seq").Num().Int64(),
			humidity: num("humidity").Num().Int64(), temp: num("temp")})
	}
	return out
}

// ratText renders r as ddbsql prints an exact number.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return strings.TrimRight(strings.TrimRight(r.FloatString(2), "0"), ".")
}

func testWindows(t *testing.T, c *cli) {
	readings := metricsReadings(t)
	byDevice := map[int64][]metricsReading{}
	var devices []int64
	for _, r := range readings {
		if byDevice[r.device] == nil {
			devices = append(devices, r.device)
		}
		byDevice[r.device] = append(byDevice[r.device], r)
	}
	sort.Slice(devices, func(i, j int) bool { return devices[i] < devices[j] })
	in := make([]string, len(devices))
	for i, d := range devices {
		in[i] = fmt.Sprint(d)
	}
	where := "WHERE device IN (" + strings.Join(in, ", ") + ")"

	t.Run("running total, previous reading and rank per device", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT device, seq, SUM(temp) OVER (PARTITION BY device ORDER BY seq) AS running, "+
			"LAG(temp) OVER (PARTITION BY device ORDER BY seq) AS prev, "+
			"ROW_NUMBER() OVER (PARTITION BY device ORDER BY temp DESC, seq) AS hottest "+
			"FROM {metrics} "+where+" ORDER BY device, seq")
		var want, got []string
		for _, d := range devices {
			rs := append([]metricsReading(nil), byDevice[d]...)
			sort.Slice(rs, func(i, j int) bool { return rs[i].seq < rs[j].seq })
			byTemp := append([]metricsReading(nil), rs...)
			sort.SliceStable(byTemp, func(i, j int) bool { return byTemp[i].temp.Cmp(byTemp[j].temp) > 0 })
			place := map[int64]int{}
			for k, r := range byTemp {
				place[r.seq] = k + 1
			}
			total := new(big.Rat)
			for k, r := range rs {
				total.Add(total, r.temp)
				prev := "<null>"
				if k > 0 {
					prev = ratText(rs[k-1].temp)
				}
				want = append(want, fmt.Sprintf("%d %d %s %s %d", d, r.seq, ratText(total), prev, place[r.seq]))
			}
		}
		for _, r := range rows {
			got = append(got, fmt.Sprintf("%v %v %v %s %v", r["device"], r["seq"], r["running"], column([]map[string]any{r}, "prev")[0], r["hottest"]))
		}
		requireEqual(t, "rows", got, want)
	})

	t.Run("windows over groups", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT device, COUNT(*) AS n, SUM(COUNT(*)) OVER (ORDER BY device) AS so_far, "+
			"RANK() OVER (ORDER BY MAX(humidity) DESC) AS by_humidity, NTILE(2) OVER (ORDER BY device) AS half "+
			"FROM {metrics} "+where+" GROUP BY device ORDER BY device")
		maxHum := map[int64]int64{}
		for _, r := range readings {
			maxHum[r.device] = max(maxHum[r.device], r.humidity)
		}
		var want, got []string
		sofar := 0
		for k, d := range devices {
			sofar += len(byDevice[d])
			rank := 1
			for _, o := range devices {
				if maxHum[o] > maxHum[d] {
					rank++
				}
			}
			half := 1
			if k >= (len(devices)+1)/2 {
				half = 2
			}
			want = append(want, fmt.Sprintf("%d %d %d %d %d", d, len(byDevice[d]), sofar, rank, half))
		}
		for _, r := range rows {
			got = append(got, fmt.Sprintf("%v %v %v %v %v", r["device"], r["n"], r["so_far"], r["by_humidity"], r["half"]))
		}
		requireEqual(t, "rows", got, want)
	})

	t.Run("latest reading of each device", func(t *testing.T) {
		// The outer filter on the row number needs a derived table; here
		// the latest rows are the ones numbered 1, sorted first.
		rows := c.rows(t, nil, "SELECT device, seq, ROW_NUMBER() OVER (PARTITION BY device ORDER BY seq DESC) AS rn "+
			"FROM {metrics} "+where+" ORDER BY rn, device LIMIT "+fmt.Sprint(len(devices)))
		var got, want []string
		for _, d := range devices {
			want = append(want, fmt.Sprintf("%d %d 1", d, fixtures.MetricsReadings))
		}
		for _, r := range rows {
			got = append(got, fmt.Sprintf("%v %v %v", r["device"], r["seq"], r["rn"]))
		}
		requireEqual(t, "rows", got, want)
	})

	t.Run("unaliased window columns are named as written", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT seq, dense_rank() over (order by humidity desc) FROM {metrics} WHERE device = 1 ORDER BY seq LIMIT 1")
		if len(rows) != 1 {
			t.Fatalf("rows %v", rows)
		}
		if _, ok := rows[0]["DENSE_RANK() OVER (ORDER BY humidity DESC)"]; !ok {
			t.Errorf("columns %v", rows[0])
		}
	})

	t.Run("EXPLAIN shows the window", func(t *testing.T) {
		r := c.run("-e", "EXPLAIN SELECT seq, AVG(temp) OVER (ORDER BY seq ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM {metrics} WHERE device = 1")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.err)
		}
		for _, w := range []string{"Window (client): ORDER BY seq: AVG(temp) [ROWS BETWEEN 2 PRECEDING AND CURRENT ROW]", "Query"} {
			if !strings.Contains(r.out, w) {
				t.Errorf("EXPLAIN lacks %q:\n%s", w, r.out)
			}
		}
	})

	errs := []struct {
		name, sql string
		want      []string
	}{
		{"window in WHERE", "SELECT seq FROM {metrics} WHERE device = 1 AND ROW_NUMBER() OVER (ORDER BY seq) = 1",
			[]string{"window functions are not allowed in WHERE", "derived table or WITH"}},
		{"error in the specification is located", "SELECT seq,\n  RANK() OVER (ORDER BY seq ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM {metrics} WHERE device = 1",
			[]string{"line 2, column 42", "starts after it ends"}},
		{"named window", "SELECT SUM(temp) OVER w FROM {metrics} WHERE device = 1", []string{"named windows", "not supported"}},
		{"not a window function", "SELECT LOWER(ts) OVER () FROM {metrics} WHERE device = 1", []string{"LOWER() is not a window function"}},
	}
	for _, e := range errs {
		t.Run(e.name, func(t *testing.T) {
			r := c.run("-e", e.sql)
			if r.code != 1 || r.out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.out, r.err)
			}
			for _, w := range e.want {
				if !strings.Contains(r.err, w) {
					t.Errorf("stderr lacks %q: %s", w, r.err)
				}
			}
		})
	}
}

// Past --memory-limit the window operator sorts through the spilling
// sort and reads one partition at a time: the same rows as in memory,
// nothing left in --temp-dir, and what spilled in the statistics.
func TestWindowsSpill(t *testing.T) {
	const sql = "SELECT partitionId, rangeId, ROW_NUMBER() OVER (PARTITION BY partitionId ORDER BY rangeId DESC) AS rn, " +
		"SUM(kills) OVER (PARTITION BY partitionId ORDER BY rangeId ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS recent, " +
		"LAG(map) OVER (PARTITION BY partitionId ORDER BY rangeId) AS prev FROM leaderboard ORDER BY partitionId, rangeId"
	dir := t.TempDir()
	small := cliRun(t, "", "--demo", "--allow-scan", "--segments", "8", "--memory-limit", "100KiB", "--temp-dir", dir,
		"--stats", "json", "--format", "csv", "-e", sql)
	if small.code != exitOK {
		t.Fatalf("exit %d: %s", small.code, small.err)
	}
	big := cliRun(t, "", "--demo", "--allow-scan", "--format", "csv", "-e", sql)
	// Two windows (two sorts) and the ORDER BY above them share the limit.
	if small.out != big.out || strings.Count(small.out, "\n") < 1000 {
		t.Errorf("the spilled window differs from the in-memory one (%d and %d lines)", strings.Count(small.out, "\n"), strings.Count(big.out, "\n"))
	}
	if strings.Contains(small.err, `"spill_files":0`) {
		t.Errorf("nothing spilled: %s", small.err)
	}
	checkEmptyDir(t, dir)

	// One partition larger than the limit fails, naming the window.
	r := cliRun(t, "", "--demo", "--allow-scan", "--segments", "8", "--memory-limit", "100KiB", "--temp-dir", dir,
		"-e", "SELECT rangeId, ROW_NUMBER() OVER (ORDER BY rangeId) FROM leaderboard")
	if r.code != exitError || !strings.Contains(r.err, "one partition of the window operator") {
		t.Errorf("exit %d: %s", r.code, r.err)
	}
	checkEmptyDir(t, dir)
}
