package offline

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/exec/memtest"
)

// Every page of a Scan of each demo table, and some Queries, read through
// RawReader equal the SDK path's pages converted by rawpage.ItemsBatch.
func TestRawReaderMatchesSDKPath(t *testing.T) {
	db := newDB()
	if _, err := LoadDemo(ctx, db); err != nil {
		t.Fatal(err)
	}
	mem := memtest.Allocator(t)
	r := RawReader(db)
	keys := []string{"PK", "SK"}
	compare := func(t *testing.T, got *rawpage.Page, items []map[string]types.AttributeValue, count int32, lek map[string]types.AttributeValue) {
		t.Helper()
		if got.Count != count || len(got.LastEvaluatedKey) != len(lek) {
			t.Fatalf("count %d lek %v, want %d %v", got.Count, got.LastEvaluatedKey, count, lek)
		}
		if items == nil {
			if got.Batch != nil {
				t.Fatalf("a COUNT page has a batch")
			}
			return
		}
		want, err := rawpage.ItemsBatch(mem, items, keys)
		if err != nil {
			t.Fatal(err)
		}
		defer want.Release()
		defer got.Batch.Release()
		if !array.RecordEqual(got.Batch, want) {
			t.Fatalf("batches differ:\n got %v\nwant %v", got.Batch, want)
		}
	}
	for _, table := range []string{"app", "leaderboard", "users", "customers", "orders", "products", "metrics"} {
		t.Run("scan "+table, func(t *testing.T) {
			var esk map[string]types.AttributeValue
			for pages := 0; ; pages++ {
				in := func() *dynamodb.ScanInput {
					return &dynamodb.ScanInput{TableName: aws.String(table), Limit: aws.Int32(97), ExclusiveStartKey: esk}
				}
				want, err := db.Scan(ctx, in())
				if err != nil {
					t.Fatal(err)
				}
				got, err := r.Scan(ctx, in(), mem, keys)
				if err != nil {
					t.Fatal(err)
				}
				compare(t, got, want.Items, want.Count, want.LastEvaluatedKey)
				if esk = want.LastEvaluatedKey; esk == nil {
					break
				}
			}
		})
	}
	queries := map[string]func() *dynamodb.QueryInput{
		"partition": func() *dynamodb.QueryInput { return eq("app", "", "PK", S("WS#acme")) },
		"gsi":       func() *dynamodb.QueryInput { return eq("app", "GSI1", "GSI1PK", S("STATUS#REVIEW")) },
		"count": func() *dynamodb.QueryInput {
			in := eq("users", "", "PK", S("USER#u_001"))
			in.Select = types.SelectCount
			return in
		},
		"projection": func() *dynamodb.QueryInput {
			in := eq("users", "", "PK", S("USER#u_001"))
			in.ProjectionExpression = aws.String("SK, shipping.address, #t")
			in.ExpressionAttributeNames["#t"] = "total"
			return in
		},
	}
	for name, in := range queries {
		t.Run("query "+name, func(t *testing.T) {
			want, err := db.Query(ctx, in())
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Query(ctx, in(), mem, keys)
			if err != nil {
				t.Fatal(err)
			}
			compare(t, got, want.Items, want.Count, want.LastEvaluatedKey)
		})
	}
	if _, err := r.Query(ctx, eq("nope", "", "PK", S("x")), mem, keys); err == nil {
		t.Error("a Query of a missing table succeeded")
	}
}
