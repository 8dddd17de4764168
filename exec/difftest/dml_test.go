package difftest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// dmlClient is a backend the DML test writes through ddbsql.
type dmlClient interface {
	dynamo.Client
	dynamo.Writer
	dynamo.ItemWriter
}

// TestDifferentialDML applies random INSERT, UPDATE and DELETE statements
// through ddbsql (exec/session, so parsing, planning and exec/write) and
// the same statements to SQLite directly, and compares the whole table
// after each one: on dynalite and on the in-process backend.
func TestDifferentialDML(t *testing.T) {
	t.Run("dynalite", func(t *testing.T) {
		testDML(t, dynalitetest.Client(t), dynalitetest.Prefix(t)+"dml")
	})
	t.Run("memdb", func(t *testing.T) { testDML(t, memdb.New(), "dml") })
}

func testDML(t *testing.T, client dmlClient, table string) {
	ctx := context.Background()
	createDMLTable(t, client, table)
	lite, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	lite.SetMaxOpenConns(1)
	t.Cleanup(func() { lite.Close() })
	if _, err := lite.Exec(`CREATE TABLE t (pk, id, a, s, PRIMARY KEY (pk, id))`); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	cfg := session.DefaultConfig()
	cfg.Plan = planner.Options{AllowScan: true}
	sess := session.New(client, &out, &errOut, cfg)
	rng := rand.New(rand.NewPCG(17, 42))
	g := dmlGen{rng: rng, table: table}
	changed, failed := map[string]int{}, 0
	before := ""
	for i := 0; i < 200; i++ {
		stmt, liteStmt, args := g.next(i < 25)
		out.Reset()
		errOut.Reset()
		dErr := sess.RunScript(ctx, stmt)
		_, lErr := lite.Exec(liteStmt, args...)
		switch {
		case dErr != nil && lErr != nil:
			if de, ok := diag.As(dErr); !ok || de.Code != diag.CodeItemExists {
				t.Fatalf("statement %d %s: ddbsql failed with %v (SQLite: %v)", i, stmt, dErr, lErr)
			}
		case dErr != nil || lErr != nil:
			t.Fatalf("statement %d %s: ddbsql: %v, SQLite: %v", i, stmt, dErr, lErr)
		}
		got, want := dmlDynamoRows(t, client, table), dmlLiteRows(t, lite)
		if got != want {
			t.Fatalf("after statement %d %s\nddbsql's table:\n%s\nSQLite's:\n%s", i, stmt, got, want)
		}
		if dErr != nil {
			failed++
		}
		if got != before {
			changed[strings.Fields(stmt)[0]]++
		}
		before = got
	}
	// The generator must exercise every statement kind and the duplicate
	// key error, or the comparison proves little.
	t.Logf("statements that changed the table: %v; INSERTs of an existing key: %d; items at the end: %d", changed, failed, strings.Count(before, "\n")+1)
	if changed["INSERT"] < 10 || changed["UPDATE"] < 5 || changed["DELETE"] < 5 || failed == 0 {
		t.Errorf("the generated statements changed too little: %v, %d duplicate keys", changed, failed)
	}
}

func createDMLTable(t *testing.T, client dmlClient, table string) {
	ctx := context.Background()
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeN}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("id"), KeyType: types.KeyTypeRange}},
		BillingMode: types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := client.(*dynamodb.Client); ok {
		if err := dynamodb.NewTableExistsWaiter(c).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
}

// dmlGen generates statements over pk in {P, Q}, id 1..30, a a small
// integer or NULL, s a short string or NULL.
type dmlGen struct {
	rng   *rand.Rand
	table string
	// used are keys inserted before: a single-row INSERT sometimes takes
	// one again, which fails on both sides while the item is there.
	used [][2]any
}

func (g *dmlGen) pk() string { return []string{"P", "Q"}[g.rng.IntN(2)] }

func (g *dmlGen) optInt() (string, any) {
	if g.rng.IntN(5) == 0 {
		return "NULL", nil
	}
	n := g.rng.IntN(21) - 10
	return strconv.Itoa(n), int64(n)
}

func (g *dmlGen) optStr() (string, any) {
	if g.rng.IntN(5) == 0 {
		return "NULL", nil
	}
	s := []string{"x", "y", "it's", "", "ab"}[g.rng.IntN(5)]
	return "'" + strings.ReplaceAll(s, "'", "''") + "'", s
}

// where is a predicate over a and s, the same text in both dialects.
func (g *dmlGen) where() string {
	switch g.rng.IntN(6) {
	case 0:
		return fmt.Sprintf("a > %d", g.rng.IntN(11)-5)
	case 1:
		return "a IS NULL"
	case 2:
		return "s = 'x' OR a < 0"
	case 3:
		return "NOT (s IS NULL)"
	case 4:
		return fmt.Sprintf("a BETWEEN %d AND %d", g.rng.IntN(5)-5, g.rng.IntN(5))
	}
	return "s IN ('x', 'ab')"
}

// keyWhere fixes the partition and maybe an id range (a Query), or not
// (a Scan).
func (g *dmlGen) keyWhere() string {
	switch g.rng.IntN(4) {
	case 0:
		return "" // a Scan
	case 1:
		lo := g.rng.IntN(30) + 1
		return fmt.Sprintf("pk = '%s' AND id BETWEEN %d AND %d AND ", g.pk(), lo, lo+g.rng.IntN(10))
	case 2:
		return fmt.Sprintf("pk = '%s' AND id = %d AND ", g.pk(), g.rng.IntN(30)+1)
	}
	return fmt.Sprintf("pk = '%s' AND ", g.pk())
}

// next returns the statement for ddbsql, for SQLite and SQLite's arguments.
func (g *dmlGen) next(fill bool) (string, string, []any) {
	kind := []int{0, 0, 0, 1, 1, 1, 2, 2}[g.rng.IntN(8)]
	if fill {
		kind = 0
	}
	switch kind {
	case 0:
		n := 1 + g.rng.IntN(3)
		if g.rng.IntN(6) == 0 {
			n = 1 // a key that may exist: one row, so both fail whole
		}
		var rows, liteRows []string
		var args []any
		seen := map[string]bool{}
		for len(rows) < n {
			pk, id := g.pk(), g.rng.IntN(30)+1
			if n == 1 && len(g.used) > 0 && g.rng.IntN(2) == 0 {
				k := g.used[g.rng.IntN(len(g.used))]
				pk, id = k[0].(string), k[1].(int)
			}
			g.used = append(g.used, [2]any{pk, id})
			if seen[pk+strconv.Itoa(id)] {
				continue
			}
			seen[pk+strconv.Itoa(id)] = true
			at, av := g.optInt()
			st, sv := g.optStr()
			rows = append(rows, fmt.Sprintf("('%s', %d, %s, %s)", pk, id, at, st))
			liteRows = append(liteRows, "(?, ?, ?, ?)")
			args = append(args, pk, int64(id), av, sv)
		}
		// Several rows of which one exists would be written in part by
		// ddbsql (not atomic) and not at all by SQLite: insert OR IGNORE
		// is not the same either, so multi-row INSERTs use fresh ids.
		if n > 1 {
			for i := range rows {
				id := 100 + g.rng.IntN(1_000_000)
				pk := args[i*4].(string)
				at, av := g.optInt()
				rows[i] = fmt.Sprintf("('%s', %d, %s, 's%d')", pk, id, at, id)
				args[i*4+1], args[i*4+2], args[i*4+3] = int64(id), av, "s"+strconv.Itoa(id)
			}
		}
		return fmt.Sprintf("INSERT INTO `%s` (pk, id, a, s) VALUES %s", g.table, strings.Join(rows, ", ")),
			"INSERT INTO t (pk, id, a, s) VALUES " + strings.Join(liteRows, ", "), args
	case 1:
		var set string
		switch g.rng.IntN(4) {
		case 0:
			set = fmt.Sprintf("a = a + %d", g.rng.IntN(5)+1)
		case 1:
			st, _ := g.optStr()
			set = "s = " + st
		case 2:
			set = "a = NULL, s = 'y'"
		default:
			set = "a = a * 2, s = s || 'z'"
		}
		w := g.keyWhere() + "(" + g.where() + ")"
		return fmt.Sprintf("UPDATE `%s` SET %s WHERE %s", g.table, set, w), "UPDATE t SET " + set + " WHERE " + w, nil
	}
	w := g.keyWhere() + "(" + g.where() + ")"
	return fmt.Sprintf("DELETE FROM `%s` WHERE %s", g.table, w), "DELETE FROM t WHERE " + w, nil
}

// dmlDynamoRows reads the whole table (a consistent Scan) as sorted lines.
func dmlDynamoRows(t *testing.T, client dmlClient, table string) string {
	t.Helper()
	var lines []string
	var start map[string]types.AttributeValue
	for {
		out, err := client.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true), ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			lines = append(lines, dmlLine(avText(it["pk"]), avText(it["id"]), avText(it["a"]), avText(it["s"])))
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func avText(v types.AttributeValue) string {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(x.Value)
	case *types.AttributeValueMemberN:
		return x.Value
	case nil:
		return "NULL"
	}
	return fmt.Sprintf("%T", v)
}

func dmlLiteRows(t *testing.T, lite *sql.DB) string {
	t.Helper()
	rows, err := lite.Query(`SELECT pk, id, a, s FROM t`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var pk string
		var id int64
		var a sql.NullInt64
		var s sql.NullString
		if err := rows.Scan(&pk, &id, &a, &s); err != nil {
			t.Fatal(err)
		}
		at, st := "NULL", "NULL"
		if a.Valid {
			at = strconv.FormatInt(a.Int64, 10)
		}
		if s.Valid {
			st = strconv.Quote(s.String)
		}
		lines = append(lines, dmlLine(strconv.Quote(pk), strconv.FormatInt(id, 10), at, st))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func dmlLine(pk, id, a, s string) string { return pk + " " + id + " a=" + a + " s=" + s }
