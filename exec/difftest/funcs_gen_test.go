package difftest

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestFuncsDifferential compares the date/time and string helper functions
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

// funcRow is one item: ts an ISO-8601 string without a fraction (date-only,
// with T or a space, with Z, an offset or nothing; sometimes not a time),
// tf one with a fraction, ts2 a second time for date_diff, n epoch
// seconds, s a string with blanks and separators, a, b small integers, c,
// d short strings. nil is a missing attribute, and for a, s now and then a
// DynamoDB NULL (SQL NULL in SQLite too).
type funcRow struct {
	id                   int
	ts, tf, ts2, s, c, d any
	n, a, b              any
	nullS, nullA         bool
}

var funcColumns = []string{"pk", "id", "ts", "tf", "ts2", "n", "s", "a", "b", "c", "d"}

func randTime(r *rand.Rand, fraction bool) string {
	y, mo, d := 1950+r.IntN(91), 1+r.IntN(12), 1+r.IntN(31)
	if days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[mo-1]; d > days {
		if mo == 2 && d == 29 && y%4 == 0 {
			d = 29
		} else {
			d = days
		}
	}
	date := fmt.Sprintf("%04d-%02d-%02d", y, mo, d)
	if !fraction && r.IntN(5) == 0 {
		return date
	}
	sep := pick3(r, "T", "T", " ")
	clock := fmt.Sprintf("%02d:%02d", r.IntN(24), r.IntN(60))
	if fraction {
		digits := 1 + r.IntN(6)
		clock += fmt.Sprintf(":%02d.%0*d", r.IntN(60), digits, r.IntN(pow10(digits)))
	} else if r.IntN(6) > 0 {
		clock += fmt.Sprintf(":%02d", r.IntN(60))
	}
	zone := pick3(r, "Z", "", pick3(r, "+05:30", "-08:00", "+01:00"))
	return date + sep + clock + zone
}

func pow10(n int) int {
	p := 1
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

func pick3(r *rand.Rand, a, b, c string) string { return [...]string{a, b, c}[r.IntN(3)] }

func genFuncRows(seed uint64) []funcRow {
	r := rand.New(rand.NewPCG(seed, 15))
	texts := []string{"a,b,,c", "  padded  ", " x", "y ", "", "no-sep", "a-b-c-d", "日本,語", "tab\there", "xxaxx", "Mixed Case"}
	shorts := []string{"a", "b", "ab", "B", "", "zz", "Ä"}
	rows := make([]funcRow, funcRows)
	for i := range rows {
		rw := funcRow{id: i + 1}
		maybe := func(v any) any {
			if r.IntN(10) == 0 {
				return nil
			}
			return v
		}
		ts := randTime(r, false)
		switch r.IntN(12) {
		case 0:
			ts = pick3(r, "not a date", "n/a", "2026-04-26T25:00:00Z") // SQLite reads Feb 30 as Mar 2: not generated
		case 1:
			ts = "2024-02-29T23:59:59Z"
		}
		rw.ts = maybe(ts)
		rw.tf = maybe(randTime(r, true))
		rw.ts2 = maybe(randTime(r, false))
		rw.n = maybe(int64(r.IntN(6_000_000_000)) - 2_000_000_000)
		rw.s = maybe(texts[r.IntN(len(texts))])
		rw.nullS = rw.s == nil && r.IntN(2) == 0
		rw.a = maybe(int64(r.IntN(11) - 5))
		rw.nullA = rw.a == nil && r.IntN(2) == 0
		rw.b = maybe(int64(r.IntN(11) - 5))
		rw.c = maybe(shorts[r.IntN(len(shorts))])
		rw.d = maybe(shorts[r.IntN(len(shorts))])
		rows[i] = rw
	}
	return rows
}

func (rw funcRow) values() []any {
	return []any{"F", int64(rw.id), rw.ts, rw.tf, rw.ts2, rw.n, rw.s, rw.a, rw.b, rw.c, rw.d}
}

func (rw funcRow) item() value.Value {
	m := map[string]value.Value{}
	for k, v := range rw.values() {
		switch x := v.(type) {
		case string:
			m[funcColumns[k]] = value.Str(x)
		case int64:
			m[funcColumns[k]] = value.NumTrusted(strconv.FormatInt(x, 10))
		}
	}
	if rw.nullS {
		m["s"] = value.NullValue()
	}
	if rw.nullA {
		m["a"] = value.NullValue()
	}
	return value.MapOf(m)
}

func loadFuncTables(t *testing.T, rows []funcRow) (string, *sql.DB, backend) {
	t.Helper()
	be := newBackend(t)
	items := make([]value.Value, len(rows))
	for i, rw := range rows {
		items[i] = rw.item()
	}
	tbl := &fixtures.Table{Name: funcTable, Create: &dynamodb.CreateTableInput{
		TableName:   aws.String(funcTable),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("id"), KeyType: types.KeyTypeRange},
		},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeN},
		},
	}, Items: items}
	if err := fixtures.Load(context.Background(), be.client, be.prefix, tbl); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec("CREATE TABLE " + funcTable + " (" + strings.Join(funcColumns, ", ") + ")"); err != nil {
		t.Fatal(err)
	}
	ins := "INSERT INTO " + funcTable + " VALUES (?" + strings.Repeat(", ?", len(funcColumns)-1) + ")"
	for _, rw := range rows {
		if _, err := db.Exec(ins, rw.values()...); err != nil {
			t.Fatal(err)
		}
	}
	return tbl.Named(be.prefix), db, be
}

// fexpr is one generated expression in both dialects.
type fexpr struct {
	ddb, lite, label string
}

type funcGen struct{ r *rand.Rand }

func (g *funcGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// unitSpec is a unit and how SQLite truncates to it and adds it.
type unitSpec struct {
	name      string
	trunc     string // strftime format of the truncated datetime
	part      string // strftime field
	seconds   int    // for date_diff; 0 for calendar units
	modifier  string // SQLite's modifier word for date_add
	perUnit   int    // multiplier of the modifier (weeks are 7 days)
	dateShape bool   // a day or more: a bare date stays a bare date
}

var funcUnits = []unitSpec{
	{"second", "%Y-%m-%dT%H:%M:%SZ", "%S", 1, "seconds", 1, false},
	{"minute", "%Y-%m-%dT%H:%M:00Z", "%M", 60, "minutes", 1, false},
	{"hour", "%Y-%m-%dT%H:00:00Z", "%H", 3600, "hours", 1, false},
	{"day", "%Y-%m-%dT00:00:00Z", "%d", 86400, "days", 1, true},
	{"week", "%Y-%m-%dT00:00:00Z", "%V", 7 * 86400, "days", 7, true},
	{"month", "%Y-%m-01T00:00:00Z", "%m", 0, "months", 1, true},
	{"quarter", "", "", 0, "months", 3, true},
	{"year", "%Y-01-01T00:00:00Z", "%Y", 0, "years", 1, true},
}

// unitText writes a unit as ddbsql accepts it: a string or a bare word,
// any case, singular or plural.
func (g *funcGen) unitText(u unitSpec) string {
	name := u.name
	if g.r.IntN(3) == 0 {
		name += "s"
	}
	switch g.r.IntN(3) {
	case 0:
		name = strings.ToUpper(name)
	case 1:
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	if g.r.IntN(2) == 0 {
		return name
	}
	return "'" + name + "'"
}

// timeCol picks a time column: its SQL text and SQLite's time value
// (numbers need the 'unixepoch' modifier).
func (g *funcGen) timeCol(fraction bool) (ddb, lite string, number bool) {
	switch g.r.IntN(5) {
	case 0:
		return "n", "n, 'unixepoch'", true
	case 1:
		if fraction {
			return "tf", "tf", false
		}
	}
	return "ts", "ts", false
}

// shaped renders a SQLite datetime of format f for value v, a bare date
// when v is one and the unit keeps dates.
func shaped(f, v string, number, keepsDate bool, mods string) string {
	dt := "strftime('" + f + "', " + v + mods + ")"
	if number || !keepsDate {
		return dt
	}
	date := "strftime('" + f[:strings.IndexByte(f, 'T')] + "', " + v + mods + ")"
	return "CASE WHEN length(" + v + ") = 10 THEN " + date + " ELSE " + dt + " END"
}

func (g *funcGen) dateTrunc() fexpr {
	u := funcUnits[g.r.IntN(len(funcUnits))]
	c, v, number := g.timeCol(true)
	ddb := "date_trunc(" + g.unitText(u) + ", " + c + ")"
	if u.name == "quarter" {
		q := "printf('%s-%02d-01', strftime('%Y', " + v + "), (CAST(strftime('%m', " + v + ") AS INTEGER) - 1) / 3 * 3 + 1)"
		full := q + " || 'T00:00:00Z'"
		if !number {
			full = "CASE WHEN length(" + v + ") = 10 THEN " + q + " ELSE " + full + " END"
		}
		return fexpr{ddb, "CASE WHEN strftime('%Y', " + v + ") IS NULL THEN NULL ELSE " + full + " END", "date_trunc"}
	}
	mods := ""
	if u.name == "week" {
		mods = ", 'weekday 0', '-6 days'"
	}
	return fexpr{ddb, shaped(u.trunc, v, number, u.dateShape, mods), "date_trunc"}
}

func (g *funcGen) datePart() fexpr {
	u := funcUnits[g.r.IntN(len(funcUnits))]
	c, v, _ := g.timeCol(true)
	ddb := "date_part(" + g.unitText(u) + ", " + c + ")"
	if u.name == "quarter" {
		return fexpr{ddb, "(CAST(strftime('%m', " + v + ") AS INTEGER) + 2) / 3", "date_part"}
	}
	return fexpr{ddb, "CAST(strftime('" + u.part + "', " + v + ") AS INTEGER)", "date_part"}
}

func (g *funcGen) dateAdd() fexpr {
	u := funcUnits[g.r.IntN(len(funcUnits))]
	c, v, number := g.timeCol(false)
	k := g.r.IntN(81) - 40
	mods := fmt.Sprintf(", '%+d %s'", k*u.perUnit, u.modifier)
	if u.modifier == "months" || u.modifier == "years" {
		mods += ", 'floor'" // month ends clamp, as in date_add
	}
	ddb := "date_add(" + g.unitText(u) + ", " + strconv.Itoa(k) + ", " + c + ")"
	return fexpr{ddb, shaped("%Y-%m-%dT%H:%M:%SZ", v, number, u.dateShape, mods), "date_add"}
}

func (g *funcGen) dateDiff() fexpr {
	u := funcUnits[g.r.IntN(5)] // the fixed-length units: second … week
	a, b := "ts", "ts2"
	if g.r.IntN(2) == 0 {
		a, b = b, a
	}
	ddb := "date_diff(" + g.unitText(u) + ", " + a + ", " + b + ")"
	return fexpr{ddb, fmt.Sprintf("(unixepoch(%s) - unixepoch(%s)) / %d", b, a, u.seconds), "date_diff"}
}

func (g *funcGen) epoch() fexpr {
	if g.r.IntN(2) == 0 {
		return fexpr{"from_unixtime(n)", "strftime('%Y-%m-%dT%H:%M:%SZ', n, 'unixepoch')", "from_unixtime"}
	}
	return g.pickOf(
		fexpr{"to_unixtime(ts)", "unixepoch(ts)", "to_unixtime"},
		fexpr{"to_unixtime(ts2)", "unixepoch(ts2)", "to_unixtime"},
		fexpr{"to_unixtime(n)", "n", "to_unixtime"},
		fexpr{"to_unixtime(from_unixtime(n))", "n", "to_unixtime"},
	)
}

func (g *funcGen) pickOf(xs ...fexpr) fexpr { return xs[g.r.IntN(len(xs))] }

// dateFormat builds a format of specifiers both engines share (MySQL's on
// the left, strftime's on the right) and literal text.
func (g *funcGen) dateFormat() fexpr {
	pieces := [][2]string{{"%Y", "%Y"}, {"%m", "%m"}, {"%d", "%d"}, {"%H", "%H"}, {"%i", "%M"}, {"%s", "%S"},
		{"%S", "%S"}, {"%j", "%j"}, {"%T", "%H:%M:%S"}, {"%v", "%V"}, {"%x", "%G"}, {"%U", "%U"},
		{"%w", "%w"}, {"%%", "%%"}, {"-", "-"}, {" ", " "}, {":", ":"}, {"/", "/"}, {"T", "T"}, {"at ", "at "}}
	var my, lite strings.Builder
	for n := 1 + g.r.IntN(6); n > 0; n-- {
		p := pieces[g.r.IntN(len(pieces))]
		my.WriteString(p[0])
		lite.WriteString(p[1])
	}
	c, v, _ := g.timeCol(true)
	return fexpr{"date_format(" + c + ", '" + my.String() + "')", "strftime('" + lite.String() + "', " + v + ")", "date_format"}
}

func (g *funcGen) strLit(xs ...string) string { return "'" + g.pick(xs...) + "'" }

func (g *funcGen) stringFunc() fexpr {
	switch g.r.IntN(6) {
	case 0:
		from, to := g.strLit(",", "-", "x", "", "a", " ", "日本"), g.strLit("", "+", "::", "yy")
		return fexpr{"replace(s, " + from + ", " + to + ")", "replace(s, " + from + ", " + to + ")", "replace"}
	case 1:
		f := g.pick("trim", "ltrim", "rtrim")
		if g.r.IntN(2) == 0 {
			cs := g.strLit("x", "xa", " x", "", "ab")
			return fexpr{f + "(s, " + cs + ")", f + "(s, " + cs + ")", f}
		}
		return fexpr{f + "(s)", f + "(s)", f}
	case 2:
		p, n := strconv.Itoa(1+g.r.IntN(6)), strconv.Itoa(1+g.r.IntN(4))
		return fexpr{"substr(s, " + p + ", " + n + ")", "substr(s, " + p + ", " + n + ")", "substr"}
	case 3:
		if g.r.IntN(2) == 0 {
			x := strconv.Itoa(g.r.IntN(7) - 3)
			return fexpr{"NULLIF(a, " + x + ")", "nullif(a, " + x + ")", "nullif"}
		}
		return fexpr{"nullif(c, d)", "nullif(c, d)", "nullif"}
	}
	// GREATEST/LEAST of one type; SQLite's max/min are NULL if any argument
	// is, so each argument is coalesced with the others (NULLs ignored).
	args := []string{"a", "b"}
	if g.r.IntN(2) == 0 {
		args = []string{"c", "d"}
		if g.r.IntN(2) == 0 {
			args = append(args, g.strLit("b", "", "zz", "aa"))
		}
	} else if g.r.IntN(2) == 0 {
		args = append(args, strconv.Itoa(g.r.IntN(7)-3))
	}
	name, liteName := "GREATEST", "max"
	if g.r.IntN(2) == 0 {
		name, liteName = "least", "min"
	}
	var co []string
	for i := range args {
		rot := append(append([]string{}, args[i:]...), args[:i]...)
		co = append(co, "coalesce("+strings.Join(rot, ", ")+")")
	}
	return fexpr{name + "(" + strings.Join(args, ", ") + ")", liteName + "(" + strings.Join(co, ", ") + ")", strings.ToLower(name)}
}

func (g *funcGen) expr() fexpr {
	switch g.r.IntN(7) {
	case 0:
		return g.dateTrunc()
	case 1:
		return g.datePart()
	case 2:
		return g.dateAdd()
	case 3:
		return g.dateDiff()
	case 4:
		return g.epoch()
	case 5:
		return g.dateFormat()
	}
	return g.stringFunc()
}

// numeric reports whether e gives numbers (else strings).
func numeric(e fexpr) bool {
	for _, p := range []string{"date_part(", "date_diff(", "to_unixtime(", "NULLIF(a", "GREATEST(a", "least(a"} {
		if strings.HasPrefix(e.ddb, p) {
			return true
		}
	}
	return false
}

// funcStatement is one generated statement in both dialects and the
// functions it uses.
type funcStatement struct {
	ddb, lite string
	labels    []string
}

func (g *funcGen) statement(table string) funcStatement {
	var st funcStatement
	if g.r.IntN(5) == 0 {
		// Grouped by a function: the bucket and its count, in order.
		e := g.pickOf(g.dateTrunc(), g.datePart(), g.stringFunc())
		st.labels = []string{e.label, "group by"}
		st.ddb = "SELECT " + e.ddb + " AS k, COUNT(*) FROM `" + table + "` WHERE pk = 'F' GROUP BY k ORDER BY k"
		st.lite = "SELECT " + e.lite + " AS k, COUNT(*) FROM " + funcTable + " WHERE pk = 'F' GROUP BY k ORDER BY k"
		return st
	}
	var ddbItems, liteItems []string
	var first fexpr
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		e := g.expr()
		if first.ddb == "" {
			first = e
		}
		ddbItems = append(ddbItems, e.ddb)
		liteItems = append(liteItems, e.lite)
		st.labels = append(st.labels, e.label)
	}
	where, liteWhere := "", ""
	if g.r.IntN(3) == 0 {
		e := g.expr()
		st.labels = append(st.labels, "where")
		where, liteWhere = " AND "+e.ddb+" IS NOT NULL", " AND "+e.lite+" IS NOT NULL"
		if op := g.pick("=", "<>", "<", ">="); g.r.IntN(2) == 0 && numeric(e) == numeric(first) {
			// Only values of one type are compared: SQLite converts text
			// to a number next to a CAST, ddbsql never does.
			where, liteWhere = " AND "+e.ddb+" "+op+" "+first.ddb, " AND "+e.lite+" "+op+" "+first.lite
		}
	}
	st.ddb = "SELECT id, " + strings.Join(ddbItems, ", ") + " FROM `" + table + "` WHERE pk = 'F'" + where + " ORDER BY id"
	st.lite = "SELECT id, " + strings.Join(liteItems, ", ") + " FROM " + funcTable + " WHERE pk = 'F'" + liteWhere + " ORDER BY id"
	return st
}

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
