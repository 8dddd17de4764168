package memdb

import (
	"fmt"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// scanAll follows a scan to the end and returns every item's pk/sk.
func scanAll(t *testing.T, db *DB, in *dynamodb.ScanInput) (keys []string, pages int) {
	t.Helper()
	for {
		out := scan(t, db, in)
		pages++
		for _, it := range out.Items {
			keys = append(keys, strs([]rec{it}, "pk")[0]+"/"+strs([]rec{it}, "sk")[0])
		}
		if out.LastEvaluatedKey == nil {
			return keys, pages
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

func scanDB(t *testing.T) *DB {
	db := newDB(t, tableDef("tbl", "pk:N", "sk:S"))
	for p := 0; p < 300; p++ {
		for i := 0; i < 3; i++ {
			put(t, db, "tbl", rec{"pk": N(fmt.Sprint(p)), "sk": S(fmt.Sprint("s", i))})
		}
	}
	return db
}

func TestScanSegmentsPartitionTheTable(t *testing.T) {
	db := scanDB(t)
	all, _ := scanAll(t, db, &dynamodb.ScanInput{TableName: aws.String("tbl")})
	if len(all) != 900 {
		t.Fatalf("full scan found %d items", len(all))
	}
	for _, total := range []int32{1, 2, 3, 8, 5000} {
		seen := map[string]int{}
		for seg := int32(0); seg < total; seg++ {
			keys, _ := scanAll(t, db, &dynamodb.ScanInput{TableName: aws.String("tbl"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(total), Limit: aws.Int32(50)})
			for _, k := range keys {
				seen[k]++
			}
		}
		if len(seen) != 900 {
			t.Errorf("TotalSegments=%d covers %d items, want 900", total, len(seen))
		}
		for k, n := range seen {
			if n != 1 {
				t.Errorf("TotalSegments=%d: %s in %d segments", total, k, n)
			}
		}
	}
	// Deterministic: the same scan gives the same order.
	again, _ := scanAll(t, db, &dynamodb.ScanInput{TableName: aws.String("tbl")})
	for i := range all {
		if all[i] != again[i] {
			t.Fatalf("scan order changed at %d", i)
		}
	}
	// Items of a partition stay together and in sort-key order.
	byPartition := map[string][]string{}
	var order []string
	for _, k := range all {
		pk := k[:len(k)-3]
		if len(byPartition[pk]) == 0 {
			order = append(order, pk)
		}
		byPartition[pk] = append(byPartition[pk], k)
	}
	if len(order) != 300 {
		t.Errorf("partitions interleaved: %d runs for 300 partitions", len(order))
	}
	for _, ks := range byPartition {
		if !sort.StringsAreSorted(ks) {
			t.Errorf("partition out of order: %v", ks)
		}
	}
}

func TestScanPagingAndLimit(t *testing.T) {
	db := scanDB(t)
	keys, pages := scanAll(t, db, &dynamodb.ScanInput{TableName: aws.String("tbl"), Limit: aws.Int32(100)})
	if len(keys) != 900 || pages != 10 {
		t.Errorf("Limit=100 scan: %d items in %d pages, want 900 in 10 (the last empty)", len(keys), pages)
	}
	out := scan(t, db, &dynamodb.ScanInput{TableName: aws.String("tbl"), Select: types.SelectCount,
		FilterExpression: aws.String("sk = :s"), ExpressionAttributeValues: map[string]av{":s": S("s1")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if out.Count != 300 || out.ScannedCount != 900 || out.Items != nil {
		t.Errorf("filtered count scan: Count %d Scanned %d", out.Count, out.ScannedCount)
	}
	// Scan filters may use key attributes (unlike Query filters).
	if units(out.ConsumedCapacity) <= 0 {
		t.Errorf("scan capacity %v", units(out.ConsumedCapacity))
	}
}

func TestScanValidation(t *testing.T) {
	db := scanDB(t)
	cases := []struct {
		in   *dynamodb.ScanInput
		want string
	}{
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), Segment: aws.Int32(2), TotalSegments: aws.Int32(2)}, "Segment: 2 is not less than TotalSegments: 2"},
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), Segment: aws.Int32(1)}, "The TotalSegments parameter is required"},
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), TotalSegments: aws.Int32(3)}, "The Segment parameter is required"},
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), TotalSegments: aws.Int32(1000001), Segment: aws.Int32(0)}, "Member must have value less than or equal to 1000000"},
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), ExclusiveStartKey: rec{"pk": N("1")}}, "The provided starting key is invalid: The provided key element does not match the schema"},
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), ExclusiveStartKey: rec{"pk": S("1"), "sk": S("x")}}, "The provided starting key is invalid: The provided key element does not match the schema"},
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), ExclusiveStartKey: rec{"pk": N("x1"), "sk": S("x")}}, "The parameter cannot be converted to a numeric value: x1"},
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), ExpressionAttributeNames: map[string]string{"#a": "a"}}, "ExpressionAttributeNames can only be specified when using expressions"},
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), FilterExpression: aws.String("a = :v"), ExpressionAttributeValues: map[string]av{":v": &types.AttributeValueMemberSS{}}}, "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :v"},
		{&dynamodb.ScanInput{TableName: aws.String("tbl"), ScanFilter: map[string]types.Condition{}}, "legacy parameter ScanFilter is not supported"},
	}
	for _, c := range cases {
		_, err := db.Scan(ctx, c.in)
		if errCode(err) != "ValidationException" || !containsMsg(err, c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}
