package memdb

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// listFeed feeds checked items in order.
type listFeed struct{ items []FedItem }

func (f *listFeed) Next(context.Context) (FedItem, bool, error) {
	if len(f.items) == 0 {
		return FedItem{}, false, nil
	}
	it := f.items[0]
	f.items = f.items[1:]
	return it, true, nil
}

// TestScanFeedEqualsScan feeds a stored table's items, in the order its
// Scan reads them, to ScanFeed over an empty table with the same key
// schema: every page (items, Count, ScannedCount, LastEvaluatedKey,
// capacity) is the stored table's, with filters, projections, COUNT,
// Limit and segments, whether the feed continues or skips to the start
// key.
func TestScanFeedEqualsScan(t *testing.T) {
	db := newDB(t, tableDef("stored", "pk:S", "sk:N"), tableDef("fed", "pk:S", "sk:N"))
	for i := range 3000 {
		put(t, db, "stored", padded(300+i%900, "pk", S(fmt.Sprintf("p%d", i%41)), "sk", N(fmt.Sprint(i)), "v", N(fmt.Sprint(i%10))))
	}
	check, err := db.Loader().Checker("fed")
	if err != nil {
		t.Fatal(err)
	}
	all := scan(t, db, &dynamodb.ScanInput{TableName: aws.String("stored"), Limit: aws.Int32(100000)})
	var fed []FedItem
	for len(all.Items) > 0 || all.LastEvaluatedKey != nil {
		for _, it := range all.Items {
			fi, err := check(named(it), Skipped{})
			if err != nil {
				t.Fatal(err)
			}
			fed = append(fed, fi)
		}
		if all.LastEvaluatedKey == nil {
			break
		}
		all = scan(t, db, &dynamodb.ScanInput{TableName: aws.String("stored"), ExclusiveStartKey: all.LastEvaluatedKey})
	}
	if len(fed) != 3000 {
		t.Fatalf("%d items fed", len(fed))
	}
	requests := []dynamodb.ScanInput{
		{},
		{Limit: aws.Int32(77)},
		{FilterExpression: aws.String("v < :x"), ExpressionAttributeValues: map[string]types.AttributeValue{":x": N("3")}, Limit: aws.Int32(500)},
		{ProjectionExpression: aws.String("pk, v")},
		{Select: types.SelectCount, FilterExpression: aws.String("v = :x"), ExpressionAttributeValues: map[string]types.AttributeValue{":x": N("3")}},
		{Segment: aws.Int32(1), TotalSegments: aws.Int32(3), Limit: aws.Int32(200)},
	}
	for i, base := range requests {
		for _, positioned := range []bool{true, false} {
			stored, streamed := base, base
			stored.TableName, streamed.TableName = aws.String("stored"), aws.String("fed")
			stored.ReturnConsumedCapacity, streamed.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal, types.ReturnConsumedCapacityTotal
			feed := &listFeed{items: fed}
			for page := 0; ; page++ {
				want, err := db.Scan(ctx, &stored)
				if err != nil {
					t.Fatal(err)
				}
				src := ScanSource{Feed: feed, Positioned: positioned}
				if !positioned {
					src.Feed = &listFeed{items: fed} // from the start, skipping to the start key
				}
				got, err := db.ScanFeed(ctx, &streamed, src)
				if err != nil {
					t.Fatal(err)
				}
				got.ConsumedCapacity.TableName = aws.String("stored")
				if !reflect.DeepEqual(got.Items, want.Items) || got.Count != want.Count || got.ScannedCount != want.ScannedCount ||
					!reflect.DeepEqual(got.LastEvaluatedKey, want.LastEvaluatedKey) || units(got.ConsumedCapacity) != units(want.ConsumedCapacity) {
					t.Fatalf("request %d (positioned %v), page %d: fed %d items, count %d, scanned %d, %v RCU; stored %d, %d, %d, %v",
						i, positioned, page, len(got.Items), got.Count, got.ScannedCount, units(got.ConsumedCapacity),
						len(want.Items), want.Count, want.ScannedCount, units(want.ConsumedCapacity))
				}
				if want.LastEvaluatedKey == nil {
					break
				}
				stored.ExclusiveStartKey, streamed.ExclusiveStartKey = want.LastEvaluatedKey, want.LastEvaluatedKey
			}
		}
	}
}

// A feed's error ends the page with that error; a rejected request reads
// nothing from the feed.
func TestScanFeedErrors(t *testing.T) {
	db := newDB(t, tableDef("fed", "pk:S"))
	boom := fmt.Errorf("boom")
	_, err := db.ScanFeed(ctx, &dynamodb.ScanInput{TableName: aws.String("fed")}, ScanSource{Feed: errFeed{boom}})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want the feed's", err)
	}
	_, err = db.ScanFeed(ctx, &dynamodb.ScanInput{TableName: aws.String("fed"), Limit: aws.Int32(0)}, ScanSource{Feed: errFeed{boom}})
	wantValidation(t, err, "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
}

type errFeed struct{ err error }

func (f errFeed) Next(context.Context) (FedItem, bool, error) { return FedItem{}, false, f.err }
