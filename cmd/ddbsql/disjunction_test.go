package main

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestDisjunctions runs WHEREs that are ORs of key conditions through the
// command line, without --allow-scan, and checks the rows against the
// fixture data: items several branches match come back once.
func TestDisjunctions(t *testing.T) { backends(t, testDisjunctions) }

func testDisjunctions(t *testing.T, c *cli) {
	app := fixtures.App()
	keys := func(items []value.Value) []string {
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = attrText(it, "PK") + " " + attrText(it, "SK")
		}
		sort.Strings(out)
		return out
	}
	rowKeys := func(rows []map[string]any) []string {
		out := make([]string, len(rows))
		for i, r := range rows {
			out[i] = r["PK"].(string) + " " + r["SK"].(string)
		}
		sort.Strings(out)
		return out
	}
	cases := []struct {
		name, where string
		keep        func(it value.Value) bool
	}{
		{"partition or GSI partition (overlapping)", "PK = 'WS#hooli' OR GSI1PK = 'STATUS#REVIEW'", func(it value.Value) bool {
			return attrText(it, "PK") == "WS#hooli" || attrText(it, "GSI1PK") == "STATUS#REVIEW"
		}},
		{"a 4-page partition or a GSI partition that shares an item", "PK = 'WS#big' OR GSI1PK = 'PLAN#team'", func(it value.Value) bool {
			return attrText(it, "PK") == "WS#big" || attrText(it, "GSI1PK") == "PLAN#team"
		}},
		{"full keys, one missing", "(PK = 'WS#acme' AND SK = 'META') OR (PK = 'WS#hooli' AND SK = 'DOC#0037') OR (PK = 'WS#nope' AND SK = 'META')", func(it value.Value) bool {
			k := attrText(it, "PK") + " " + attrText(it, "SK")
			return k == "WS#acme META" || k == "WS#hooli DOC#0037"
		}},
		{"sort-key ranges of one partition and an index owner", "(PK = 'WS#acme' AND SK >= 'DOC#0010') OR (PK = 'WS#acme' AND SK < 'DOC#0003') OR owner = 'u_erin'", func(it value.Value) bool {
			pk, sk := attrText(it, "PK"), attrText(it, "SK")
			return pk == "WS#acme" && (sk >= "DOC#0010" || sk < "DOC#0003") || attrText(it, "owner") == "u_erin"
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows := c.rows(t, nil, "SELECT PK, SK FROM {app} WHERE "+tc.where)
			want := keys(itemsWhere(app, tc.keep))
			if len(want) == 0 {
				t.Fatal("no fixture item matches; the case tests nothing")
			}
			requireEqual(t, "rows", rowKeys(rows), want)
		})
	}

	t.Run("COUNT over an overlapping union", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT COUNT(*) AS n FROM {app} WHERE PK = 'WS#big' OR GSI1PK = 'PLAN#team'")
		want := len(itemsWhere(app, func(it value.Value) bool {
			return attrText(it, "PK") == "WS#big" || attrText(it, "GSI1PK") == "PLAN#team"
		}))
		requireEqual(t, "count", column(rows, "n"), []string{strconv.Itoa(want)})
	})

	t.Run("EXPLAIN shows the union", func(t *testing.T) {
		r := c.run("-e", "EXPLAIN SELECT SK FROM {app} WHERE PK = 'WS#hooli' OR GSI1PK = 'STATUS#REVIEW'")
		if r.code != 0 || !strings.Contains(r.out, "Union (client): 2 OR branches") || strings.Contains(r.out, "─ Scan ") {
			t.Fatalf("exit %d\n%s%s", r.code, r.out, r.err)
		}
	})

	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"a branch without a key condition", []string{"-e", "SELECT SK FROM {app} WHERE PK = 'WS#acme' OR status = 'draft'"},
			[]string{"needs a Scan", "branch 2 (status = 'draft') has no key condition", "--allow-scan"}},
		{"too many OR branches", []string{"-e", "SELECT SK FROM {app} WHERE (PK = 'a' OR status = '1') AND (PK = 'b' OR status = '2') AND (PK = 'c' OR status = '3') AND (PK = 'd' OR status = '4') AND (PK = 'e' OR status = '5') AND (PK = 'f' OR status = '6') AND (PK = 'g' OR status = '7')"},
			[]string{"too many OR branches"}},
		{"--strict refuses a union", []string{"--strict", "-e", "SELECT SK FROM {app} WHERE PK = 'WS#hooli' OR GSI1PK = 'STATUS#REVIEW'"},
			[]string{"--strict", "OR of 2 branches"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.run(tc.args...)
			if r.code != 1 || !strings.HasPrefix(r.err, "error: ") {
				t.Fatalf("exit %d, stderr %q", r.code, r.err)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.err, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.err)
				}
			}
		})
	}

	t.Run("with --allow-scan a branch without a key scans", func(t *testing.T) {
		rows := c.rows(t, []string{"--allow-scan"}, "SELECT PK, SK FROM {app} WHERE PK = 'WS#acme' OR status = 'draft'")
		want := keys(itemsWhere(app, func(it value.Value) bool {
			return attrText(it, "PK") == "WS#acme" || attrText(it, "status") == "draft"
		}))
		requireEqual(t, "rows", rowKeys(rows), want)
	})
}
