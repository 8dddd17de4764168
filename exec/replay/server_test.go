package replay

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestScanSegmentsAndQuery reads the table through a real SDK client: every
// item exactly once across segments, pages near 1 MiB of item data,
// ExclusiveStartKey honoured, Query reading one partition.
func TestScanSegmentsAndQuery(t *testing.T) {
	const n = 12_345
	s := New(Options{Items: n, PartitionSize: 1000, PageBytes: 256 << 10})
	defer s.Close()
	ctx := context.Background()
	client, err := s.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("t")}); err != nil {
		t.Fatal(err)
	}
	for _, total := range []int32{1, 2, 3} {
		seen := map[string]bool{}
		for seg := int32(0); seg < total; seg++ {
			in := &dynamodb.ScanInput{TableName: aws.String("t"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(total),
				ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
			pages := 0
			for {
				out, err := client.Scan(ctx, in)
				if err != nil {
					t.Fatal(err)
				}
				pages++
				if int(out.Count) != len(out.Items) || out.ConsumedCapacity == nil {
					t.Fatalf("count %d, items %d, capacity %v", out.Count, len(out.Items), out.ConsumedCapacity)
				}
				for _, it := range out.Items {
					k := it["sk"].(*types.AttributeValueMemberS).Value
					if seen[k] {
						t.Fatalf("%s twice", k)
					}
					seen[k] = true
					if _, ok := it["status"]; !ok {
						t.Fatalf("no status in %v", it)
					}
				}
				if out.LastEvaluatedKey == nil {
					break
				}
				in.ExclusiveStartKey = out.LastEvaluatedKey
			}
			if pages < 2 {
				t.Fatalf("segment %d/%d: %d pages", seg, total, pages)
			}
		}
		if len(seen) != n {
			t.Fatalf("%d segments: %d items, want %d", total, len(seen), n)
		}
	}
	out, err := client.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("t"), KeyConditionExpression: aws.String("#p = :p"),
		ExpressionAttributeNames:  map[string]string{"#p": "pk"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "TENANT#00003"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range out.Items {
		if it["pk"].(*types.AttributeValueMemberS).Value != "TENANT#00003" {
			t.Fatalf("query returned %v", it["pk"])
		}
	}
	if len(out.Items) == 0 {
		t.Fatal("query returned nothing")
	}
	cnt, err := client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("t"), Select: types.SelectCount})
	if err != nil || cnt.Count == 0 || len(cnt.Items) != 0 {
		t.Fatalf("count: %v %+v", err, cnt)
	}
	if _, err := client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nope")}); err == nil {
		t.Fatal("missing table accepted")
	}
}

// TestPageShape checks the realism figures: ~480 bytes of JSON per item and
// ~3,700 items per 1 MiB page.
func TestPageShape(t *testing.T) {
	s := New(Options{Items: 10_000})
	defer s.Close()
	pages := s.ScanPages(0, 1)
	var resp struct{ Items []json.RawMessage }
	if err := json.Unmarshal(pages[0], &resp); err != nil {
		t.Fatal(err)
	}
	per := len(pages[0]) / len(resp.Items)
	t.Logf("first page: %d items, %d bytes, %d bytes/item", len(resp.Items), len(pages[0]), per)
	if per < 400 || per > 560 || len(resp.Items) < 3000 || len(resp.Items) > 4500 {
		t.Fatalf("page shape off: %d items, %d bytes/item", len(resp.Items), per)
	}
}
