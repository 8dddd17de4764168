package offline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
)

const (
	lineA = `{"PK":{"S":"a"},"SK":{"S":"1"}}`
	lineB = `{"PK":{"S":"a"},"SK":{"S":"2"}}`
	lineC = `{"PK":{"S":"b"},"SK":{"S":"1"}}`
)

var pkSK = []string{"PK", "SK"}

// Each bad file gives an error with its code and a message that names the
// file (and line, and column where there is one). DIR stands for the
// test's directory.
func TestBadFiles(t *testing.T) {
	for _, tc := range []struct {
		name    string
		file    string // name in the temp dir; .gz is gzipped
		content string
		keys    []string
		code    diag.Code
		msg     string
	}{
		{"invalid JSON", "bad.jsonl", lines(lineA, lineB, `{"PK":{"S":"a"},"SK":{"S":"3"}`), pkSK,
			diag.CodeBadJSON, `DIR/bad.jsonl:3:31: invalid JSON: unexpected end of JSON input`},
		{"invalid JSON mid-line", "bad.jsonl", lines(lineA, `{"PK":{"S":"a"} "SK":{"S":"3"}}`), pkSK,
			diag.CodeBadJSON, `DIR/bad.jsonl:2:17: invalid JSON: invalid character '"' after object key:value pair`},
		{"invalid JSON in an array", "bad.json", "[\n  " + lineA + ",\n  " + lineB + "\n  " + lineC + "\n]", pkSK,
			diag.CodeBadJSON, `DIR/bad.json:4:3: invalid JSON: expected comma after array element`},
		{"invalid JSON in pretty items", "bad.json", "{\n  \"PK\": {\"S\": \"a\"},\n  \"SK\": {\"S\": \"1\"}\n}\n{\n  \"PK\": {\"S\": \"b\"}\n  \"SK\": {\"S\": \"1\"}\n}\n", pkSK,
			diag.CodeBadJSON, `DIR/bad.json:7:3: invalid JSON: invalid character '"' after object key:value pair`},
		{"wrong JSON type for a DynamoDB type", "bad.jsonl", lines(`{"PK":{"S":"b"},"SK":{"S":1}}`), pkSK,
			diag.CodeBadItem, `DIR/bad.jsonl:1: attribute "SK" is {"S":1}: a S value must be a JSON string`},
		{"missing sort key", "bad.jsonl", lines(lineA, `{"PK":{"S":"a"},"sk":{"S":"2"}}`), pkSK,
			diag.CodeMissingKey, `DIR/bad.jsonl:2: item has no sort key SK (table bad has key PK, SK)`},
		{"missing partition key", "bad.jsonl", lines(`{"pk":{"S":"a"},"SK":{"S":"2"}}`), pkSK,
			diag.CodeMissingKey, `DIR/bad.jsonl:1: item has no partition key PK (table bad has key PK, SK)`},
		{"duplicate key", "bad.jsonl", lines(lineA, lineB, lineC, `{"SK":{"S":"2"},"PK":{"S":"a"},"v":{"N":"1"}}`), pkSK,
			diag.CodeDuplicateKey, `DIR/bad.jsonl:4: duplicate key PK="a", SK="2": the same key is at DIR/bad.jsonl:2`},
		{"duplicate numeric key written differently", "bad.jsonl", lines(`{"id":{"N":"1.50"}}`, `{"id":{"N":"15E-1"}}`), []string{"id"},
			diag.CodeDuplicateKey, `DIR/bad.jsonl:2: duplicate key id=1.5: the same key is at DIR/bad.jsonl:1`},
		{"key of the wrong type", "bad.jsonl", lines(lineA, `{"PK":{"S":"a"},"SK":{"N":"2"}}`), pkSK,
			diag.CodeKeyType, `DIR/bad.jsonl:2: key SK is N here, but the table's SK is S (as in the first item, at DIR/bad.jsonl:1)`},
		{"key of the declared type", "bad.jsonl", lines(lineA), []string{"PK", "SK:N"},
			diag.CodeKeyType, `DIR/bad.jsonl:1: key SK is S here, but the table's SK is N (declared by --key)`},
		{"key that is a map", "bad.jsonl", lines(`{"PK":{"M":{}},"SK":{"S":"1"}}`), pkSK,
			diag.CodeKeyType, `DIR/bad.jsonl:1: key PK is a M; key attributes must be S, N or B`},
		{"plain JSON", "bad.jsonl", lines(`{"PK":"a","SK":"1"}`), pkSK,
			diag.CodeBadItem, `DIR/bad.jsonl:1: attribute "PK" is "a", not a DynamoDB-JSON value like {"S": "text"} (is the file plain JSON rather than DynamoDB JSON?)`},
		{"unknown type", "bad.jsonl", lines(`{"PK":{"STRING":"a"},"SK":{"S":"1"}}`), pkSK,
			diag.CodeBadItem, `DIR/bad.jsonl:1: invalid item: attribute "PK": unknown attribute type "STRING"`},
		{"not an object", "bad.jsonl", lines(lineA, `[1, 2]`), pkSK,
			diag.CodeBadItem, `DIR/bad.jsonl:2: not an item: expected a JSON object of attributes in DynamoDB JSON, like {"PK": {"S": "a"}}, got [1, 2]`},
		{"bad number", "bad.jsonl", lines(`{"PK":{"S":"a"},"SK":{"S":"1"},"n":{"N":"12abc"}}`), pkSK,
			diag.CodeBadItem, `DIR/bad.jsonl:1: invalid item: attribute "n": "12abc" is not a number`},
		{"empty key rejected by DynamoDB", "bad.jsonl", lines(lineA, `{"PK":{"S":""},"SK":{"S":"1"}}`), pkSK,
			diag.CodeBadItem, `DIR/bad.jsonl:2: DynamoDB would reject this item: One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: PK`},
		{"malformed --key", "bad.jsonl", lines(lineA), []string{"PK:Q"},
			diag.CodeBadKeyFlag, `DIR/bad.jsonl: --key: key PK: type "Q" is not S, N or B`},
		{"no key schema", "bad.jsonl", lines(lineA), nil,
			diag.CodeNoKeySchema, `DIR/bad.jsonl: no key schema in bad.jsonl: a file of items does not say which attributes are the table's keys; pass --key PK[,SK]`},
		{"unknown format", "bad.csv", "PK,SK\na,1\n", pkSK,
			diag.CodeUnknownFormat, `DIR/bad.csv: unknown format: the file is not JSON (it starts with 'P'); expected a DynamoDB export folder (with manifest-summary.json), a file of DynamoDB-JSON items (one per line, or a JSON array), or a NoSQL Workbench model`},
		{"gzipped unknown format", "bad.csv.gz", "PK,SK\na,1\n", pkSK,
			diag.CodeUnknownFormat, `DIR/bad.csv.gz: unknown format: the file is not JSON (it starts with 'P'); expected a DynamoDB export folder (with manifest-summary.json), a file of DynamoDB-JSON items (one per line, or a JSON array), or a NoSQL Workbench model`},
		{"Ion export data", "bad.ion", `$ion_1_0 {Item:{PK:"a"}}`, pkSK,
			diag.CodeUnknownFormat, `DIR/bad.ion: this looks like an Amazon Ion export; ddbsql reads exports in DYNAMODB_JSON format`},
		{"trailing garbage after an array", "bad.json", "[" + lineA + "]\n]", pkSK,
			diag.CodeBadJSON, `DIR/bad.json:2:1: invalid JSON: unexpected ']' after the array`},
		{"bad table name from the file", "my orders.jsonl", lines(lineA), pkSK,
			diag.CodeBadName, `DIR/my orders.jsonl: cannot use "my orders" as a table name (3-255 of a-z A-Z 0-9 _ - .); name the table with name=PATH`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := write(t, dir, tc.file, tc.content)
			db := newDB()
			e := loadErr(t, db, tc.code, Source{Path: p, Keys: tc.keys})
			if got := strings.ReplaceAll(e.Error(), dir, "DIR"); got != tc.msg {
				t.Errorf("error\n got: %s\nwant: %s", got, tc.msg)
			}
			if names := tableNames(t, db); len(names) != 0 {
				t.Errorf("tables %v left after a failed load", names)
			}
			sameErrorStreamed(t, e, Source{Path: p, Keys: tc.keys})
		})
	}
}

func TestTruncatedGzip(t *testing.T) {
	dir := t.TempDir()
	var ls []string
	for i := range 2000 {
		ls = append(ls, `{"PK":{"S":"p`+itoa(i%50)+`"},"SK":{"N":"`+itoa(i)+`"},"pad":{"S":"some text to make the file longer"}}`)
	}
	data := gz(t, []byte(lines(ls...)))
	p := filepath.Join(dir, "bad.jsonl.gz")
	if err := os.WriteFile(p, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	e := loadErr(t, newDB(), diag.CodeTruncated, Source{Path: p, Keys: pkSK})
	sameErrorStreamed(t, e, Source{Path: p, Keys: pkSK})
	msg := strings.ReplaceAll(e.Error(), dir, "DIR")
	if !strings.HasPrefix(msg, "DIR/bad.jsonl.gz: truncated gzip data after line ") ||
		!strings.HasSuffix(msg, " (the file ends before the end of the compressed stream; was it copied completely?)") {
		t.Errorf("error %s", msg)
	}
	// A corrupt stream (its CRC changed) is reported too. (Corrupt deflate
	// data may also inflate to garbage, reported as invalid JSON first.)
	bad := append([]byte{}, data...)
	bad[len(bad)-8] ^= 0xff
	if err := os.WriteFile(p, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	e = loadErr(t, newDB(), diag.CodeTruncated, Source{Path: p, Keys: pkSK})
	if !strings.Contains(e.Error(), "corrupt gzip data") {
		t.Errorf("error %s", e)
	}
}

func TestMissingPath(t *testing.T) {
	dir := t.TempDir()
	e := loadErr(t, newDB(), diag.CodeIO, Source{Path: filepath.Join(dir, "nope.json"), Keys: pkSK})
	if got, want := strings.ReplaceAll(e.Error(), dir, "DIR"), "DIR/nope.json: cannot read: no such file or directory"; got != want {
		t.Errorf("error %s, want %s", got, want)
	}
}

func TestTableNameTaken(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a/orders.jsonl", lines(lineA))
	b := write(t, dir, "b/orders.jsonl", lines(lineB))
	e := loadErr(t, newDB(), diag.CodeTableExists, Source{Path: a, Keys: pkSK}, Source{Path: b, Keys: pkSK})
	if got, want := strings.ReplaceAll(e.Error(), dir, "DIR"), "DIR/b/orders.jsonl: table orders is also loaded from DIR/a/orders.jsonl; name one of them with name=PATH"; got != want {
		t.Errorf("error %s, want %s", got, want)
	}
	db := newDB()
	if _, err := db.Loader().CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("orders"),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}}}); err != nil {
		t.Fatal(err)
	}
	e = loadErr(t, db, diag.CodeTableExists, Source{Path: a, Keys: pkSK})
	if got, want := strings.ReplaceAll(e.Error(), dir, "DIR"), "DIR/a/orders.jsonl: table orders already exists; name this one with name=PATH"; got != want {
		t.Errorf("error %s, want %s", got, want)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
