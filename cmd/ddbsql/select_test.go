package main

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner/value"
)

// itemsWhere returns the fixture items of a table that satisfy keep.
func itemsWhere(t *fixtures.Table, keep func(value.Value) bool) []value.Value {
	var out []value.Value
	for _, it := range t.Items {
		if keep(it) {
			out = append(out, it)
		}
	}
	return out
}

func attrText(it value.Value, name string) string { return it.Attr(name).Text() }

func texts(items []value.Value, attr string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = attrText(it, attr)
	}
	return out
}

func sortedBy(items []value.Value, attr string, desc bool) []value.Value {
	out := append([]value.Value(nil), items...)
	sort.SliceStable(out, func(i, j int) bool {
		c := value.Order(out[i].Attr(attr), out[j].Attr(attr))
		if desc {
			return c > 0
		}
		return c < 0
	})
	return out
}

func requireEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got  %v\n want %v", what, got, want)
	}
}

// TestSelect runs SELECTs end to end against dynalite and checks the rows
// against the fixture data.
func TestSelect(t *testing.T) { backends(t, testSelect) }

func testSelect(t *testing.T, c *cli) {
	app := fixtures.App()

	t.Run("query partition with begins_with", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT SK, status FROM {app} WHERE PK = 'WS#acme' AND begins_with(SK, 'DOC#')")
		want := itemsWhere(app, func(it value.Value) bool {
			return attrText(it, "PK") == "WS#acme" && strings.HasPrefix(attrText(it, "SK"), "DOC#")
		})
		requireEqual(t, "SK", column(rows, "SK"), texts(sortedBy(want, "SK", false), "SK"))
		requireEqual(t, "status", column(rows, "status"), texts(sortedBy(want, "SK", false), "status"))
	})

	t.Run("GetItem", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT PK, SK, name, plan FROM {app} WHERE PK = 'WS#acme' AND SK = 'META'")
		if len(rows) != 1 || rows[0]["name"] == nil || rows[0]["SK"] != "META" {
			t.Fatalf("got %v", rows)
		}
	})

	t.Run("GetItem of a missing item returns no rows", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT * FROM {app} WHERE PK = 'WS#nope' AND SK = 'META'")
		if len(rows) != 0 {
			t.Fatalf("got %v", rows)
		}
	})

	t.Run("BatchGetItem keeps the IN-list order", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT id, name FROM {customers} WHERE id IN ('c_0007', 'c_0002', 'c_0049', 'c_9999')")
		requireEqual(t, "ids", column(rows, "id"), []string{"c_0007", "c_0002", "c_0049"})
	})

	t.Run("GSI query ordered by the index sort key, descending, limited", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT SK, GSI1SK FROM {app} WHERE GSI1PK = 'STATUS#REVIEW' ORDER BY GSI1SK DESC LIMIT 4")
		want := sortedBy(itemsWhere(app, func(it value.Value) bool { return attrText(it, "GSI1PK") == "STATUS#REVIEW" }), "GSI1SK", true)[:4]
		requireEqual(t, "GSI1SK", column(rows, "GSI1SK"), texts(want, "GSI1SK"))
	})

	t.Run("IN on the partition key merges in sort-key order", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT PK, SK FROM {app} WHERE PK IN ('WS#hooli', 'WS#acme') AND SK LIKE 'DOC#%' ORDER BY SK DESC")
		want := sortedBy(itemsWhere(app, func(it value.Value) bool {
			pk := attrText(it, "PK")
			return (pk == "WS#hooli" || pk == "WS#acme") && strings.HasPrefix(attrText(it, "SK"), "DOC#")
		}), "SK", true)
		requireEqual(t, "SK", column(rows, "SK"), texts(want, "SK"))
	})

	t.Run("GSI that does not project what is needed fetches from the table", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT title, status, updatedAt FROM {app} WHERE owner = 'u_alice' ORDER BY updatedAt")
		want := sortedBy(itemsWhere(app, func(it value.Value) bool { return attrText(it, "owner") == "u_alice" }), "updatedAt", false)
		requireEqual(t, "status", column(rows, "status"), texts(want, "status"))
		requireEqual(t, "updatedAt", column(rows, "updatedAt"), texts(want, "updatedAt"))
	})

	t.Run("LSI with a sort-key range", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT SK, createdAt FROM {app} USE INDEX (ByCreated) WHERE PK = 'WS#acme' AND createdAt >= '2026-01-10' ORDER BY createdAt")
		want := sortedBy(itemsWhere(app, func(it value.Value) bool {
			return attrText(it, "PK") == "WS#acme" && it.Attr("createdAt").Kind() == value.String && attrText(it, "createdAt") >= "2026-01-10"
		}), "createdAt", false)
		requireEqual(t, "createdAt", column(rows, "createdAt"), texts(want, "createdAt"))
	})

	t.Run("numeric keys sort numerically", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT seq FROM {metrics} WHERE device = 10 AND seq BETWEEN 2 AND 11")
		var want []string
		for i := 2; i <= 11; i++ {
			want = append(want, fmt.Sprint(i))
		}
		requireEqual(t, "seq", column(rows, "seq"), want)
	})

	t.Run("pagination over several 1 MB pages", func(t *testing.T) {
		r := c.run("--stats", "text", "--format", "csv", "-e", "SELECT SK FROM {app} WHERE PK = 'WS#big' AND begins_with(SK, 'DOC#')")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.err)
		}
		lines := strings.Split(strings.TrimSpace(r.out), "\n")
		if len(lines) != fixtures.AppBigDocuments+1 {
			t.Fatalf("got %d lines, want %d rows + header", len(lines), fixtures.AppBigDocuments)
		}
		if !strings.Contains(r.err, "4 pages") && !strings.Contains(r.err, "5 pages") {
			t.Fatalf("expected several pages in stats, got %q", r.err)
		}
	})

	t.Run("LIMIT stops reading after the first page", func(t *testing.T) {
		r := c.run("--stats", "text", "--format", "csv", "-e", "SELECT SK FROM {app} WHERE PK = 'WS#big' AND title <> 'x' LIMIT 3")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.err)
		}
		if got := strings.Count(strings.TrimSpace(r.out), "\n"); got != 3 {
			t.Fatalf("want 3 rows, got %q", r.out)
		}
		if !strings.Contains(r.err, "1 requests (Query 1)") && !strings.Contains(r.err, "1 request (Query 1)") {
			t.Fatalf("LIMIT should need one request, stats: %s", r.err)
		}
	})

	t.Run("reserved words and document paths", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT SK, status, name, size, count, info.rating, info.tags[0], a.b.c.d, `my-attr`, `x.y`, x.y FROM {app} WHERE PK = 'WS#acme' AND SK = 'DOC#0001'")
		if len(rows) != 1 {
			t.Fatalf("got %v", rows)
		}
		row := rows[0]
		doc := itemsWhere(app, func(it value.Value) bool { return attrText(it, "PK") == "WS#acme" && attrText(it, "SK") == "DOC#0001" })[0]
		requireEqual(t, "status", row["status"], attrText(doc, "status"))
		requireEqual(t, "a.b.c.d", row["a.b.c.d"], "deep")
		requireEqual(t, "my-attr", row["my-attr"], attrText(doc, "my-attr"))
		// `x.y` is one attribute named "x.y"; x.y is member y of map x. Both
		// columns are called x.y, so JSON renames the second.
		requireEqual(t, "`x.y` attribute", row["x.y"], "dotted-name")
		requireEqual(t, "x.y path", row["x.y_2"], "nested-value")
		requireEqual(t, "info.tags[0]", row["info.tags[0]"], doc.Attr("info").Attr("tags").Index(0).Text())
		requireEqual(t, "info.rating", fmt.Sprint(row["info.rating"]), doc.Attr("info").Attr("rating").Text())
	})

	t.Run("numbers keep every digit", func(t *testing.T) {
		r := c.run("--format", "json", "-e", "SELECT SK, score FROM {app} WHERE PK = 'WS#acme' AND SK BETWEEN 'DOC#0002' AND 'DOC#0007'")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.err)
		}
		for _, n := range []string{fixtures.Score38, fixtures.Score38b, fixtures.ScoreTinyNegative} {
			if !strings.Contains(r.out, `"score":`+n) {
				t.Errorf("output lacks exact number %s:\n%s", n, r.out)
			}
		}
		huge, _ := value.CanonicalNumber(fixtures.ScoreHuge)
		huge = value.NumberText(huge) // 1E+125: scientific past 38 padding zeros
		if !strings.Contains(r.out, huge) {
			t.Errorf("output lacks %s", huge)
		}
	})

	t.Run("missing attributes are null", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT SK, title, nosuch FROM {app} WHERE PK = 'WS#acme' AND SK = 'DOC#0008'")
		if len(rows) != 1 || rows[0]["title"] != nil || rows[0]["nosuch"] != nil {
			t.Fatalf("got %v", rows)
		}
		if _, ok := rows[0]["nosuch"]; !ok {
			t.Fatalf("an explicit column must appear even when missing: %v", rows)
		}
	})

	t.Run("filter expression and client filter", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT SK FROM {app} WHERE PK = 'WS#acme' AND status <> 'draft' AND title LIKE '%o%' AND NOT (pinned = true)")
		want := itemsWhere(app, func(it value.Value) bool {
			return attrText(it, "PK") == "WS#acme" && it.Attr("status").Kind() == value.String && attrText(it, "status") != "draft" &&
				it.Attr("title").Kind() == value.String && strings.Contains(attrText(it, "title"), "o") &&
				it.Attr("pinned").Kind() == value.Bool && !it.Attr("pinned").Bool()
		})
		requireEqual(t, "SK", column(rows, "SK"), texts(sortedBy(want, "SK", false), "SK"))
	})

	t.Run("scan with --allow-scan", func(t *testing.T) {
		rows := c.rows(t, []string{"--allow-scan"}, "SELECT PK, SK FROM {users} WHERE Type = 'Order' AND total > 100")
		want := itemsWhere(fixtures.Users(), func(it value.Value) bool {
			if attrText(it, "Type") != "Order" {
				return false
			}
			return value.CompareNumbers(it.Attr("total"), value.NumTrusted("100")) > 0
		})
		if len(rows) != len(want) || len(want) == 0 {
			t.Fatalf("got %d rows, want %d", len(rows), len(want))
		}
	})

	t.Run("COUNT(*) with Select=COUNT", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT COUNT(*) AS n FROM {app} WHERE PK = 'WS#big'")
		requireEqual(t, "count", column(rows, "n"), []string{fmt.Sprint(fixtures.AppBigDocuments + 1)})
	})

	t.Run("SELECT without FROM computes one row", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT 1 + 1 AS two, 12345678901234567890123456789012345678 + 1 AS big, 10 / 4 AS q")
		requireEqual(t, "two", column(rows, "two"), []string{"2"})
		requireEqual(t, "big", column(rows, "big"), []string{"12345678901234567890123456789012345679"})
		requireEqual(t, "q", column(rows, "q"), []string{"2.5"})
	})

	t.Run("SELECT star puts keys first", func(t *testing.T) {
		r := c.run("--format", "csv", "-e", "SELECT * FROM {customers} WHERE id = 'c_0001'")
		if r.code != 0 || !strings.HasPrefix(r.out, "id,") {
			t.Fatalf("exit %d, out %q, err %q", r.code, r.out, r.err)
		}
	})
}
