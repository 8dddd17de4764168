package difftest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	_ "modernc.org/sqlite" // database/sql driver "sqlite"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner/value"
)

// typ is the type of a generated expression. Every column is single-typed.
type typ uint8

const (
	tBool typ = iota // DynamoDB BOOL; SQLite 0/1
	tInt             // DynamoDB N holding an integer; SQLite INTEGER
	tDec             // DynamoDB N with at most 2 decimal places; SQLite INTEGER cents
	tStr             // DynamoDB S; SQLite TEXT
)

func (t typ) String() string { return [...]string{"bool", "int", "dec", "str"}[t] }

// column describes one generated column: its DynamoDB document path and
// its SQLite name (which is also its key in row.cells).
type column struct {
	path  []string // the attribute name, then map keys (m.sub.z)
	lite  string   // column name in SQLite
	t     typ
	small bool // tInt: |v| <= 1000, safe to multiply
	ascii bool // tStr: ASCII only (LOWER/UPPER agree)
}

// plain is the path as ddbsql names an output column (m.sub.z, my-attr,
// l[0]).
func (c column) plain() string { return strings.ReplaceAll(strings.Join(c.path, "."), ".[", "[") }

// columns are the generated columns (pk and id are the key). Many
// attribute names are DynamoDB reserved words (value, count, data, size,
// name, status, date) or need quotes in SQL (my-attr, a.b — one attribute
// whose name holds a dot —, #h, x y); references are written bare or
// quoted at random (gen.colRef). status and date are the keys of the
// sparse GSI ByStatus, rank (a string) the sort key of the LSI ByRank: an item
// without them is not in the index.
var columns = []column{
	{path: []string{"id"}, lite: "id", t: tInt, small: true},
	{path: []string{"pk"}, lite: "pk", t: tStr, ascii: true},
	{path: []string{"value"}, lite: "i", t: tInt, small: true},
	{path: []string{"count"}, lite: "j", t: tInt, small: true},
	{path: []string{"data"}, lite: "big", t: tInt},
	{path: []string{"size"}, lite: "d", t: tDec},
	{path: []string{"name"}, lite: "s", t: tStr},
	{path: []string{"t"}, lite: "t", t: tStr, ascii: true},
	{path: []string{"b"}, lite: "b", t: tBool},
	{path: []string{"m", "x"}, lite: "m_x", t: tInt, small: true},
	{path: []string{"m", "y"}, lite: "m_y", t: tStr},
	{path: []string{"m", "sub", "z"}, lite: "m_sub_z", t: tInt, small: true},
	{path: []string{"my-attr"}, lite: "my_attr", t: tInt, small: true},
	{path: []string{"a.b"}, lite: "a_b", t: tStr, ascii: true},
	{path: []string{"#h"}, lite: "h", t: tInt, small: true},
	{path: []string{"x y"}, lite: "x_y", t: tStr},
	{path: []string{"status"}, lite: "status", t: tStr, ascii: true},
	{path: []string{"date"}, lite: "date", t: tInt, small: true},
	{path: []string{"rank"}, lite: "rank", t: tStr},
	{path: []string{"l", "[0]"}, lite: "l_0", t: tInt, small: true},
	{path: []string{"l", "[1]"}, lite: "l_1", t: tInt, small: true},
	{path: []string{"l", "[2]"}, lite: "l_2", t: tInt, small: true},
}

func columnsOf(t typ) []column {
	var out []column
	for _, c := range columns {
		if c.t == t {
			out = append(out, c)
		}
	}
	return out
}

// cellKind says whether a generated attribute is absent, DynamoDB NULL or a value.
type cellKind uint8

const (
	cMissing cellKind = iota
	cNull
	cVal
)

// cell is one generated value. Ints and bools use n (bool: 0/1); decimals
// use n as cents; strings use s.
type cell struct {
	kind cellKind
	n    int64
	s    string
}

func (c cell) dynamo(t typ) value.Value {
	switch c.kind {
	case cMissing:
		return value.MissingValue()
	case cNull:
		return value.NullValue()
	}
	switch t {
	case tBool:
		return value.BoolOf(c.n != 0)
	case tInt:
		return value.NumTrusted(strconv.FormatInt(c.n, 10))
	case tDec:
		return value.NumTrusted(centsText(c.n))
	}
	return value.Str(c.s)
}

// centsText renders cents as an exact decimal: 1234 → "12.34", -5 → "-0.05", 300 → "3".
func centsText(c int64) string {
	neg := c < 0
	if neg {
		c = -c
	}
	s := strconv.FormatInt(c/100, 10)
	if f := c % 100; f != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%02d", f), "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

// row is one generated item.
type row struct {
	pk    string
	id    int64
	cells map[string]cell // by column.lite, except pk and id
	// mKind is the shape of the map m: missing, DynamoDB NULL, or a map;
	// subKind likewise for m.sub inside it; lKind for the list l, of lLen
	// elements (each a number or a DynamoDB NULL).
	mKind, subKind, lKind cellKind
	lLen                  int
}

// dataset is the generated table.
type dataset struct {
	rows []row
	// literal pools: values that occur in the data, so generated predicates hit.
	ints map[string][]int64 // by column.lite
	decs []int64
	strs map[string][]string
}

// String pools. Unicode, LIKE wildcards, quotes and backslashes on purpose;
// asciiPool is case-varied ASCII for LOWER/UPPER.
var (
	unicodePool = []string{
		"", "a", "ab", "abc", "ABC", "a%b", "a_b", "100%", "50% off", "_x_", "%", "_",
		"it's", "O'Brien", "''", `back\slash`, `\`, `a\%b`, "naïve", "Ünïcödé", "日本語", "日本",
		"🎉", "emoji 🎉!", "line\nbreak", "tab\there", "cr\r\nlf", `dq"uote`, "comma,x", " lead", "trail ", "Zürich", "zurich", "ß", "x y", "  ", "Ωmega", "ωmega", "é", "e\u0301",
	}
	// rankPool holds the LSI's string sort keys (never ""), ordered byte
	// by byte: prefixes of each other, case, LIKE wildcards, non-ASCII.
	rankPool = []string{"a", "a#1", "a#10", "a#2", "a%", "a_b", "aB", "A", "b", "b-x", "é", "日本", "z", "10", "9", `x\y`}
	// statusPool holds the GSI partition keys (never "").
	statusPool = []string{"open", "closed", "review", "Open"}
	asciiPool  = []string{"alpha", "Alpha", "ALPHA", "beta", "Beta", "gamma", "Gamma Ray", "delta-1", "delta_2", "x", "X", "", "mIxEd", "z"}
	runePool   = []rune("aAbBzZ09 %_'\\é日🎉ßΩ-")
)

func randString(r *rand.Rand, ascii bool) string {
	n := r.IntN(7)
	var b strings.Builder
	for range n {
		if ascii {
			b.WriteByte("aAbBcCxyzXYZ _-"[r.IntN(15)])
		} else {
			b.WriteRune(runePool[r.IntN(len(runePool))])
		}
	}
	return b.String()
}

// genCell draws a cell: pMiss absent, pNull DynamoDB NULL, else draw().
func genCell(r *rand.Rand, pMiss, pNull float64, draw func() cell) cell {
	switch f := r.Float64(); {
	case f < pMiss:
		return cell{kind: cMissing}
	case f < pMiss+pNull:
		return cell{kind: cNull}
	}
	c := draw()
	c.kind = cVal
	return c
}

// bigValue draws an integer within ±10^15 (SQLite's int64 stays exact even
// when a few hundred are summed), often at the extremes.
func bigValue(r *rand.Rand) int64 {
	switch r.IntN(6) {
	case 0:
		return []int64{1_000_000_000_000_000, -1_000_000_000_000_000, 999_999_999_999_999, -999_999_999_999_999, 0, 1, -1}[r.IntN(7)]
	case 1:
		return r.Int64N(2_000_000_000_000_001) - 1_000_000_000_000_000
	case 2:
		return r.Int64N(2001) - 1000
	default:
		return r.Int64N(2_000_000_001) - 1_000_000_000
	}
}

// genDataset builds nP rows in partition "P" and nQ in "Q" (ids unique
// across both, so id is a total tie-break in scans too).
func genDataset(seed uint64, nP, nQ int) *dataset {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	ds := &dataset{ints: map[string][]int64{}, strs: map[string][]string{}}
	for k := range nP + nQ {
		rw := row{pk: "P", id: int64(k + 1), cells: map[string]cell{}}
		if k >= nP {
			rw.pk = "Q"
		}
		c := rw.cells
		c["i"] = genCell(r, 0.08, 0.05, func() cell { return cell{n: r.Int64N(41) - 20} })
		c["j"] = genCell(r, 0.05, 0.02, func() cell { return cell{n: r.Int64N(6)} })
		c["big"] = genCell(r, 0.1, 0.03, func() cell { return cell{n: bigValue(r)} })
		c["d"] = genCell(r, 0.1, 0.03, func() cell {
			if r.IntN(3) == 0 {
				return cell{n: (r.Int64N(21) - 10) * 100} // whole numbers
			}
			return cell{n: r.Int64N(200_001) - 100_000} // ±1000.00
		})
		c["s"] = genCell(r, 0.08, 0.04, func() cell {
			if r.IntN(4) == 0 {
				return cell{s: randString(r, false)}
			}
			return cell{s: unicodePool[r.IntN(len(unicodePool))]}
		})
		c["t"] = genCell(r, 0.08, 0.03, func() cell {
			if r.IntN(5) == 0 {
				return cell{s: randString(r, true)}
			}
			return cell{s: asciiPool[r.IntN(len(asciiPool))]}
		})
		c["b"] = genCell(r, 0.1, 0.05, func() cell { return cell{n: int64(r.IntN(2))} })
		c["my_attr"] = genCell(r, 0.1, 0.03, func() cell { return cell{n: r.Int64N(10)} })
		c["a_b"] = genCell(r, 0.1, 0.03, func() cell { return cell{s: asciiPool[r.IntN(len(asciiPool))]} })
		c["h"] = genCell(r, 0.1, 0.03, func() cell { return cell{n: r.Int64N(7) - 3} })
		c["x_y"] = genCell(r, 0.1, 0.03, func() cell { return cell{s: unicodePool[r.IntN(len(unicodePool))]} })
		// Index keys: never a DynamoDB NULL nor "" (DynamoDB rejects both
		// in an index key attribute); an item without them is not in the
		// index.
		c["status"] = genCell(r, 0.3, 0, func() cell { return cell{s: statusPool[r.IntN(len(statusPool))]} })
		c["date"] = genCell(r, 0.12, 0, func() cell { return cell{n: r.Int64N(40)} })
		if c["status"].kind == cVal && c["date"].kind != cVal {
			// ddbsql reads a GSI by its partition key alone, trusting
			// that an item with the GSI's partition key also has its sort
			// key (planner/sparsehint.go): an item with status but no
			// date would be missing from WHERE status = …, a documented
			// assumption, not tested here (see doc.go).
			c["date"] = cell{kind: cVal, n: r.Int64N(40)}
		}
		c["rank"] = genCell(r, 0.2, 0, func() cell { return cell{s: rankPool[r.IntN(len(rankPool))]} })
		rw.mKind = genCell(r, 0.12, 0.04, func() cell { return cell{} }).kind
		if rw.mKind == cVal {
			c["m_x"] = genCell(r, 0.1, 0.05, func() cell { return cell{n: r.Int64N(11) - 5} })
			c["m_y"] = genCell(r, 0.1, 0.05, func() cell { return cell{s: unicodePool[r.IntN(12)]} })
			rw.subKind = genCell(r, 0.2, 0.05, func() cell { return cell{} }).kind
			if rw.subKind == cVal {
				c["m_sub_z"] = genCell(r, 0.1, 0.05, func() cell { return cell{n: r.Int64N(7) - 3} })
			}
		}
		rw.lKind = genCell(r, 0.15, 0.05, func() cell { return cell{} }).kind
		if rw.lKind == cVal {
			rw.lLen = r.IntN(4)
			for i := range rw.lLen {
				c["l_"+strconv.Itoa(i)] = genCell(r, 0, 0.1, func() cell { return cell{n: r.Int64N(11) - 5} })
			}
		}
		ds.rows = append(ds.rows, rw)
		ds.ints["id"] = append(ds.ints["id"], rw.id)
		for name, v := range c {
			if v.kind != cVal {
				continue
			}
			switch colByLite(name).t {
			case tInt:
				ds.ints[name] = append(ds.ints[name], v.n)
			case tDec:
				ds.decs = append(ds.decs, v.n)
			case tStr:
				ds.strs[name] = append(ds.strs[name], v.s)
			}
		}
	}
	return ds
}

func colByLite(name string) column {
	for _, c := range columns {
		if c.lite == name {
			return c
		}
	}
	panic("no column " + name)
}

// item is the row as a DynamoDB item.
func (rw row) item() value.Value {
	attrs := map[string]value.Value{
		"pk": value.Str(rw.pk),
		"id": value.NumTrusted(strconv.FormatInt(rw.id, 10)),
	}
	put := func(dst map[string]value.Value, name string, v value.Value) {
		if v.Kind() != value.Missing {
			dst[name] = v
		}
	}
	for _, c := range columns {
		if len(c.path) == 1 && c.lite != "pk" && c.lite != "id" {
			put(attrs, c.path[0], rw.cells[c.lite].dynamo(c.t))
		}
	}
	switch rw.mKind {
	case cNull:
		attrs["m"] = value.NullValue()
	case cVal:
		m := map[string]value.Value{}
		put(m, "x", rw.cells["m_x"].dynamo(tInt))
		put(m, "y", rw.cells["m_y"].dynamo(tStr))
		switch rw.subKind {
		case cNull:
			m["sub"] = value.NullValue()
		case cVal:
			sub := map[string]value.Value{}
			put(sub, "z", rw.cells["m_sub_z"].dynamo(tInt))
			m["sub"] = value.MapOf(sub)
		}
		attrs["m"] = value.MapOf(m)
	}
	switch rw.lKind {
	case cNull:
		attrs["l"] = value.NullValue()
	case cVal:
		elems := make([]value.Value, rw.lLen)
		for i := range elems {
			elems[i] = rw.cells["l_"+strconv.Itoa(i)].dynamo(tInt)
		}
		attrs["l"] = value.ListOf(elems)
	}
	return value.MapOf(attrs)
}

// liteArgs are the row's SQLite column values, in liteColumns order.
func (rw row) liteArgs() []any {
	var args []any
	for _, name := range liteColumns {
		c := rw.cells[name]
		switch {
		case name == "pk":
			args = append(args, rw.pk)
		case name == "id":
			args = append(args, rw.id)
		case c.kind != cVal:
			args = append(args, nil)
		case colByLite(name).t == tStr:
			args = append(args, c.s)
		default:
			args = append(args, c.n)
		}
	}
	return args
}

// liteColumns are the SQLite columns: pk, id, then the others.
var liteColumns = func() []string {
	var out []string
	for _, c := range columns {
		out = append(out, c.lite)
	}
	return out
}()

// tableName is the unprefixed DynamoDB table name (and the SQLite table);
// gsiName and lsiName are its indexes.
const (
	tableName = "difft"
	gsiName   = "ByStatus"
	lsiName   = "ByRank"
)

// loadDynamo creates the table on the backend and writes the rows; it
// returns the table's full name.
func loadDynamo(t testing.TB, be backend, ds *dataset) string {
	t.Helper()
	tbl := difftTable(ds)
	if err := fixtures.Load(context.Background(), be.client, be.prefix, tbl); err != nil {
		t.Fatal(err)
	}
	return tbl.Named(be.prefix)
}

// difftTable is the generated table: its definition and items.
func difftTable(ds *dataset) *fixtures.Table {
	items := make([]value.Value, len(ds.rows))
	for k, rw := range ds.rows {
		items[k] = rw.item()
	}
	return &fixtures.Table{Name: tableName, Create: &dynamodb.CreateTableInput{
		TableName:   aws.String(tableName),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("id"), KeyType: types.KeyTypeRange},
		},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("status"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("date"), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String("rank"), AttributeType: types.ScalarAttributeTypeS},
		},
		// Sparse indexes: items without status and date are not in
		// ByStatus, items without rank not in ByRank. Neither projects
		// everything, so reads that need more fetch the items.
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String(gsiName),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("status"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("date"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"value", "name"}},
		}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{
			IndexName: aws.String(lsiName),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("rank"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
	}, Items: items}
}

// openLite opens a private in-memory SQLite database with the rows loaded.
// Columns have no declared type, so SQLite applies no type affinity: a
// value is stored exactly as bound (int64, TEXT or NULL).
func openLite(t testing.TB, ds *dataset) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	// One connection: every connection would otherwise get its own empty
	// in-memory database, and the PRAGMA is per connection.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	t.Cleanup(func() { db.Close() })
	stmts := []string{
		"PRAGMA case_sensitive_like = ON",
		"CREATE TABLE " + tableName + ` ("` + strings.Join(liteColumns, `", "`) + `", PRIMARY KEY (pk, id))`,
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("sqlite %s: %v", s, err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	ins, err := tx.Prepare("INSERT INTO " + tableName + " VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", len(liteColumns)), ", ") + ")")
	if err != nil {
		t.Fatal(err)
	}
	for _, rw := range ds.rows {
		if _, err := ins.Exec(rw.liteArgs()...); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return db
}
