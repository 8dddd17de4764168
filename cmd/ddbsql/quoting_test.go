package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestDoubleQuotedNames runs statements with "…" names through the command:
// they must return what the backticked statements return, and a
// double-quoted name meant as a string must be explained, never silent.
func TestDoubleQuotedNames(t *testing.T) { backends(t, testDoubleQuotedNames) }

// dq expands {t} to the fixture table's name in double quotes, where
// cli.expand uses backticks.
func (c *cli) dq(sql string) string {
	for _, ft := range fixtures.All() {
		sql = strings.ReplaceAll(sql, "{"+ft.Name+"}", `"`+ft.Named(c.prefix)+`"`)
	}
	return sql
}

func testDoubleQuotedNames(t *testing.T, c *cli) {
	app := fixtures.App()

	t.Run("COUNT with a double-quoted attribute", func(t *testing.T) {
		want := len(itemsWhere(app, func(it value.Value) bool { return attrText(it, "status") == "review" }))
		if want == 0 {
			t.Fatal("the fixture has no item in review")
		}
		double := c.rows(t, []string{"--allow-scan"}, c.dq(`SELECT COUNT(*) AS n FROM {app} WHERE "status" = 'review'`))
		backtick := c.rows(t, []string{"--allow-scan"}, "SELECT COUNT(*) AS n FROM {app} WHERE `status` = 'review'")
		requireEqual(t, "double-quoted count", column(double, "n"), []string{strconv.Itoa(want)})
		requireEqual(t, "backticked count", column(backtick, "n"), []string{strconv.Itoa(want)})
		// Through the index on the same data, no Scan needed.
		viaIndex := c.rows(t, nil, c.dq(`SELECT COUNT(*) AS "n" FROM {app}."GSI1" WHERE "GSI1PK" = 'STATUS#REVIEW' AND "status" = 'review'`))
		requireEqual(t, "count through GSI1", column(viaIndex, "n"), []string{strconv.Itoa(want)})
	})

	t.Run("begins_with on a double-quoted sort key", func(t *testing.T) {
		want := sortedBy(itemsWhere(app, func(it value.Value) bool {
			return attrText(it, "PK") == "WS#acme" && strings.HasPrefix(attrText(it, "SK"), "DOC#")
		}), "SK", false)
		rows := c.rows(t, nil, c.dq(`SELECT "SK", "status" FROM {app} WHERE "PK" = 'WS#acme' AND begins_with("SK", 'DOC#')`))
		if len(rows) == 0 {
			t.Fatal("no rows")
		}
		requireEqual(t, "SK", column(rows, "SK"), texts(want, "SK"))
		requireEqual(t, "status", column(rows, "status"), texts(want, "status"))
	})

	t.Run("IN list literal on the partition key", func(t *testing.T) {
		rows := c.rows(t, nil, `SELECT "id" FROM {customers} WHERE "id" IN ['c_0007', 'c_0002', 'c_9999']`)
		requireEqual(t, "ids", column(rows, "id"), []string{"c_0007", "c_0002"})
	})

	t.Run("join with double-quoted aliases and columns", func(t *testing.T) {
		double := c.rows(t, nil, c.dq(`SELECT "c"."id", "p"."sku" FROM {customers} AS "c" JOIN {products} "p" ON "c"."favoriteSku" = "p"."sku" WHERE "c"."id" IN ['c_0001', 'c_0002']`))
		backtick := c.rows(t, nil, "SELECT `c`.`id`, `p`.`sku` FROM {customers} AS `c` JOIN {products} `p` ON `c`.`favoriteSku` = `p`.`sku` WHERE `c`.`id` IN ('c_0001', 'c_0002')")
		if len(double) == 0 {
			t.Fatal("no rows")
		}
		requireEqual(t, "join rows", double, backtick)
	})

	t.Run("DESCRIBE and SHOW INDEXES take double-quoted tables", func(t *testing.T) {
		for _, sql := range []string{`DESCRIBE {app}`, `SHOW INDEXES FROM {app}`} {
			double, backtick := c.invoke([]string{"-e", c.dq(sql)}, ""), c.run("-e", sql)
			if double.code != 0 || double.out == "" || double.out != backtick.out {
				t.Errorf("%s: exit %d\n%s\nwant\n%s%s", sql, double.code, double.out, backtick.out, double.err)
			}
		}
	})

	t.Run("a double-quoted key value is a name, and the error says so", func(t *testing.T) {
		r := c.run("-e", `SELECT * FROM {app} WHERE PK = "WS#acme"`)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1\nstderr: %s", r.code, r.err)
		}
		for _, w := range []string{"error: this statement needs a Scan", `hint: "WS#acme" is a name here, not a string`, "write 'WS#acme'\nhint: add = or IN"} {
			if !strings.Contains(r.err, w) {
				t.Errorf("stderr lacks %q:\n%s", w, r.err)
			}
		}
	})

	t.Run("a double-quoted value that runs gets a note on stderr", func(t *testing.T) {
		r := c.run("--format", "csv", "-e", `SELECT SK FROM {app} WHERE PK = 'WS#acme' AND status = "review"`)
		if r.code != 0 {
			t.Fatalf("exit %d\nstderr: %s", r.code, r.err)
		}
		if want := `note: "review" is a name here, not a string`; !strings.Contains(r.err, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.err)
		}
		if r.out != "SK\n" {
			t.Errorf("no item has an attribute named review, so no row matches; got %q", r.out)
		}
		quiet := c.run("--format", "csv", "-e", `SELECT "SK" FROM {app} WHERE "PK" = 'WS#acme' AND "status" = 'review' LIMIT 1`)
		if quiet.code != 0 || strings.Contains(quiet.err, "note:") || quiet.out == "SK\n" {
			t.Errorf("names used as names: exit %d, out %q, stderr %q", quiet.code, quiet.out, quiet.err)
		}
	})

	t.Run("an unterminated double quote is a syntax error", func(t *testing.T) {
		r := c.run("-e", "SELECT * FROM {app}\nWHERE PK = \"WS#acme")
		if r.code != 1 || !strings.Contains(r.err, "line 2, column 12: unterminated quoted name") || !strings.Contains(r.err, "single quotes") {
			t.Errorf("exit %d\nstderr: %s", r.code, r.err)
		}
	})
}
