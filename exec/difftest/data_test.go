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

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/value"
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

// column describes one generated column: its ddbsql path and SQLite name.
type column struct {
	ddb   string // name or document path as written in ddbsql SQL
	lite  string // column name in SQLite
	t     typ
	small bool // tInt: |v| <= 1000, safe to multiply
	ascii bool // tStr: ASCII only (LOWER/UPPER agree)
}

// columns are the generated columns (pk and id are the key).
var columns = []column{
	{ddb: "id", lite: "id", t: tInt, small: true},
	{ddb: "pk", lite: "pk", t: tStr, ascii: true},
	{ddb: "i", lite: "i", t: tInt, small: true},
	{ddb: "j", lite: "j", t: tInt, small: true},
	{ddb: "big", lite: "big", t: tInt},
	{ddb: "d", lite: "d", t: tDec},
	{ddb: "s", lite: "s", t: tStr},
	{ddb: "t", lite: "t", t: tStr, ascii: true},
	{ddb: "b", lite: "b", t: tBool},
	{ddb: "m.x", lite: "m_x", t: tInt, small: true},
	{ddb: "m.y", lite: "m_y", t: tStr},
	{ddb: "m.sub.z", lite: "m_sub_z", t: tInt, small: true},
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
	// subKind likewise for m.sub inside it.
	mKind, subKind cellKind
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
		"🎉", "emoji 🎉!", "Zürich", "zurich", "ß", "x y", "  ", "Ωmega", "ωmega", "é", "e\u0301",
	}
	asciiPool = []string{"alpha", "Alpha", "ALPHA", "beta", "Beta", "gamma", "Gamma Ray", "delta-1", "delta_2", "x", "X", "", "mIxEd", "z"}
	runePool  = []rune("aAbBzZ09 %_'\\é日🎉ßΩ-")
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
		rw.mKind = genCell(r, 0.12, 0.04, func() cell { return cell{} }).kind
		if rw.mKind == cVal {
			c["m_x"] = genCell(r, 0.1, 0.05, func() cell { return cell{n: r.Int64N(11) - 5} })
			c["m_y"] = genCell(r, 0.1, 0.05, func() cell { return cell{s: unicodePool[r.IntN(12)]} })
			rw.subKind = genCell(r, 0.2, 0.05, func() cell { return cell{} }).kind
			if rw.subKind == cVal {
				c["m_sub_z"] = genCell(r, 0.1, 0.05, func() cell { return cell{n: r.Int64N(7) - 3} })
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
	for _, name := range []string{"i", "j", "big", "d", "s", "t", "b"} {
		put(attrs, name, rw.cells[name].dynamo(colByLite(name).t))
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
	return value.MapOf(attrs)
}

// liteArgs are the row's SQLite column values, in liteColumns order.
func (rw row) liteArgs() []any {
	args := []any{rw.pk, rw.id}
	for _, name := range liteColumns[2:] {
		c := rw.cells[name]
		switch {
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

var liteColumns = []string{"pk", "id", "i", "j", "big", "d", "s", "t", "b", "m_x", "m_y", "m_sub_z"}

// tableName is the unprefixed DynamoDB table name (and the SQLite table).
const tableName = "difft"

// loadDynamo creates the table in dynalite and writes the rows; it returns
// the table's full name.
func loadDynamo(t testing.TB, ds *dataset) string {
	t.Helper()
	ctx := context.Background()
	c := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	items := make([]value.Value, len(ds.rows))
	for k, rw := range ds.rows {
		items[k] = rw.item()
	}
	tbl := &fixtures.Table{Name: tableName, Create: &dynamodb.CreateTableInput{
		TableName:   aws.String(tableName),
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
	if err := fixtures.Load(ctx, c, prefix, tbl); err != nil {
		t.Fatal(err)
	}
	return tbl.Named(prefix)
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
		"CREATE TABLE " + tableName + " (" + strings.Join(liteColumns, ", ") + ", PRIMARY KEY (pk, id))",
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
