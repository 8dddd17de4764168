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

func TestGetItem(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S", "sk:N"))
	put(t, db, "tbl", padded(5000, "pk", S("a"), "sk", N("1")))
	put(t, db, "tbl", rec{"pk": S("a"), "sk": N("2"), "m": &types.AttributeValueMemberM{Value: rec{"l": &types.AttributeValueMemberL{Value: []av{N("1"), N("2"), N("3")}}}}})
	get := func(in *dynamodb.GetItemInput) *dynamodb.GetItemOutput {
		t.Helper()
		in.TableName = aws.String("tbl")
		out, err := db.GetItem(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := get(&dynamodb.GetItemInput{Key: rec{"pk": S("a"), "sk": N("1.0")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if out.Item == nil || units(out.ConsumedCapacity) != 1 || aws.ToFloat64(out.ConsumedCapacity.Table.CapacityUnits) != 1 {
		t.Errorf("5 KB item: %v units (want 1 = 2 × 4 KB / 2)", units(out.ConsumedCapacity))
	}
	out = get(&dynamodb.GetItemInput{Key: rec{"pk": S("a"), "sk": N("1")}, ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if units(out.ConsumedCapacity) != 2 || out.ConsumedCapacity.Table != nil {
		t.Errorf("consistent 5 KB: %+v", out.ConsumedCapacity)
	}
	out = get(&dynamodb.GetItemInput{Key: rec{"pk": S("a"), "sk": N("9")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if out.Item != nil || units(out.ConsumedCapacity) != 0.5 {
		t.Errorf("missing item: %v, %v units", out.Item, units(out.ConsumedCapacity))
	}
	out = get(&dynamodb.GetItemInput{Key: rec{"pk": S("a"), "sk": N("2")}, ProjectionExpression: aws.String("m.l[2], m.l[0], nope")})
	want := rec{"m": &types.AttributeValueMemberM{Value: rec{"l": &types.AttributeValueMemberL{Value: []av{N("1"), N("3")}}}}}
	if !reflect.DeepEqual(out.Item, want) {
		t.Errorf("projection: %#v", out.Item)
	}
	// Returned items are copies.
	out.Item["m"].(*types.AttributeValueMemberM).Value["x"] = S("mutated")
	if again := get(&dynamodb.GetItemInput{Key: rec{"pk": S("a"), "sk": N("2")}}); len(again.Item["m"].(*types.AttributeValueMemberM).Value) != 1 {
		t.Errorf("store shares memory with responses")
	}

	for _, c := range []struct {
		key  rec
		want string
	}{
		{rec{"pk": S("a")}, "The provided key element does not match the schema"},
		{rec{"pk": S("a"), "sk": S("1")}, "The provided key element does not match the schema"},
		{rec{"pk": S("a"), "sk": N("1"), "x": S("y")}, "The provided key element does not match the schema"},
		{rec{"pk": S(""), "sk": N("1")}, "The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{rec{"pk": S("a"), "sk": N("1e200")}, "Number overflow. Attempting to store a number with magnitude larger than supported range"},
	} {
		_, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: c.key})
		wantValidation(t, err, c.want)
	}
}

func TestBatchGetItem(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S", "sk:N"), tableDef("two", "id:S"))
	var keys []rec
	for i := 0; i < 13; i++ {
		put(t, db, "tbl", padded(1024, "pk", S("a"), "sk", N(fmt.Sprint(i))))
		keys = append(keys, rec{"pk": S("a"), "sk": N(fmt.Sprint(i))})
	}
	put(t, db, "two", rec{"id": S("x"), "v": N("1"), "w": N("2")})
	out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
		RequestItems: map[string]types.KeysAndAttributes{
			"tbl": {Keys: keys},
			"two": {Keys: []rec{{"id": S("x")}, {"id": S("missing")}}, ProjectionExpression: aws.String("v"), ConsistentRead: aws.Bool(true)},
		},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Responses["tbl"]) != 13 || !reflect.DeepEqual(out.Responses["two"], []rec{{"v": N("1")}}) {
		t.Errorf("responses: %d items, %v", len(out.Responses["tbl"]), out.Responses["two"])
	}
	if len(out.UnprocessedKeys) != 0 {
		t.Errorf("unprocessed keys: %v", out.UnprocessedKeys)
	}
	// 13 items of 1 KB, eventually consistent: 13 × 0.5 = 6.5; one hit and one
	// miss strongly consistent: 1 + 1.
	got := map[string]float64{}
	for _, cc := range out.ConsumedCapacity {
		got[aws.ToString(cc.TableName)] = aws.ToFloat64(cc.CapacityUnits)
		if aws.ToFloat64(cc.Table.CapacityUnits) != aws.ToFloat64(cc.CapacityUnits) {
			t.Errorf("INDEXES table share %+v", cc.Table)
		}
	}
	if want := map[string]float64{"tbl": 6.5, "two": 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("capacity %v, want %v", got, want)
	}

	dup := map[string]types.KeysAndAttributes{"tbl": {Keys: []rec{keys[0], {"sk": N("0.0"), "pk": S("a")}}}}
	_, err = db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: dup})
	wantValidation(t, err, "Provided list of item keys contains duplicates")
	var many []rec
	for i := 0; i < 60; i++ {
		many = append(many, rec{"id": S(fmt.Sprint(i))})
	}
	_, err = db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"two": {Keys: many}, "tbl": {Keys: keys},
	}})
	if err != nil {
		t.Fatalf("73 keys: %v", err)
	}
	var tooMany []rec
	for i := 0; i < 45; i++ {
		tooMany = append(tooMany, rec{"pk": S("b"), "sk": N(fmt.Sprint(i))})
	}
	_, err = db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"two": {Keys: many}, "tbl": {Keys: tooMany}}})
	wantValidation(t, err, "Too many items requested for the BatchGetItem call")
	_, err = db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"two": {Keys: []rec{{"id": N("1")}}}}})
	wantValidation(t, err, "The provided key element does not match the schema")
	_, err = db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"nope": {Keys: []rec{{"id": S("1")}}}}})
	var rnf *types.ResourceNotFoundException
	if !errorsAs(err, &rnf) {
		t.Errorf("unknown table: %v", err)
	}
}

func TestBatchGetUnprocessedKeysHook(t *testing.T) {
	attempts := map[string]int{}
	db := New(WithUnprocessedKeys(func(table string, key map[string]types.AttributeValue) bool {
		id := key["id"].(*types.AttributeValueMemberS).Value
		attempts[id]++
		return attempts[id] == 1 && id != "k0" // every key but k0 fails once
	}))
	if _, err := db.CreateTable(ctx, tableDef("tbl", "id:S")); err != nil {
		t.Fatal(err)
	}
	var keys []rec
	for i := 0; i < 5; i++ {
		put(t, db, "tbl", rec{"id": S(fmt.Sprint("k", i))})
		keys = append(keys, rec{"id": S(fmt.Sprint("k", i))})
	}
	req := map[string]types.KeysAndAttributes{"tbl": {Keys: keys, ProjectionExpression: aws.String("id")}}
	var got []string
	for round := 0; len(req) > 0; round++ {
		if round > 3 {
			t.Fatal("retries did not converge")
		}
		out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strs(out.Responses["tbl"], "id")...)
		if round == 0 && (len(out.UnprocessedKeys["tbl"].Keys) != 4 || aws.ToString(out.UnprocessedKeys["tbl"].ProjectionExpression) != "id") {
			t.Errorf("first round unprocessed: %+v", out.UnprocessedKeys)
		}
		req = out.UnprocessedKeys
	}
	sort.Strings(got)
	if !reflect.DeepEqual(got, []string{"k0", "k1", "k2", "k3", "k4"}) {
		t.Errorf("retried reads: %v", got)
	}
	if db.Requests("BatchGetItem") != 2 {
		t.Errorf("requests: %d", db.Requests("BatchGetItem"))
	}
}
