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

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner/value"
)

// The join dataset: four related tables (see doc.go, "Joins").
//
//	jd  driving: pk S, id N; partition 'P' (jdRowsP rows) and 'Q' (jdRowsQ).
//	    i N small, s S; ak → ja.ak, bk → jb.bk, cg → jc.cg (GSI), cid → jc.cid
//	ja  ak S (partition key only: BatchGetItem lookups); an N, at S, abk → jb.bk
//	jb  bk S, bs N (item collections: Query lookups, several matches per key);
//	    bv N, bt S, cg → jc.cg
//	jc  cid N (partition key only, numeric); GSI ByG (cg S, cn N) projecting
//	    INCLUDE [ct] (so cx needs a fetch from the table); cn N, ct S, cx N
//
// Join attributes are "mixed": usually a key of the right type, sometimes
// a dangling reference, missing, DynamoDB NULL, or a value of the wrong type
// (a number where keys are strings and the other way round), which never
// matches. Every other column is single-typed.

// jval is one generated attribute value.
type jval struct {
	kind cellKind
	num  bool // a number (else a string)
	n    int64
	s    string
}

func jnum(n int64) jval  { return jval{kind: cVal, num: true, n: n} }
func jstr(s string) jval { return jval{kind: cVal, s: s} }

func (v jval) dynamo() value.Value {
	switch {
	case v.kind == cMissing:
		return value.MissingValue()
	case v.kind == cNull:
		return value.NullValue()
	case v.num:
		return value.NumTrusted(strconv.FormatInt(v.n, 10))
	}
	return value.Str(v.s)
}

func (v jval) lite() any {
	switch {
	case v.kind != cVal:
		return nil
	case v.num:
		return v.n
	}
	return v.s
}

// jcolType is how a column is generated, compared and used in predicates.
type jcolType uint8

const (
	jInt   jcolType = iota // N, small integers
	jStr                   // S, ASCII
	jMixed                 // a join attribute: mostly S (or N), sometimes the other type
)

// jcol is one attribute of a join table.
type jcol struct {
	name string
	t    jcolType
	// key: a table key attribute (never missing, never NULL, single-typed).
	key bool
	// num: for jMixed, the type of the key it references is N.
	num bool
}

// jtable is one generated table.
type jtable struct {
	name  string // unprefixed DynamoDB name and SQLite name
	alias string
	cols  []jcol
	rows  []map[string]jval
	// unique lists the attributes that identify an item (its table key).
	unique []string
	create *dynamodb.CreateTableInput
	ddb    string // prefixed DynamoDB name, once loaded
}

func (t *jtable) col(name string) jcol {
	for _, c := range t.cols {
		if c.name == name {
			return c
		}
	}
	panic("no column " + t.name + "." + name)
}

// joinData is the generated dataset with literal pools for predicates.
type joinData struct {
	d, a, b, c *jtable
	ints       map[string][]int64  // "alias.col" → values present
	strs       map[string][]string // "alias.col" → values present
}

func (jd *joinData) tables() []*jtable { return []*jtable{jd.d, jd.a, jd.b, jd.c} }

const (
	jdRowsP, jdRowsQ = 200, 40
	jaItems          = 130 // A000..A129; the driving side refers to A000..A139 (more than 100 distinct keys)
	jbKeys           = 12  // B00..B11, 0..4 items each; references go up to B14
	jcItems          = 40  // cid 1..40; the driving side refers to 1..45
	jcGroups         = 6   // cg G0..G5; references go up to G7
)

var jdPad = strings.Repeat("p", 8<<10)

var jwords = []string{"ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen"}

// jref draws a join attribute: a key from pool (the first `live` exist),
// sometimes missing, NULL or of the wrong type.
func jref(r *rand.Rand, pool func(int) jval, n int, wrong func() jval) jval {
	switch f := r.Float64(); {
	case f < 0.07:
		return jval{kind: cMissing}
	case f < 0.12:
		return jval{kind: cNull}
	case f < 0.17:
		return wrong()
	}
	return pool(r.IntN(n))
}

func jmaybe(r *rand.Rand, v jval) jval {
	switch f := r.Float64(); {
	case f < 0.08:
		return jval{kind: cMissing}
	case f < 0.12:
		return jval{kind: cNull}
	}
	return v
}

func genJoinData(seed uint64) *joinData {
	r := rand.New(rand.NewPCG(seed, 0x701))
	aKey := func(k int) jval { return jstr(fmt.Sprintf("A%03d", k)) }
	bKey := func(k int) jval { return jstr(fmt.Sprintf("B%02d", k)) }
	cGrp := func(k int) jval { return jstr(fmt.Sprintf("G%d", k)) }
	cID := func(k int) jval { return jnum(int64(k + 1)) }
	wrongNum := func() jval { return jnum(r.Int64N(10)) }                       // a number where keys are strings
	wrongStr := func() jval { return jstr(strconv.Itoa(int(r.Int64N(9)) + 1)) } // "3" where keys are numbers
	word := func() jval { return jstr(jwords[r.IntN(len(jwords))]) }
	small := func(n int64) jval { return jnum(r.Int64N(2*n+1) - n) }

	jd := &joinData{ints: map[string][]int64{}, strs: map[string][]string{}}
	jd.d = &jtable{name: "jd", alias: "d", unique: []string{"id"}, cols: []jcol{
		{name: "pk", t: jStr, key: true}, {name: "id", t: jInt, key: true},
		{name: "i", t: jInt}, {name: "s", t: jStr},
		{name: "ak", t: jMixed}, {name: "bk", t: jMixed}, {name: "cg", t: jMixed}, {name: "cid", t: jMixed, num: true},
	}, create: &dynamodb.CreateTableInput{
		KeySchema:            jkeys("pk", "id"),
		AttributeDefinitions: jattrs("pk", "S", "id", "N"),
	}}
	for k := range jdRowsP + jdRowsQ {
		pk := "P"
		if k >= jdRowsP {
			pk = "Q"
		}
		jd.d.rows = append(jd.d.rows, map[string]jval{
			"pk": jstr(pk), "id": jnum(int64(k + 1)),
			"i": jmaybe(r, small(5)), "s": jmaybe(r, word()),
			"ak":  jref(r, aKey, jaItems+10, wrongNum),
			"bk":  jref(r, bKey, jbKeys+3, wrongNum),
			"cg":  jref(r, cGrp, jcGroups+2, wrongNum),
			"cid": jref(r, cID, jcItems+5, wrongStr),
		})
	}
	jd.a = &jtable{name: "ja", alias: "a", unique: []string{"ak"}, cols: []jcol{
		{name: "ak", t: jStr, key: true}, {name: "an", t: jInt}, {name: "at", t: jStr}, {name: "abk", t: jMixed},
	}, create: &dynamodb.CreateTableInput{
		KeySchema:            jkeys("ak", ""),
		AttributeDefinitions: jattrs("ak", "S"),
	}}
	for k := range jaItems {
		jd.a.rows = append(jd.a.rows, map[string]jval{
			"ak": aKey(k), "an": jmaybe(r, small(5)), "at": jmaybe(r, word()),
			"abk": jref(r, bKey, jbKeys+3, wrongNum),
		})
	}
	jd.b = &jtable{name: "jb", alias: "b", unique: []string{"bk", "bs"}, cols: []jcol{
		{name: "bk", t: jStr, key: true}, {name: "bs", t: jInt, key: true},
		{name: "bv", t: jInt}, {name: "bt", t: jStr}, {name: "cg", t: jMixed},
	}, create: &dynamodb.CreateTableInput{
		KeySchema:            jkeys("bk", "bs"),
		AttributeDefinitions: jattrs("bk", "S", "bs", "N"),
	}}
	for k := range jbKeys {
		n := r.IntN(5) // 0..4 items: an empty collection is a dangling reference
		for s := range n {
			jd.b.rows = append(jd.b.rows, map[string]jval{
				"bk": bKey(k), "bs": jnum(int64(s+1) * 10),
				"bv": jmaybe(r, small(5)), "bt": jmaybe(r, word()),
				"cg": jref(r, cGrp, jcGroups+2, wrongNum),
			})
		}
	}
	jd.c = &jtable{name: "jc", alias: "c", unique: []string{"cid"}, cols: []jcol{
		{name: "cid", t: jInt, key: true}, {name: "cg", t: jStr}, {name: "cn", t: jInt},
		{name: "ct", t: jStr}, {name: "cx", t: jInt},
	}, create: &dynamodb.CreateTableInput{
		KeySchema:            jkeys("cid", ""),
		AttributeDefinitions: jattrs("cid", "N", "cg", "S", "cn", "N"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("ByG"),
			KeySchema:  jkeys("cg", "cn"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"ct"}},
		}},
	}}
	for k := range jcItems {
		cg := cGrp(r.IntN(jcGroups))
		if r.IntN(8) == 0 {
			cg = jval{kind: cMissing} // not in the (sparse) index
		}
		jd.c.rows = append(jd.c.rows, map[string]jval{
			// cn is the GSI sort key: always present, so an item with cg is
			// in the index (an item without it would be missing from a GSI
			// lookup, which SQL cannot model).
			"cid": cID(k), "cg": cg, "cn": jnum(r.Int64N(20)),
			"ct": jmaybe(r, word()), "cx": jmaybe(r, small(9)),
		})
	}
	for _, t := range jd.tables() {
		for _, rw := range t.rows {
			for name, v := range rw {
				if v.kind != cVal {
					continue
				}
				k := t.alias + "." + name
				if v.num {
					jd.ints[k] = append(jd.ints[k], v.n)
				} else {
					jd.strs[k] = append(jd.strs[k], v.s)
				}
			}
		}
	}
	return jd
}

func jkeys(pk, sk string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
	if sk != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
	}
	return ks
}

func jattrs(pairs ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(pairs[i]), AttributeType: types.ScalarAttributeType(pairs[i+1])})
	}
	return out
}

// loadJoinDynamo creates the four tables on the backend under one prefix.
func loadJoinDynamo(t testing.TB, be backend, jd *joinData) {
	t.Helper()
	tbls := joinTables(jd)
	for _, jt := range jd.tables() {
		jt.ddb = be.prefix + jt.name
	}
	if err := fixtures.Load(context.Background(), be.client, be.prefix, tbls...); err != nil {
		t.Fatal(err)
	}
}

// joinTables are the four tables: definitions and items.
func joinTables(jd *joinData) []*fixtures.Table {
	var tbls []*fixtures.Table
	for _, jt := range jd.tables() {
		in := *jt.create
		in.TableName = aws.String(jt.name)
		in.BillingMode = types.BillingModePayPerRequest
		items := make([]value.Value, len(jt.rows))
		for k, rw := range jt.rows {
			m := map[string]value.Value{}
			for name, v := range rw {
				if dv := v.dynamo(); dv.Kind() != value.Missing {
					m[name] = dv
				}
			}
			if jt == jd.d {
				// 8 KB per driving item: Query and Scan pages (1 MB) end
				// every ~125 items, so the driving side arrives in several
				// batches and lookups run in several rounds.
				m["pad"] = value.Str(jdPad)
			}
			items[k] = value.MapOf(m)
		}
		tbls = append(tbls, &fixtures.Table{Name: jt.name, Create: &in, Items: items})
	}
	return tbls
}

// openJoinLite loads the same rows into an in-memory SQLite database
// (untyped columns: no affinity, values stay as bound).
func openJoinLite(t testing.TB, jd *joinData) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec("PRAGMA case_sensitive_like = ON"); err != nil {
		t.Fatal(err)
	}
	for _, jt := range jd.tables() {
		names := make([]string, len(jt.cols))
		for k, c := range jt.cols {
			names[k] = c.name
		}
		stmt := "CREATE TABLE " + jt.name + " (" + strings.Join(names, ", ") + ", PRIMARY KEY (" + strings.Join(jt.unique, ", ") + "))"
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		ins := "INSERT INTO " + jt.name + " VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", ") + ")"
		for _, rw := range jt.rows {
			args := make([]any, len(jt.cols))
			for k, c := range jt.cols {
				args[k] = rw[c.name].lite()
			}
			if _, err := db.Exec(ins, args...); err != nil {
				t.Fatal(err)
			}
		}
	}
	return db
}
