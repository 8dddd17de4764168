package difftest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Settings of TestFuncsDifferential, which compares the date/time and string helper functions
// with SQLite's equivalents (strftime and unixepoch with modifiers,
// replace, trim, nullif, max/min) over a generated table of timestamps
// written every way DynamoDB data writes them. See doc.go, "Functions".
const (
	envFuncQueries     = "DDBSQL_DIFFTEST_FUNC_QUERIES" // how many statements (default defaultFuncQueries)
	envFuncQuery       = "DDBSQL_DIFFTEST_FUNC_QUERY"   // run only this statement (replay)
	defaultFuncQueries = 150
	funcTable          = "difffuncs"
	funcRows           = 160
)

// funcCell renders a cell of either engine for comparison: numbers as
// their digits, strings quoted, NULL as NULL.
func funcCell(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case json.Number:
		return "n:" + x.String()
	case int64:
		return "n:" + strconv.FormatInt(x, 10)
	case float64:
		return "n:" + strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return "s:" + strconv.Quote(x)
	case []byte:
		return "s:" + strconv.Quote(string(x))
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		return "j:" + string(b)
	}
	return fmt.Sprintf("?%T:%v", v, v)
}

func funcRowsText(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		cells := make([]string, len(r))
		for k, v := range r {
			cells[k] = funcCell(v)
		}
		out[i] = strings.Join(cells, " | ")
	}
	return out
}

func TestFuncsDifferential(t *testing.T) {
	seed := envInt(t, envSeed, defaultSeed)
	n := envInt(t, envFuncQueries, defaultFuncQueries)
	only, replay := uint64(0), os.Getenv(envFuncQuery) != ""
	if replay {
		only = envInt(t, envFuncQuery, 0)
	}
	table, lite, be := loadFuncTables(t, genFuncRows(seed))
	t.Logf("seed %d, %d statements, on %s", seed, n, be.name)
	r := newDDBOn(t, be.client)
	ctx := context.Background()
	seen := map[string]int{}
	failures := 0
	for q := range n {
		if replay && q != only {
			continue
		}
		g := &funcGen{r: rand.New(rand.NewPCG(seed, 1000+q))}
		st := g.statement(table)
		for _, l := range st.labels {
			seen[l]++
		}
		got, err := r.run(ctx, st.ddb, false)
		if err != nil {
			t.Errorf("statement %d (%s=%d): ddbsql: %v\n  %s", q, envFuncQuery, q, err, st.ddb)
			failures++
			continue
		}
		want, err := runLite(ctx, lite, st.lite)
		if err != nil {
			t.Fatalf("statement %d: sqlite: %v\n  %s", q, err, st.lite)
		}
		g1, w1 := funcRowsText(got), funcRowsText(want)
		if diff := firstDifference(g1, w1); diff != "" {
			t.Errorf("statement %d (%s=%d) differs: %s\n  ddbsql: %s\n  sqlite: %s", q, envFuncQuery, q, diff, st.ddb, st.lite)
			failures++
		}
		if failures >= 5 {
			t.Fatal("stopping after 5 failures")
		}
	}
	if replay {
		return
	}
	for _, l := range []string{"date_trunc", "date_part", "date_add", "date_diff", "from_unixtime", "to_unixtime",
		"date_format", "replace", "trim", "ltrim", "rtrim", "substr", "nullif", "greatest", "least", "where", "group by"} {
		if seen[l] == 0 {
			t.Errorf("no generated statement used %s", l)
		}
	}
}

func firstDifference(got, want []string) string {
	for i := 0; i < len(got) || i < len(want); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("row %d (of %d and %d): ddbsql %s, sqlite %s", i+1, len(got), len(want), g, w)
		}
	}
	return ""
}
