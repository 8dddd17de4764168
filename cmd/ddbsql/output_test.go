package main

import (
	"context"
	"encoding/csv"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// How values and headers print, end to end on both backends: sets apart
// from lists, an index into a set as an error, tidy and unique column names,
// exact sums past 38 digits, numbers as DynamoDB returns them.
func TestOutput(t *testing.T) { backends(t, testOutput) }

func testOutput(t *testing.T, c *cli) {
	t.Run("a set prints in PartiQL's set syntax, a list as JSON", func(t *testing.T) {
		for _, format := range []string{"csv", "tsv", "table", "markdown"} {
			r := c.run("--format", format, "-e", "SELECT info.tags, versions FROM {app} WHERE PK = 'WS#acme' AND SK = 'DOC#0002'")
			if r.code != 0 {
				t.Fatalf("%s: exit %d: %s", format, r.code, r.err)
			}
			// The list keeps its JSON; the number set (versions: 1, 2, 4)
			// has unquoted members.
			list := `["q2","acme"]`
			if format == "csv" {
				list = `"[""q2"",""acme""]"`
			}
			if !strings.Contains(r.out, list) || !numberSet.MatchString(r.out) || strings.Contains(r.out, `[1,`) {
				t.Errorf("%s: want the list as JSON and the number set as <<1, 2, …>>:\n%s", format, r.out)
			}
		}
		r := c.run("--format", "csv", "-e", "SELECT sku, tags FROM {products} WHERE sku = 'SKU-0001'")
		recs, err := csv.NewReader(strings.NewReader(r.out)).ReadAll()
		if r.code != 0 || err != nil || len(recs) != 2 {
			t.Fatalf("exit %d, %v: %q %s", r.code, err, r.out, r.err)
		}
		cell := recs[1][1]
		if !strings.HasPrefix(cell, "<<'") || !strings.HasSuffix(cell, "'>>") || !strings.Contains(cell, "'new'") || strings.Count(cell, ", ") != 1 {
			t.Errorf("string set cell %q, want <<'…', 'new'>> in some order", cell)
		}
		rows := c.rows(t, nil, "SELECT tags FROM {products} WHERE sku = 'SKU-0001'")
		if tags, ok := rows[0]["tags"].([]any); !ok || len(tags) != 2 {
			t.Errorf("json keeps a set as an array, got %#v", rows[0]["tags"])
		}
	})

	setError := func(t *testing.T, r result, want, hint string) {
		t.Helper()
		if ee, ok := diag.Find(r.failure, diag.CodeSetIndex); r.code != 1 || !ok || ee.Phase != diag.Evaluate {
			t.Fatalf("exit %d, error %v: want exit 1 with a set_index error", r.code, r.failure)
		}
		if r.out != "" {
			t.Errorf("stdout %q, want nothing", r.out)
		}
		if !strings.Contains(r.err, "error: "+want) || !strings.Contains(r.err, "\nhint: "+hint+"\n") {
			t.Errorf("stderr:\n%s\nwant error: %s\nhint: %s", r.err, want, hint)
		}
	}
	t.Run("an index into a set is an error, in the select list and in WHERE", func(t *testing.T) {
		for _, format := range []string{"table", "ndjson"} {
			setError(t, c.run("--format", format, "-e", "SELECT sku, tags[0] FROM {products} WHERE sku = 'SKU-0001'"),
				"tags is a string set; sets are unordered, so tags[0] has no element 0",
				"test membership with contains(tags, 'x'), or read the whole set")
		}
		// DynamoDB would find no element and silently drop every item:
		// the condition must run on the client.
		setError(t, c.run("--allow-scan", "-e", "SELECT sku FROM {products} WHERE tags[1] = 'new'"),
			"tags is a string set; sets are unordered, so tags[1] has no element 1",
			"test membership with contains(tags, 'x'), or read the whole set")
		setError(t, c.run("-e", "SELECT SK FROM {app} WHERE PK = 'WS#acme' AND versions[2] > 3"),
			"versions is a number set; sets are unordered, so versions[2] has no element 2",
			"test membership with contains(versions, 1), or read the whole set")
		r := c.run("-e", "EXPLAIN SELECT SK FROM {app} WHERE PK = 'WS#acme' AND info.tags[1] = 'acme'")
		if r.code != 0 || !strings.Contains(r.out, "Filter (client): info.tags[1] = 'acme'") || strings.Contains(r.out, "FilterExpression") {
			t.Errorf("a list index must be filtered on the client:\n%s%s", r.out, r.err)
		}
	})

	t.Run("an index into a list still reads its element", func(t *testing.T) {
		rows := c.rows(t, nil, "SELECT SK, info.tags[0] FROM {app} WHERE PK = 'WS#acme' AND info.tags[1] = 'acme' AND SK < 'DOC#0004'")
		var want []string
		for _, it := range fixtures.App().Items {
			tags := it.Attr("info").Attr("tags")
			if it.Attr("PK").Text() == "WS#acme" && it.Attr("SK").Text() < "DOC#0004" && tags.Index(1).Text() == "acme" {
				want = append(want, it.Attr("SK").Text()+" "+tags.Index(0).Text())
			}
		}
		var got []string
		for _, r := range rows {
			got = append(got, r["SK"].(string)+" "+r["info.tags[0]"].(string))
		}
		if len(want) == 0 {
			t.Fatal("the fixture has no such items; the test would prove nothing")
		}
		requireEqual(t, "rows", got, want)
	})

	t.Run("headers are the items as written, tidied, and unique in every format", func(t *testing.T) {
		r := c.run("--allow-scan", "--format", "csv", "-e",
			"select count(*), min( price ), Count(distinct category), max(price)+1, sum(`stock`) from {products}")
		if first := strings.SplitN(r.out, "\n", 2)[0]; first != "COUNT(*),MIN(price),COUNT(DISTINCT category),MAX(price) + 1,SUM(stock)" {
			t.Errorf("header %q (exit %d, %s)", first, r.code, r.err)
		}
		for _, format := range []string{"table", "csv", "tsv", "json", "ndjson", "markdown"} {
			r := c.run("--format", format, "-e", "SELECT sku, sku, `sku` FROM {products} WHERE sku = 'SKU-0001'")
			if r.code != 0 || !strings.Contains(r.out, "sku_2") || !strings.Contains(r.out, "sku_3") {
				t.Errorf("%s: want columns sku, sku_2, sku_3:\n%s%s", format, r.out, r.err)
			}
		}
		r = c.run("--format", "csv", "-e", "SELECT a.name, c.name FROM {app} a JOIN {customers} c ON a.owner = c.id WHERE a.PK = 'WS#acme' LIMIT 1")
		if first := strings.SplitN(r.out, "\n", 2)[0]; r.code != 0 || first != "name,name_2" {
			t.Errorf("join header %q, want name,name_2 (exit %d, %s)", first, r.code, r.err)
		}
	})

	t.Run("SUM keeps every digit, AVG 38", func(t *testing.T) {
		name, sum, n := loadBigNumbers(t, c)
		r := c.run("--format", "csv", "-e", "SELECT SUM(x), AVG(x), COUNT(*) FROM `"+name+"` WHERE g = 'A'")
		recs, err := csv.NewReader(strings.NewReader(r.out)).ReadAll()
		if r.code != 0 || err != nil || len(recs) != 2 {
			t.Fatalf("exit %d, %v: %q %s", r.code, err, r.out, r.err)
		}
		// Every x is a multiple of 100 and there are 100 of them: the
		// average is an integer of at most 38 digits, exact.
		avg := new(big.Int).Quo(sum, big.NewInt(int64(n)))
		if got := recs[1]; got[0] != sum.String() || got[1] != avg.String() || got[2] != "100" {
			t.Errorf("SUM, AVG, COUNT = %q, want %s, %s, 100", got, sum, avg)
		}
		if len(sum.String()) <= value.MaxDigits {
			t.Errorf("the sum %s has no more than 38 digits; the test proves nothing", sum)
		}
	})

	t.Run("numbers print without 130-digit expansions", func(t *testing.T) {
		name, _, _ := loadBigNumbers(t, c)
		for _, f := range []string{"csv", "json"} {
			r := c.run("--format", f, "-e", "SELECT tiny, huge, tiny * 1, -huge, i * 1000 AS k FROM `"+name+"` WHERE g = 'B' AND i = 1")
			for _, want := range []string{"-1E-130", "1E+125", "-1E+125", "1000"} {
				if r.code != 0 || !strings.Contains(r.out, want) {
					t.Errorf("%s: got %q (exit %d, %s), want it to hold %s", f, r.out, r.code, r.err, want)
				}
			}
			if strings.Contains(r.out, "00000000000000000000000") {
				t.Errorf("%s: a number is spelt out with its padding zeros: %q", f, r.out)
			}
		}
	})
}

// numberSet matches the number set 1, 2, 4 in any order.
var numberSet = regexp.MustCompile(`<<[124], [124], [124]>>`)

// loadBigNumbers creates, once per backend, a table of 100 random 38-digit
// multiples of 100 in partition A (returning their exact sum) and one item
// in partition B with DynamoDB's smallest and largest magnitudes.
func loadBigNumbers(t *testing.T, c *cli) (name string, sum *big.Int, n int) {
	t.Helper()
	name = c.prefix + "bignums"
	r := rand.New(rand.NewPCG(38, 100))
	sum, n = new(big.Int), 100
	tbl := &fixtures.Table{Name: "bignums", Create: &dynamodb.CreateTableInput{
		TableName: aws.String("bignums"),
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("i"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("i"), AttributeType: types.ScalarAttributeTypeN}},
		BillingMode: types.BillingModePayPerRequest,
	}}
	for i := range n {
		digits := []byte{byte('1' + r.IntN(9))}
		for len(digits) < 36 {
			digits = append(digits, byte('0'+r.IntN(10)))
		}
		x := string(digits) + "00"
		xi, _ := new(big.Int).SetString(x, 10)
		sum.Add(sum, xi)
		tbl.Items = append(tbl.Items, value.MapOf(map[string]value.Value{
			"g": value.Str("A"), "i": mustNum(t, strconv.Itoa(i)), "x": mustNum(t, x)}))
	}
	tbl.Items = append(tbl.Items, value.MapOf(map[string]value.Value{
		"g": value.Str("B"), "i": mustNum(t, "1"), "tiny": mustNum(t, "-1E-130"), "huge": mustNum(t, "1E+125")}))
	if _, done := bigNumbersLoaded.LoadOrStore(name, true); !done {
		var err error
		if c.mem != nil {
			err = fixtures.Load(context.Background(), c.mem, c.prefix, tbl)
		} else {
			err = fixtures.Load(context.Background(), dynalitetest.Client(t), c.prefix, tbl)
		}
		if err != nil {
			t.Fatalf("loading %s: %v", name, err)
		}
	}
	return name, sum, n
}

// bigNumbersLoaded lists the backends (by table name) already holding the table.
var bigNumbersLoaded sync.Map

func mustNum(t *testing.T, s string) value.Value {
	t.Helper()
	v, err := value.Num(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
