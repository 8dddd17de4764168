package difftest

import (
	"context"
	"database/sql"
	"encoding/json"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Settings of TestUnnestDifferential, which compares UNNEST with SQLite's json_each over the
// same lists, held in SQLite as JSON text. See doc.go, "UNNEST".
const (
	envUnnestQueries     = "DDBSQL_DIFFTEST_UNNEST_QUERIES"
	envUnnestQuery       = "DDBSQL_DIFFTEST_UNNEST_QUERY"
	defaultUnnestQueries = 160
	unnestTable          = "diffunnest"
	unnestKindsTable     = "diffunnestk"
)

// unnestRow is one item: l a list of small integers (some NULL), sl a list
// of strings, ss a string set; each sometimes empty, missing, a DynamoDB
// NULL or a scalar (which UNNEST expands into nothing, so SQLite holds
// NULL, whose json_each is empty too). k is a small integer.
type unnestRow struct {
	id        int
	l, sl, ss value.Value
	k         int64
}

// unnestKind is one item of the table joined to the lists: keyed by k
// (values 0 to 3; items with k = 4 find none), with a label and a list of
// strings tl (missing for k = 3).
type unnestKind struct {
	k     int64
	label string
	tl    value.Value
}

func unnestKinds() []unnestKind {
	strs := func(ws ...string) value.Value {
		vs := make([]value.Value, len(ws))
		for i, w := range ws {
			vs[i] = value.Str(w)
		}
		return value.ListOf(vs)
	}
	return []unnestKind{
		{0, "zero", strs("a", "b")},
		{1, "one", strs("b")},
		{2, "two", strs()},
		{3, "three", value.MissingValue()},
	}
}

func genUnnestRows(seed uint64, n int) []unnestRow {
	r := rand.New(rand.NewPCG(seed, 16))
	words := []string{"a", "b", "c", "ab", "", "日本", "x y"}
	odd := func() value.Value {
		switch r.IntN(4) {
		case 0:
			return value.MissingValue()
		case 1:
			return value.NullValue()
		case 2:
			return value.Str("scalar")
		}
		return value.NumTrusted("7")
	}
	rows := make([]unnestRow, n)
	for i := range rows {
		rw := unnestRow{id: i + 1, k: int64(r.IntN(5))}
		var l, sl []value.Value
		for j := r.IntN(5); j > 0; j-- {
			if r.IntN(8) == 0 {
				l = append(l, value.NullValue())
			} else {
				l = append(l, value.NumTrusted(strconv.Itoa(r.IntN(11)-5)))
			}
		}
		for j := r.IntN(4); j > 0; j-- {
			sl = append(sl, value.Str(words[r.IntN(len(words))]))
		}
		rw.l, rw.sl = value.ListOf(l), value.ListOf(sl)
		if r.IntN(6) == 0 {
			rw.l = odd()
		}
		if r.IntN(6) == 0 {
			rw.sl = odd()
		}
		seen := map[string]bool{}
		var ss []value.Value
		for j := r.IntN(4); j > 0; j-- {
			w := words[r.IntN(len(words))]
			if w != "" && !seen[w] { // a set holds distinct, non-empty strings
				seen[w] = true
				ss = append(ss, value.Str(w))
			}
		}
		rw.ss = value.MissingValue()
		if len(ss) > 0 {
			rw.ss = value.SetOf(value.StringSet, ss)
		}
		rows[i] = rw
	}
	return rows
}

// liteJSON is v as SQLite's json_each should see it: a JSON array for a
// list or set, NULL for anything else.
func liteJSON(v value.Value) any {
	switch v.Kind() {
	case value.List, value.StringSet:
	default:
		return nil
	}
	var elems []any
	for _, e := range v.Elems() {
		switch e.Kind() {
		case value.Number:
			n, _ := e.Int64()
			elems = append(elems, n)
		case value.String:
			elems = append(elems, e.Text())
		default:
			elems = append(elems, nil)
		}
	}
	b, _ := json.Marshal(append([]any{}, elems...))
	return string(b)
}

func loadUnnestTables(t *testing.T, rows []unnestRow) (unnestTables, *sql.DB, backend) {
	t.Helper()
	be := newBackend(t)
	items := make([]value.Value, len(rows))
	for i, rw := range rows {
		m := map[string]value.Value{"pk": value.Str("U"), "id": value.NumTrusted(strconv.Itoa(rw.id)),
			"k": value.NumTrusted(strconv.FormatInt(rw.k, 10))}
		for name, v := range map[string]value.Value{"l": rw.l, "sl": rw.sl, "ss": rw.ss} {
			if v.Kind() != value.Missing {
				m[name] = v
			}
		}
		items[i] = value.MapOf(m)
	}
	tbl := &fixtures.Table{Name: unnestTable, Create: &dynamodb.CreateTableInput{
		TableName:   aws.String(unnestTable),
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
	var kindItems []value.Value
	for _, kd := range unnestKinds() {
		m := map[string]value.Value{"k": value.NumTrusted(strconv.FormatInt(kd.k, 10)), "label": value.Str(kd.label)}
		if kd.tl.Kind() != value.Missing {
			m["tl"] = kd.tl
		}
		kindItems = append(kindItems, value.MapOf(m))
	}
	kinds := &fixtures.Table{Name: unnestKindsTable, Create: &dynamodb.CreateTableInput{
		TableName:            aws.String(unnestKindsTable),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("k"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("k"), AttributeType: types.ScalarAttributeTypeN}},
	}, Items: kindItems}
	if err := fixtures.Load(context.Background(), be.client, be.prefix, tbl, kinds); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec("CREATE TABLE " + unnestTable + " (pk, id, k, l, sl, ss)"); err != nil {
		t.Fatal(err)
	}
	for _, rw := range rows {
		if _, err := db.Exec("INSERT INTO "+unnestTable+" VALUES ('U', ?, ?, ?, ?, ?)",
			rw.id, rw.k, liteJSON(rw.l), liteJSON(rw.sl), liteJSON(rw.ss)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec("CREATE TABLE " + unnestKindsTable + " (k, label, tl)"); err != nil {
		t.Fatal(err)
	}
	for _, kd := range unnestKinds() {
		if _, err := db.Exec("INSERT INTO "+unnestKindsTable+" VALUES (?, ?, ?)", kd.k, kd.label, liteJSON(kd.tl)); err != nil {
			t.Fatal(err)
		}
	}
	return unnestTables{lists: tbl.Named(be.prefix), kinds: kinds.Named(be.prefix)}, db, be
}

// unnestTables are the backend's names of the two tables.
type unnestTables struct{ lists, kinds string }

// unnestStar is how a SELECT * row is compared: its attributes picked by
// name (absent ones as NULL), in the order of the SQLite statement's
// columns; nil when the statement lists its columns.
type unnestStar []string

func (st unnestStar) pick(rows [][]any, keys [][]string) [][]any {
	out := make([][]any, len(rows))
	for i, row := range rows {
		cells := make([]any, len(st))
		for c, name := range st {
			for k, key := range keys[i] {
				if key == name {
					cells[c] = row[k]
				}
			}
		}
		out[i] = cells
	}
	return out
}

// unnestStatement generates one statement in both dialects; ordered says
// whether rows compare in order (else as multisets: set members come in
// no order SQL can name), star how a SELECT * row is compared.
func unnestStatement(r *rand.Rand, tables unnestTables) (ddb, lite string, ordered bool, labels []string, star unnestStar) {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	joined := r.IntN(3) == 0
	owner, attr := "t", pick("l", "l", "sl", "ss")
	if joined && r.IntN(2) == 0 {
		owner, attr = "c", "tl" // the joined table's list
	}
	isSet := attr == "ss"
	left := r.IntN(3) == 0
	ord := !isSet && r.IntN(2) == 0
	labels = []string{attr}
	if joined {
		labels = append(labels, "join")
	}
	alias := pick("u", "e2")
	cols := "v"
	if ord {
		cols, labels = "v, n", append(labels, "ordinality")
	}
	join := "CROSS JOIN UNNEST(" + owner + "." + attr + ")"
	if ord {
		join += " WITH ORDINALITY"
	}
	join += " AS " + alias + "(" + cols + ")"
	liteJoin := ", json_each(" + owner + "." + attr + ") AS j"
	if left {
		join = strings.Replace(join, "CROSS JOIN", "LEFT JOIN", 1) + " ON true"
		liteJoin = " LEFT JOIN json_each(" + owner + "." + attr + ") AS j ON true"
		labels = append(labels, "left")
	}
	if r.IntN(4) == 0 && !left {
		join = strings.Replace(join, "CROSS JOIN", ",", 1)
		labels = append(labels, "comma")
	}
	tablesFrom, liteTables := "`"+tables.lists+"` t", unnestTable+" t"
	if joined {
		tablesFrom += " JOIN `" + tables.kinds + "` c ON t.k = c.k"
		liteTables += " JOIN " + unnestKindsTable + " c ON t.k = c.k"
	}
	v, liteV := pick(alias+".v", "v"), "j.value"
	n, liteN := alias+".n", "(j.key + 1)"
	var where, liteWhere []string
	if r.IntN(2) == 0 {
		c := strconv.Itoa(r.IntN(5))
		where, liteWhere = append(where, "t.k <> "+c), append(liteWhere, "t.k <> "+c)
		labels = append(labels, "table filter")
	}
	if joined && r.IntN(3) == 0 {
		w := pick("'one'", "'two'", "'zero'")
		where, liteWhere = append(where, "c.label <> "+w), append(liteWhere, "c.label <> "+w)
		labels = append(labels, "joined table filter")
	}
	if r.IntN(2) == 0 {
		labels = append(labels, "element filter")
		switch {
		case r.IntN(3) == 0:
			op := pick("IS NULL", "IS NOT NULL")
			where, liteWhere = append(where, v+" "+op), append(liteWhere, liteV+" "+op)
		case attr == "l":
			c := strconv.Itoa(r.IntN(7) - 3)
			op := pick("<", ">=", "=", "<>")
			where, liteWhere = append(where, v+" "+op+" "+c), append(liteWhere, liteV+" "+op+" "+c)
		default:
			w := pick("'a'", "'b'", "''", "'日本'")
			op := pick("=", "<>", ">")
			where, liteWhere = append(where, v+" "+op+" "+w), append(liteWhere, liteV+" "+op+" "+w)
		}
	}
	if joined && attr != "l" && r.IntN(3) == 0 {
		// Reads the element and the joined table: above the flatten.
		where, liteWhere = append(where, v+" < c.label"), append(liteWhere, liteV+" < c.label")
		labels = append(labels, "cross filter")
	}
	if ord && r.IntN(3) == 0 {
		c := strconv.Itoa(1 + r.IntN(3))
		where, liteWhere = append(where, n+" <= "+c), append(liteWhere, liteN+" <= "+c)
	}
	cond := func(ws []string) string {
		if len(ws) == 0 {
			return ""
		}
		return " AND " + strings.Join(ws, " AND ")
	}
	from := " FROM " + tablesFrom + " " + join + " WHERE t.pk = 'U'" + cond(where)
	liteFrom := " FROM " + liteTables + liteJoin + " WHERE t.pk = 'U'" + cond(liteWhere)
	if r.IntN(4) == 0 {
		labels = append(labels, "group by")
		agg, liteAgg := "COUNT(*)", "COUNT(*)"
		if attr == "l" && r.IntN(2) == 0 {
			agg, liteAgg = "SUM("+v+")", "SUM("+liteV+")"
		}
		return "SELECT " + v + " AS g, " + agg + from + " GROUP BY g ORDER BY g",
			"SELECT " + liteV + " AS g, " + liteAgg + liteFrom + " GROUP BY g ORDER BY g", true, labels, nil
	}
	sel, liteSel := "t.id, "+v, "t.id, "+liteV
	if ord {
		sel, liteSel = sel+", "+n, liteSel+", "+liteN
	}
	if joined {
		sel, liteSel = sel+", c.label", liteSel+", c.label"
	}
	if r.IntN(4) == 0 {
		// SELECT *: the items' attributes and the UNNEST's columns, compared
		// by name.
		labels = append(labels, "star")
		sel, star = "*", unnestStar{"id", "v"}
		if ord {
			star = append(star, "n")
		}
		if joined {
			star = append(star, "label")
		}
	}
	order, liteOrder := " ORDER BY t.id", " ORDER BY t.id"
	if ord {
		order, liteOrder = order+", "+n, liteOrder+", j.key"
	}
	if isSet || !ord {
		order, liteOrder = "", "" // element order within an item is compared as a multiset
	}
	limit := ""
	if ordered = order != ""; ordered && r.IntN(4) == 0 {
		limit = " LIMIT " + strconv.Itoa(r.IntN(20))
		labels = append(labels, "limit")
	}
	return "SELECT " + sel + from + order + limit, "SELECT " + liteSel + liteFrom + liteOrder + limit, ordered, labels, star
}

func TestUnnestDifferential(t *testing.T) {
	seed := envInt(t, envSeed, defaultSeed)
	n := envInt(t, envUnnestQueries, defaultUnnestQueries)
	only, replay := uint64(0), os.Getenv(envUnnestQuery) != ""
	if replay {
		only = envInt(t, envUnnestQuery, 0)
	}
	tables, lite, be := loadUnnestTables(t, genUnnestRows(seed, 80))
	t.Logf("seed %d, %d statements, on %s", seed, n, be.name)
	r := newDDBOn(t, be.client)
	ctx := context.Background()
	seen := map[string]int{}
	failures := 0
	for q := range n {
		if replay && q != only {
			continue
		}
		ddb, liteSQL, ordered, labels, star := unnestStatement(rand.New(rand.NewPCG(seed, 2000+q)), tables)
		for _, l := range labels {
			seen[l]++
		}
		got, err := r.run(ctx, ddb, false)
		if err != nil {
			t.Errorf("statement %d (%s=%d): ddbsql: %v\n  %s", q, envUnnestQuery, q, err, ddb)
			failures++
			continue
		}
		if star != nil {
			got = star.pick(got, r.keys)
		}
		want, err := runLite(ctx, lite, liteSQL)
		if err != nil {
			t.Fatalf("statement %d: sqlite: %v\n  %s", q, err, liteSQL)
		}
		g, w := funcRowsText(got), funcRowsText(want)
		if !ordered {
			sort.Strings(g)
			sort.Strings(w)
		}
		if diff := firstDifference(g, w); diff != "" {
			t.Errorf("statement %d (%s=%d) differs: %s\n  ddbsql: %s\n  sqlite: %s", q, envUnnestQuery, q, diff, ddb, liteSQL)
			failures++
		}
		if failures >= 5 {
			t.Fatal("stopping after 5 failures")
		}
	}
	if replay {
		return
	}
	for _, l := range []string{"l", "sl", "ss", "ordinality", "left", "comma", "table filter", "element filter", "group by", "limit", "join", "tl", "joined table filter", "cross filter", "star"} {
		if seen[l] == 0 {
			t.Errorf("no generated statement used %s", l)
		}
	}
}
