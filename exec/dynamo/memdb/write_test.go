package memdb

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestPutItemValidation(t *testing.T) {
	in := withGSI(tableDef("tbl", "pk:S", "sk:N"), "gsi", types.ProjectionTypeAll, nil, "g:S")
	db := newDB(t, in)
	cases := []struct {
		it   rec
		want string
	}{
		{rec{"sk": N("1")}, "One or more parameter values were invalid: Missing the key pk in the item"},
		{rec{"pk": N("1"), "sk": N("1")}, "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"},
		{rec{"pk": S(""), "sk": N("1")}, "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{rec{"pk": S("a"), "sk": N("1"), "g": N("1")}, "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S Actual: N IndexName: gsi"},
		{rec{"pk": S("a"), "sk": N("1"), "g": S("")}, "A value specified for a secondary index key is not supported"},
		{rec{"pk": S(strings.Repeat("k", 2049)), "sk": N("1")}, "Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{rec{"pk": S("a"), "sk": N("1"), "big": S(strings.Repeat("x", 400*1024))}, "Item size has exceeded the maximum allowed size"},
		{rec{"pk": S("a"), "sk": N("1"), "n": N("1.2.3")}, "The parameter cannot be converted to a numeric value: 1.2.3"},
		{rec{"pk": S("a"), "sk": N("1"), "n": N("123456789012345678901234567890123456789")}, "Attempting to store more than 38 significant digits in a Number"},
		{rec{"pk": S("a"), "sk": N("1"), "s": &types.AttributeValueMemberSS{Value: []string{"a", "a"}}}, "Input collection [a, a] contains duplicates."},
		{rec{"pk": S("a"), "sk": N("1"), "s": &types.AttributeValueMemberNS{Value: []string{"1", "1.0"}}}, "Input collection contains duplicates"},
		{rec{"pk": S("a"), "sk": N("1"), "z": &types.AttributeValueMemberNULL{Value: false}}, "Null attribute value types must have the value of true"},
		{rec{"pk": S("a"), "sk": N("1"), "l": &types.AttributeValueMemberL{Value: []av{&types.AttributeValueMemberBS{}}}}, "Binary sets should not be empty"},
	}
	for _, c := range cases {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: c.it})
		wantValidation(t, err, c.want)
	}
	// Exactly 400 KB is accepted.
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: padded(400*1024, "pk", S("a"), "sk", N("1"))}); err != nil {
		t.Errorf("400 KB item: %v", err)
	}
	_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("nope"), Item: rec{"pk": S("a")}})
	var rnf *types.ResourceNotFoundException
	if !errors.As(err, &rnf) || aws.ToString(rnf.Message) != "Requested resource not found" {
		t.Errorf("unknown table: %v", err)
	}
}

func TestPutItemConditionAndReturnValues(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S"))
	in := &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: rec{"pk": S("a"), "v": N("1")},
		ConditionExpression: aws.String("attribute_not_exists(pk)"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	out, err := db.PutItem(ctx, in)
	if err != nil || units(out.ConsumedCapacity) != 1 {
		t.Fatalf("first put: %v %+v", err, out)
	}
	_, err = db.PutItem(ctx, in)
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Fatalf("second put: %v", err)
	}
	out, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: rec{"pk": S("a"), "v": N("2")}, ReturnValues: types.ReturnValueAllOld})
	if err != nil || strs([]rec{out.Attributes}, "v")[0] != "1" {
		t.Errorf("ALL_OLD: %v %v", err, out.Attributes)
	}
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: rec{"pk": S("a")}, ReturnValues: types.ReturnValueAllNew})
	wantValidation(t, err, "ReturnValues can only be ALL_OLD or NONE")
}

func TestBatchWriteItem(t *testing.T) {
	db := newDB(t, tableDef("tbl", "pk:S"), tableDef("two", "id:N"))
	var reqs []types.WriteRequest
	for i := 0; i < 20; i++ {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: rec{"pk": S(fmt.Sprint(i))}}})
	}
	out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
		RequestItems:           map[string][]types.WriteRequest{"tbl": reqs, "two": {{PutRequest: &types.PutRequest{Item: rec{"id": N("1")}}}}},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil || len(out.UnprocessedItems) != 0 || len(out.ConsumedCapacity) != 2 || units(&out.ConsumedCapacity[0]) != 20 {
		t.Fatalf("batch write: %v %+v", err, out)
	}
	cases := []struct {
		req  map[string][]types.WriteRequest
		want string
	}{
		{map[string][]types.WriteRequest{"tbl": append(reqs, reqs[:6]...)}, "Too many items requested for the BatchWriteItem call"},
		{map[string][]types.WriteRequest{"tbl": {reqs[0], reqs[0]}}, "Provided list of item keys contains duplicates"},
		{map[string][]types.WriteRequest{"tbl": {{PutRequest: &types.PutRequest{Item: rec{"x": S("1")}}}}}, "The provided key element does not match the schema"},
		{map[string][]types.WriteRequest{"tbl": {{DeleteRequest: &types.DeleteRequest{Key: rec{"pk": N("1")}}}}}, "The provided key element does not match the schema"},
		{map[string][]types.WriteRequest{"tbl": {{}}}, "Supplied AttributeValue has more than one datatypes set"},
		{map[string][]types.WriteRequest{"tbl": {}}, "Member must have length greater than or equal to 1"},
	}
	for _, c := range cases {
		_, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: c.req})
		wantValidation(t, err, c.want)
	}
	// A failing batch writes nothing.
	bad := []types.WriteRequest{{PutRequest: &types.PutRequest{Item: rec{"pk": S("new")}}}, {PutRequest: &types.PutRequest{Item: rec{"pk": N("1")}}}}
	if _, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": bad}}); err == nil {
		t.Fatal("bad batch accepted")
	}
	if got, _ := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: rec{"pk": S("new")}}); got.Item != nil {
		t.Errorf("partial batch applied")
	}
}

func TestReadOnly(t *testing.T) {
	db := New(ReadOnly())
	if _, err := db.CreateTable(ctx, tableDef("tbl", "pk:S")); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("CreateTable on a read-only DB: %v", err)
	}
	w := db.Loader()
	if _, err := w.CreateTable(ctx, tableDef("tbl", "pk:S")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: rec{"pk": S("a")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": {{PutRequest: &types.PutRequest{Item: rec{"pk": S("b")}}}}}}); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"PutItem": func() error {
			_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: rec{"pk": S("c")}})
			return err
		}(),
		"BatchWriteItem": func() error {
			_, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": {{PutRequest: &types.PutRequest{Item: rec{"pk": S("c")}}}}}})
			return err
		}(),
		"DeleteTable": func() error {
			_, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")})
			return err
		}(),
	} {
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s on a read-only DB: %v", name, err)
		}
	}
	if d := describeTable(t, db, "tbl"); aws.ToInt64(d.ItemCount) != 2 {
		t.Errorf("loaded %d items", aws.ToInt64(d.ItemCount))
	}
	rw := New()
	rw.Freeze()
	if !rw.IsReadOnly() {
		t.Error("Freeze did not make the DB read-only")
	}
}
