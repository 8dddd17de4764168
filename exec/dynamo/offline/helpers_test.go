package offline

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

var ctx = context.Background()

func newDB() *memdb.DB { return memdb.New(memdb.ReadOnly()) }

// write creates dir/name (and its parents) with data, gzipped when the
// name ends in .gz; it returns the path.
func write(t testing.TB, dir, name string, data string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	b := []byte(data)
	if strings.HasSuffix(name, ".gz") {
		b = gz(t, b)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// mustLoad loads sources and fails the test on error.
func mustLoad(t testing.TB, db *memdb.DB, sources ...Source) []LoadedTable {
	t.Helper()
	tables, err := Load(ctx, db, sources)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return tables
}

// loadErr loads sources expecting an *diag.Error with code, and returns it.
func loadErr(t testing.TB, db *memdb.DB, code diag.Code, sources ...Source) *diag.Error {
	t.Helper()
	tables, err := Load(ctx, db, sources)
	if err == nil {
		t.Fatalf("Load succeeded (%v), want a %s error", tables, code)
	}
	var e *diag.Error
	if !errors.As(err, &e) {
		t.Fatalf("Load error %T %v, want *diag.Error", err, err)
	}
	if e.Code != code {
		t.Fatalf("Load error code %s (%v), want %s", e.Code, err, code)
	}
	if tables != nil {
		t.Fatalf("Load returned tables %v with an error", tables)
	}
	return e
}

func tableNames(t testing.TB, db *memdb.DB) []string {
	t.Helper()
	out, err := db.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	return out.TableNames
}

// query runs a Query with "#k = :v" on the partition key (and an optional
// extra condition) and returns all items, following pages.
func query(t testing.TB, db *memdb.DB, in *dynamodb.QueryInput) []map[string]types.AttributeValue {
	t.Helper()
	var items []map[string]types.AttributeValue
	for {
		out, err := db.Query(ctx, in)
		if err != nil {
			t.Fatalf("Query %s: %v", aws.ToString(in.KeyConditionExpression), err)
		}
		items = append(items, out.Items...)
		if out.LastEvaluatedKey == nil {
			return items
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// eq is a Query input for "name = value" on a table or index.
func eq(table, index, name string, v types.AttributeValue) *dynamodb.QueryInput {
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    aws.String("#k = :v"),
		ExpressionAttributeNames:  map[string]string{"#k": name},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": v},
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	return in
}

func S(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func N(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }

func sOf(item map[string]types.AttributeValue, name string) string {
	switch v := item[name].(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	}
	return ""
}

func itemCount(t testing.TB, db *memdb.DB, table string) int64 {
	t.Helper()
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToInt64(out.Table.ItemCount)
}
