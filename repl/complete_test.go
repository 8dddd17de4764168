package repl

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// fakeSource is a completion source with the app fixture's shape.
type fakeSource struct {
	tables map[string]*planner.TableDef
	seen   map[string][]string
}

func (f fakeSource) TableNames() []string {
	var out []string
	for _, n := range []string{"app", "leaderboard", "my-table.v2", "select"} {
		out = append(out, n)
	}
	return out
}

func (f fakeSource) Tables(names []string) map[string]*planner.TableDef {
	out := map[string]*planner.TableDef{}
	for _, n := range names {
		if d, ok := f.tables[n]; ok {
			out[n] = d
		}
	}
	return out
}

func (f fakeSource) Seen(table string) []string { return f.seen[table] }

func appDef() *planner.TableDef {
	s := func(n string) *planner.KeyAttr { return &planner.KeyAttr{Name: n, Type: value.String} }
	return &planner.TableDef{Name: "app", PK: *s("PK"), SK: s("SK"), Indexes: []planner.IndexDef{
		{Name: "ByCreated", PK: *s("PK"), SK: s("createdAt"), Projection: planner.Projection{Type: "KEYS_ONLY"}},
		{Name: "ByOwner", Global: true, PK: *s("owner"), SK: s("updatedAt"), Projection: planner.Projection{Type: "INCLUDE", NonKey: []string{"title"}}},
		{Name: "GSI1", Global: true, PK: *s("GSI1PK"), SK: s("GSI1SK"), Projection: planner.Projection{Type: "ALL"}},
	}}
}

func newTestCompleter() *completer {
	lb := &planner.TableDef{Name: "leaderboard", PK: planner.KeyAttr{Name: "partitionId", Type: value.String},
		SK: &planner.KeyAttr{Name: "rangeId", Type: value.String}}
	src := fakeSource{
		tables: map[string]*planner.TableDef{"app": appDef(), "leaderboard": lb},
		seen:   map[string][]string{"app": {"GSI1#hint", "createdAt", "from", "my-attr", "name", "status", "title"}},
	}
	return &completer{src: src, functions: []string{"begins_with", "count", "size", "substr"}}
}

func texts(s []suggestion) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.Text
	}
	return out
}

func TestCompleteTables(t *testing.T) {
	c := newTestCompleter()
	got := c.complete("SELECT * FROM ", "SELECT * FROM ")
	if want := []string{"app", "leaderboard", "`my-table.v2`", "`select`"}; !reflect.DeepEqual(texts(got), want) {
		t.Fatalf("tables: %q, want %q", texts(got), want)
	}
	if got[0].Desc != "PK (S) / SK (S) · 2 GSIs · 1 LSI" || got[1].Desc != "partitionId (S) / rangeId (S)" || got[2].Desc != "table" {
		t.Errorf("descriptions: %+v", got)
	}
	for _, before := range []string{"SELECT * FROM `my", "SELECT * FROM my", "select * from app a join `MY"} {
		if got := texts(c.complete(before, before)); !reflect.DeepEqual(got, []string{"`my-table.v2`"}) {
			t.Errorf("%q: %q", before, got)
		}
	}
	for _, before := range []string{"DESCRIBE a", "SHOW INDEXES FROM a", "SELECT * FROM leaderboard, a", "EXPLAIN a"} {
		if got := texts(c.complete(before, before)); len(got) == 0 || got[0] != "app" {
			t.Errorf("%q: %q", before, got)
		}
	}
}

func TestCompleteAttributesRanked(t *testing.T) {
	c := newTestCompleter()
	before := "SELECT * FROM app WHERE "
	got := c.complete(before, before)
	want := []string{"PK", "SK", "createdAt", "owner", "updatedAt", "GSI1PK", "GSI1SK", "title",
		"`GSI1#hint`", "`from`", "`my-attr`", "name", "status"}
	if !reflect.DeepEqual(texts(got), want) {
		t.Fatalf("attributes:\n got %q\nwant %q", texts(got), want)
	}
	if got[0].Desc != "partition key (S)" || got[1].Desc != "sort key (S)" || got[3].Desc != "ByOwner partition key (S)" || got[7].Desc != "projected in ByOwner" {
		t.Errorf("descriptions: %+v", got[:8])
	}
	// FROM after the cursor counts too; earlier lines are part of the statement.
	if got := texts(c.complete("SELECT ", "SELECT  FROM app")); len(got) == 0 || got[0] != "PK" {
		t.Errorf("select list before FROM: %q", got)
	}
	// A prefix narrows attributes, then functions, then keywords.
	if got := texts(c.complete("SELECT * FROM app WHERE s", "SELECT * FROM app WHERE s")); !reflect.DeepEqual(got,
		[]string{"SK", "status", "size", "substr", "select", "show"}) {
		t.Errorf("prefix s: %q", got)
	}
	// Qualified by an alias.
	if got := texts(c.complete("SELECT a.o", "SELECT a.o FROM app AS a")); !reflect.DeepEqual(got, []string{"a.owner"}) {
		t.Errorf("alias: %q", got)
	}
	// Not after a complete name, nor inside a string.
	for _, before := range []string{"SELECT * FROM app ", "SELECT * FROM app WHERE PK = 'WS", "SELECT * FROM app -- PK"} {
		if got := c.complete(before, before); len(got) != 0 {
			t.Errorf("%q: %q", before, texts(got))
		}
	}
}

func TestCompleteIndexes(t *testing.T) {
	c := newTestCompleter()
	for _, before := range []string{"SELECT * FROM app USE INDEX (", "SELECT * FROM app a FORCE INDEX (GSI1, ", "select * from app use key ("} {
		got := c.complete(before, before)
		if want := []string{"ByCreated", "ByOwner", "GSI1"}; !reflect.DeepEqual(texts(got), want) {
			t.Errorf("%q: %q", before, texts(got))
			continue
		}
		if got[2].Desc != "GSI · GSI1PK (S) / GSI1SK (S) · ALL" || got[0].Desc != "LSI · PK (S) / createdAt (S) · KEYS_ONLY" {
			t.Errorf("descriptions: %+v", got)
		}
	}
	if got := texts(c.complete("SELECT * FROM app USE INDEX (G", "")); !reflect.DeepEqual(got, []string{"GSI1"}) {
		t.Errorf("prefix: %q", got)
	}
	if got := texts(c.complete("SELECT * FROM `app`.`B", "")); !reflect.DeepEqual(got, []string{"`app`.ByCreated", "`app`.ByOwner"}) {
		t.Errorf("table.index: %q", got)
	}
}

func TestCompleteKeywordCase(t *testing.T) {
	c := newTestCompleter()
	if got := texts(c.complete("sel", "sel")); !reflect.DeepEqual(got, []string{"select"}) {
		t.Errorf("lower: %q", got)
	}
	if got := texts(c.complete("SEL", "SEL")); !reflect.DeepEqual(got, []string{"SELECT"}) {
		t.Errorf("upper: %q", got)
	}
	if got := texts(c.complete("SELECT COU", "SELECT COU")); !reflect.DeepEqual(got, []string{"COUNT"}) {
		t.Errorf("function: %q", got)
	}
	if got := c.complete("", ""); len(got) != 0 {
		t.Errorf("empty line: %q", texts(got))
	}
}

func TestCompleteMeta(t *testing.T) {
	c := newTestCompleter()
	cases := map[string][]string{
		`\`:                {`\dt`, `\d`, `\di`, `\format`, `\x`, `\timing`, `\stats`, `\set`, `\pager`, `\refresh`, `\i`, `\ir`, `\o`, `\e`, `\help`, `\q`},
		`\f`:               {`\format`},
		`\format `:         {"table", "csv", "tsv", "json", "ndjson", "markdown", "parquet", "arrow"},
		`\format n`:        {"ndjson"},
		`\x `:              {"on", "off"},
		`\stats t`:         {"text"},
		`\set a`:           {"allow_scan"},
		`\set consistent `: {"on", "off"},
		`\d l`:             {"leaderboard"},
		`\di ap`:           {"app"},
		`\format csv `:     nil,
	}
	for in, want := range cases {
		if got := texts(c.completeMeta(in)); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestTableRefs(t *testing.T) {
	cases := map[string][]tableRef{
		"SELECT * FROM app":                                {{Table: "app"}},
		"SELECT * FROM `a-b`.`GSI1` x WHERE k = 1":         {{Table: "a-b", Index: "GSI1", Alias: "x"}},
		"SELECT * FROM app AS a JOIN users u ON a.k = u.k": {{Table: "app", Alias: "a"}, {Table: "users", Alias: "u"}},
		"SELECT * FROM a, b WHERE x = 1":                   {{Table: "a"}, {Table: "b"}},
		"SELECT * FROM app USE INDEX (GSI1) WHERE x = 1":   {{Table: "app"}},
		"SELECT * FROM app LIMIT 1":                        {{Table: "app"}},
		"SHOW INDEXES FROM app":                            {{Table: "app"}},
		"SELECT 1":                                         nil,
	}
	for in, want := range cases {
		if got := tableRefs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %+v, want %+v", in, got, want)
		}
	}
}

func TestQuoting(t *testing.T) {
	attrs := map[string]string{
		"status": "status", "name": "name", "size": "size", "count": "count", "data": "data",
		"PK": "PK", "GSI1#PK": "`GSI1#PK`", "my-attr": "`my-attr`", "x.y": "`x.y`",
		"from": "`from`", "select": "`select`", "a`b": "`a``b`", "1st": "`1st`",
	}
	for in, want := range attrs {
		if got := quoteAttr(in); got != want {
			t.Errorf("quoteAttr(%q) = %q, want %q", in, got, want)
		}
	}
	tables := map[string]string{"app": "app", "my-table.v2": "`my-table.v2`", "select": "`select`", "users": "users"}
	for in, want := range tables {
		if got := quoteTable(in); got != want {
			t.Errorf("quoteTable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLexer(t *testing.T) {
	toks := significant(lexSQL("SELECT `a``b`, 'x''y' FROM t -- c\nWHERE n >= 1.5 /* k */"))
	var got []string
	for _, tk := range toks {
		got = append(got, tk.text)
	}
	want := []string{"SELECT", "`a``b`", ",", "'x''y'", "FROM", "t", "WHERE", "n", ">=", "1.5"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens %q, want %q", got, want)
	}
	if toks[1].name() != "a`b" {
		t.Errorf("name %q", toks[1].name())
	}
	open := lexSQL("SELECT 'abc")
	if last := open[len(open)-1]; !last.open || last.kind != tString {
		t.Errorf("open string: %+v", last)
	}
	if !strings.HasPrefix(lexSQL("/* x")[0].text, "/*") || !lexSQL("/* x")[0].open {
		t.Error("open block comment")
	}
	if !endsOpen("SELECT 'a") || !endsOpen("SELECT `a") || endsOpen("SELECT 'a'") || endsOpen("") {
		t.Error("endsOpen")
	}
}

// A name being typed in double quotes completes to double-quoted names,
// wherever backticked names complete.
func TestCompleteDoubleQuoted(t *testing.T) {
	c := newTestCompleter()
	cases := []struct {
		before, whole string
		want          []string
	}{
		{`SELECT * FROM "my`, "", []string{`"my-table.v2"`}},
		{`SELECT * FROM "a`, "", []string{`"app"`}},
		{`SELECT * FROM "SEL`, "", []string{`"select"`}},
		{`DESCRIBE "l`, "", []string{`"leaderboard"`}},
		{`SELECT * FROM "app"."G`, "", []string{`"app"."GSI1"`}},
		{`SELECT * FROM app USE INDEX ("By`, "", []string{`"ByCreated"`, `"ByOwner"`}},
		{`SELECT * FROM app WHERE "st`, "", []string{`"status"`}},
		{`SELECT * FROM app WHERE "s`, "", []string{`"SK"`, `"status"`}},
		{`SELECT * FROM app WHERE "my`, "", []string{`"my-attr"`}},
		{`SELECT * FROM app WHERE "GSI1#`, "", []string{`"GSI1#hint"`}},
		{`SELECT * FROM app AS "a" WHERE "a"."o`, "", []string{`"a"."owner"`}},
		{`SELECT * FROM "app" WHERE "o`, "", []string{`"owner"`}},
	}
	for _, tc := range cases {
		whole := tc.whole
		if whole == "" {
			whole = tc.before
		}
		if got := texts(c.complete(tc.before, whole)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.before, got, tc.want)
		}
	}
	// Inside a string there is nothing to complete, in either style of quote.
	for _, before := range []string{`SELECT * FROM app WHERE PK = 'WS`, `SELECT * FROM app WHERE "x" = 'a"b`} {
		if got := c.complete(before, before); len(got) != 0 {
			t.Errorf("%q: %q", before, texts(got))
		}
	}
	if got := doubleQuoted(`a"b`); got != `"a""b"` {
		t.Errorf("doubleQuoted = %s", got)
	}
}

func TestLexerDoubleQuotes(t *testing.T) {
	toks := significant(lexSQL(`SELECT "a""b", "c\" FROM "t" WHERE x = 'y"z'`))
	var got []string
	for _, tk := range toks {
		got = append(got, tk.text)
	}
	want := []string{"SELECT", `"a""b"`, ",", `"c\"`, "FROM", `"t"`, "WHERE", "x", "=", `'y"z'`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tokens %q, want %q", got, want)
	}
	if toks[1].kind != tQuoted || toks[1].name() != `a"b` || toks[3].name() != `c\` || toks[9].kind != tString {
		t.Errorf("kinds and names: %+v", toks)
	}
	if !endsOpen(`SELECT "a`) || endsOpen(`SELECT "a"`) {
		t.Error("endsOpen with double quotes")
	}
	refs := tableRefs(`SELECT * FROM "a-b"."GSI1" "x" JOIN "c""d" AS "e" ON x.k = e.k`)
	if want := []tableRef{{Table: "a-b", Index: "GSI1", Alias: "x"}, {Table: `c"d`, Alias: "e"}}; !reflect.DeepEqual(refs, want) {
		t.Errorf("tableRefs %+v, want %+v", refs, want)
	}
}
