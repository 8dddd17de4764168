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
