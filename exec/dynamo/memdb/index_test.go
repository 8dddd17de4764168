package memdb

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func indexedDB(t *testing.T) *DB {
	in := tableDef("docs", "pk:S", "sk:S")
	withGSI(in, "byStatus", types.ProjectionTypeAll, nil, "status:S", "updated:S")
	withGSI(in, "byOwner", types.ProjectionTypeInclude, []string{"title"}, "owner:S", "rank:N")
	withGSI(in, "keysOnly", types.ProjectionTypeKeysOnly, nil, "owner:S")
	withLSI(in, "byCreated", types.ProjectionTypeKeysOnly, "created:S")
	db := newDB(t, in)
	for i := 0; i < 20; i++ {
		it := rec{"pk": S(fmt.Sprintf("W%d", i%2)), "sk": S(fmt.Sprintf("D%02d", i)), "title": S(fmt.Sprintf("title %d", i)),
			"body": S("body"), "created": S(fmt.Sprintf("2026-01-%02d", 20-i))}
		if i%4 == 0 {
			it["status"] = S("review")
			it["updated"] = S(fmt.Sprintf("2026-02-%02d", i%3))
		}
		if i%5 != 0 {
			it["owner"] = S([]string{"ann", "bob"}[i%2])
			it["rank"] = N(fmt.Sprint(i % 3))
		}
		put(t, db, "docs", it)
	}
	return db
}

func TestGSISparseAndOrdered(t *testing.T) {
	db := indexedDB(t)
	in := qin("docs", "#s = :s", map[string]av{":s": S("review")})
	in.ExpressionAttributeNames = map[string]string{"#s": "status"}
	in.IndexName = aws.String("byStatus")
	out := query(t, db, in)
	if out.Count != 5 {
		t.Fatalf("sparse GSI holds %d items, want 5", out.Count)
	}
	// Items are ordered by the index sort key; equal index keys keep a
	// stable (placement-hash) order.
	var updated []string
	for _, it := range out.Items {
		updated = append(updated, it["updated"].(*types.AttributeValueMemberS).Value)
	}
	if !sort.StringsAreSorted(updated) {
		t.Errorf("GSI items not in sort-key order: %v", updated)
	}
	if _, ok := out.Items[0]["body"]; !ok {
		t.Errorf("ALL projection dropped attributes: %v", out.Items[0])
	}
	// Scanning the index reads only indexed items.
	sout := scan(t, db, &dynamodb.ScanInput{TableName: aws.String("docs"), IndexName: aws.String("byStatus")})
	if sout.Count != 5 || sout.ScannedCount != 5 {
		t.Errorf("index scan: count %d scanned %d, want 5", sout.Count, sout.ScannedCount)
	}
}

func TestGSIProjections(t *testing.T) {
	db := indexedDB(t)
	in := qin("docs", "#o = :o", map[string]av{":o": S("bob")})
	in.ExpressionAttributeNames = map[string]string{"#o": "owner"}
	in.IndexName = aws.String("byOwner")
	out := query(t, db, in)
	for _, it := range out.Items {
		var keys []string
		for k := range it {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if want := []string{"owner", "pk", "rank", "sk", "title"}; !reflect.DeepEqual(keys, want) {
			t.Fatalf("INCLUDE projection gives %v, want %v", keys, want)
		}
	}
	if got := strs(out.Items, "rank"); !sort.SliceIsSorted(got, func(i, j int) bool { return got[i] < got[j] }) {
		t.Errorf("not ordered by rank: %v", got)
	}
	in.IndexName = aws.String("keysOnly")
	out = query(t, db, in)
	for _, it := range out.Items {
		if len(it) != 3 {
			t.Fatalf("KEYS_ONLY item %v", it)
		}
	}
	in.Select = types.SelectAllAttributes
	_, err := db.Query(ctx, in)
	wantValidation(t, err, "Select type ALL_ATTRIBUTES is not supported for global secondary index keysOnly because its projection type is not ALL")
	in.Select = types.SelectAllProjectedAttributes
	if _, err := db.Query(ctx, in); err != nil {
		t.Errorf("ALL_PROJECTED_ATTRIBUTES: %v", err)
	}
	in.Select = ""
	in.ConsistentRead = aws.Bool(true)
	_, err = db.Query(ctx, in)
	wantValidation(t, err, "Consistent reads are not supported on global secondary indexes")
	_, err = db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("docs"), IndexName: aws.String("keysOnly"), ConsistentRead: aws.Bool(true)})
	wantValidation(t, err, "Consistent reads are not supported on global secondary indexes")
	in.ConsistentRead = nil
	in.IndexName = aws.String("nope")
	_, err = db.Query(ctx, in)
	wantValidation(t, err, "The table does not have the specified index: nope")
}

func TestGSIPagingWithExclusiveStartKey(t *testing.T) {
	db := indexedDB(t)
	in := qin("docs", "#o = :o", map[string]av{":o": S("ann")})
	in.ExpressionAttributeNames = map[string]string{"#o": "owner"}
	in.IndexName = aws.String("byOwner")
	all := query(t, db, in).Items
	for _, forward := range []bool{true, false} {
		in.ScanIndexForward = aws.Bool(forward)
		in.Limit = aws.Int32(2)
		in.ExclusiveStartKey = nil
		var got []rec
		for {
			out := query(t, db, in)
			got = append(got, out.Items...)
			if out.LastEvaluatedKey == nil {
				break
			}
			if len(out.LastEvaluatedKey) != 4 {
				t.Fatalf("index LastEvaluatedKey must hold table and index keys: %v", out.LastEvaluatedKey)
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		want := append([]rec(nil), all...)
		if !forward {
			for i, j := 0, len(want)-1; i < j; i, j = i+1, j-1 {
				want[i], want[j] = want[j], want[i]
			}
		}
		if !reflect.DeepEqual(strs(got, "sk"), strs(want, "sk")) {
			t.Errorf("forward=%v: paged %v, want %v", forward, strs(got, "sk"), strs(want, "sk"))
		}
	}
}

func TestIndexesFollowUpdatesAndDeletes(t *testing.T) {
	db := indexedDB(t)
	statusQ := func() []string {
		in := qin("docs", "#s = :s", map[string]av{":s": S("review")})
		in.ExpressionAttributeNames = map[string]string{"#s": "status"}
		in.IndexName = aws.String("byStatus")
		return strs(query(t, db, in).Items, "sk")
	}
	before := len(statusQ())
	// Overwrite D00 without status: it leaves the sparse index.
	put(t, db, "docs", rec{"pk": S("W0"), "sk": S("D00"), "title": S("new")})
	if got := len(statusQ()); got != before-1 {
		t.Errorf("after removing status: %d items, want %d", got, before-1)
	}
	// Delete D04 with BatchWriteItem.
	_, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"docs": {{DeleteRequest: &types.DeleteRequest{Key: rec{"pk": S("W0"), "sk": S("D04")}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := statusQ(); len(got) != before-2 {
		t.Errorf("after delete: %v", got)
	}
	d := describeTable(t, db, "docs")
	if aws.ToInt64(d.ItemCount) != 19 {
		t.Errorf("ItemCount %d, want 19", aws.ToInt64(d.ItemCount))
	}
	for _, g := range d.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == "byStatus" && aws.ToInt64(g.ItemCount) != int64(before-2) {
			t.Errorf("byStatus ItemCount %d, want %d", aws.ToInt64(g.ItemCount), before-2)
		}
	}
}

func TestLSIFetchesFromTable(t *testing.T) {
	db := indexedDB(t)
	in := qin("docs", "pk = :p AND created > :c", map[string]av{":p": S("W1"), ":c": S("2026-01-10")})
	in.IndexName = aws.String("byCreated")
	in.ConsistentRead = aws.Bool(true)
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityIndexes
	out := query(t, db, in)
	if len(out.Items) == 0 || len(out.Items[0]) != 3 {
		t.Fatalf("KEYS_ONLY LSI items: %v", out.Items)
	}
	if out.ConsumedCapacity.LocalSecondaryIndexes["byCreated"].CapacityUnits == nil || aws.ToFloat64(out.ConsumedCapacity.Table.CapacityUnits) != 0 {
		t.Errorf("LSI read billed %+v", out.ConsumedCapacity)
	}
	in.Select = types.SelectAllAttributes
	out = query(t, db, in)
	if _, ok := out.Items[0]["body"]; !ok {
		t.Errorf("Select=ALL_ATTRIBUTES on an LSI must fetch the item: %v", out.Items[0])
	}
	// The five index entries are one 4 KB unit; each of the five fetched
	// items is charged to the table on its own (capacity_test.go cites the
	// rule): 5 units.
	cc := out.ConsumedCapacity
	if len(out.Items) != 5 || aws.ToFloat64(cc.Table.CapacityUnits) != 5 || aws.ToFloat64(cc.LocalSecondaryIndexes["byCreated"].CapacityUnits) != 1 || units(cc) != 6 {
		t.Errorf("fetching LSI query billed %+v %+v", cc.Table, cc.LocalSecondaryIndexes)
	}
	// created descends as sk ascends: the LSI order is by created.
	if got := strs(out.Items, "created"); !sort.StringsAreSorted(got) {
		t.Errorf("LSI not ordered by its sort key: %v", got)
	}
}

func describeTable(t *testing.T, db *DB, name string) *types.TableDescription {
	t.Helper()
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Table
}
