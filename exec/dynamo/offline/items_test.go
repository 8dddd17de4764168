package offline

import (
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// Items in both forms a DynamoDB-JSON file may hold: bare, and wrapped in
// {"Item": …} as exports write them (compact and spaced).
var orderLines = lines(
	`{"PK":{"S":"USER#1"},"SK":{"S":"ORDER#2026-04-25"},"total":{"N":"12.50"},"status":{"S":"shipped"}}`,
	`{"Item":{"PK":{"S":"USER#1"},"SK":{"S":"ORDER#2026-04-30"},"total":{"N":"7"},"tags":{"SS":["b","a"]}}}`,
	``,
	`{ "Item" : {"PK":{"S":"USER#2"},"SK":{"S":"PROFILE"},"name":{"S":"Bob"},"addr":{"M":{"city":{"S":"Tokyo"}}}} }`,
	"{\"PK\":{\"S\":\"USER#1\"},\"SK\":{\"S\":\"PROFILE\"},\"name\":{\"S\":\"Alice\"},\"n\":{\"N\":1}}\r",
)

func TestLoadLines(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "orders.jsonl", orderLines)
	db := memdb.New()
	got := mustLoad(t, db, Source{Path: p, Keys: []string{"PK", "SK"}})
	want := []LoadedTable{{Name: "orders", Items: 4, From: p}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %+v, want %+v", got, want)
	}
	items := query(t, db, eq("orders", "", "PK", S("USER#1")))
	var sks []string
	for _, it := range items {
		sks = append(sks, sOf(it, "SK"))
	}
	if want := "[ORDER#2026-04-25 ORDER#2026-04-30 PROFILE]"; fmtList(sks) != want {
		t.Errorf("USER#1 sort keys %v, want %s", sks, want)
	}
	if total := sOf(items[0], "total"); total != "12.5" {
		t.Errorf("total = %q, want the canonical 12.5", total)
	}
	if !db.IsReadOnly() {
		t.Error("the DB is writable after Load; want it frozen")
	}
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"),
		Item: map[string]types.AttributeValue{"PK": S("x"), "SK": S("y")}})
	if !errors.Is(err, memdb.ErrReadOnly) {
		t.Errorf("PutItem after Load: %v, want ErrReadOnly", err)
	}
}

func TestLoadLinesGzipNamed(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "part-0001.json.gz", orderLines)
	db := newDB()
	got := mustLoad(t, db, Source{Path: p, Table: "shop", Keys: []string{"PK:S", "SK:S"}})
	if got[0].Name != "shop" || got[0].Items != 4 || itemCount(t, db, "shop") != 4 {
		t.Fatalf("loaded %+v", got)
	}
}

func TestLoadArrayInfersNumericKeys(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "metrics.json", `[
  {"device": {"N": "10"}, "ts": {"N": "2"}, "temp": {"N": "-1.5"}},
  {"device": {"N": "2"}, "ts": {"N": "10"}},
  {"device": {"N": "2"}, "ts": {"N": "9"}, "ok": {"BOOL": true}}
]`)
	db := newDB()
	mustLoad(t, db, Source{Path: p, Keys: []string{"device", "ts"}})
	items := query(t, db, eq("metrics", "", "device", N("2")))
	if len(items) != 2 || sOf(items[0], "ts") != "9" || sOf(items[1], "ts") != "10" {
		t.Fatalf("device 2: %v, want ts 9 then 10 (numeric order)", items)
	}
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("metrics")})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range out.Table.AttributeDefinitions {
		if d.AttributeType != types.ScalarAttributeTypeN {
			t.Errorf("%s is %s, want N (from the first item)", aws.ToString(d.AttributeName), d.AttributeType)
		}
	}
}

// Pretty-printed items one after another, as AWS documents show them.
func TestLoadPrettyStream(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "books.json", `{
    "Item": {
        "Id": {"N": "103"},
        "Authors": {"SS": ["Author1", "Author2"]},
        "Title": {"S": "Book 103 Title"}
    }
}
{
    "Item": {
        "Id": {"N": "104"},
        "Title": {"S": "Book 104 Title"}
    }
}
`)
	db := newDB()
	got := mustLoad(t, db, Source{Path: p, Keys: []string{"Id"}})
	if got[0].Items != 2 {
		t.Fatalf("loaded %+v, want 2 items", got)
	}
	if items := query(t, db, eq("books", "", "Id", N("104"))); len(items) != 1 || sOf(items[0], "Title") != "Book 104 Title" {
		t.Fatalf("Id 104: %v", items)
	}
}

// A key attribute named "Item" turns off unwrapping: the object is an item.
func TestKeyNamedItem(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "things.jsonl", lines(`{"Item":{"S":"x"},"v":{"N":"1"}}`))
	db := newDB()
	mustLoad(t, db, Source{Path: p, Keys: []string{"Item"}})
	if n := itemCount(t, db, "things"); n != 1 {
		t.Fatalf("%d items", n)
	}
}

func TestEmptyFileLoadsEmptyTable(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "empty.jsonl", "")
	db := newDB()
	got := mustLoad(t, db, Source{Path: p, Keys: []string{"PK", "SK:N"}})
	if got[0].Items != 0 || itemCount(t, db, "empty") != 0 {
		t.Fatalf("loaded %+v", got)
	}
}

func fmtList(ss []string) string {
	out := "["
	for i, s := range ss {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out + "]"
}
