package memdb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

var ctx = context.Background()

type av = types.AttributeValue
type rec = map[string]types.AttributeValue

func S(v string) av  { return &types.AttributeValueMemberS{Value: v} }
func N(v string) av  { return &types.AttributeValueMemberN{Value: v} }
func B(v ...byte) av { return &types.AttributeValueMemberB{Value: v} }

// tableDef builds a PAY_PER_REQUEST CreateTable input; keys are
// "name:type" ("pk:S", "sk:N"), the second optional.
func tableDef(name string, keys ...string) *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest}
	for i, k := range keys {
		attr, typ, _ := strings.Cut(k, ":")
		kt := types.KeyTypeHash
		if i == 1 {
			kt = types.KeyTypeRange
		}
		in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(attr), KeyType: kt})
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(attr), AttributeType: types.ScalarAttributeType(typ)})
	}
	return in
}

// withGSI adds a GSI (keys as in tableDef) with the given projection.
func withGSI(in *dynamodb.CreateTableInput, name string, proj types.ProjectionType, include []string, keys ...string) *dynamodb.CreateTableInput {
	g := types.GlobalSecondaryIndex{IndexName: aws.String(name), Projection: &types.Projection{ProjectionType: proj, NonKeyAttributes: include}}
	for i, k := range keys {
		attr, typ, _ := strings.Cut(k, ":")
		kt := types.KeyTypeHash
		if i == 1 {
			kt = types.KeyTypeRange
		}
		g.KeySchema = append(g.KeySchema, types.KeySchemaElement{AttributeName: aws.String(attr), KeyType: kt})
		addDef(in, attr, typ)
	}
	in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, g)
	return in
}

// withLSI adds an LSI on the table's partition key and the given sort key.
func withLSI(in *dynamodb.CreateTableInput, name string, proj types.ProjectionType, sortKey string) *dynamodb.CreateTableInput {
	attr, typ, _ := strings.Cut(sortKey, ":")
	addDef(in, attr, typ)
	in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
		IndexName:  aws.String(name),
		Projection: &types.Projection{ProjectionType: proj},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: in.KeySchema[0].AttributeName, KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(attr), KeyType: types.KeyTypeRange},
		},
	})
	return in
}

func addDef(in *dynamodb.CreateTableInput, attr, typ string) {
	for _, d := range in.AttributeDefinitions {
		if aws.ToString(d.AttributeName) == attr {
			return
		}
	}
	in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(attr), AttributeType: types.ScalarAttributeType(typ)})
}

func newDB(t testing.TB, tables ...*dynamodb.CreateTableInput) *DB {
	t.Helper()
	db := New()
	for _, in := range tables {
		if _, err := db.CreateTable(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func put(t testing.TB, db *DB, table string, items ...rec) {
	t.Helper()
	for _, it := range items {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("put %v: %v", it, err)
		}
	}
}

// errCode returns an error's API error code ("" for nil).
func errCode(err error) string {
	if err == nil {
		return ""
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return "not-an-api-error: " + err.Error()
}

// wantValidation fails unless err is a ValidationException whose message
// contains want.
func wantValidation(t testing.TB, err error, want string) {
	t.Helper()
	if errCode(err) != "ValidationException" {
		t.Fatalf("want ValidationException %q, got %v", want, err)
	}
	var ae smithy.APIError
	errors.As(err, &ae)
	if !strings.Contains(ae.ErrorMessage(), want) {
		t.Fatalf("want message containing %q, got %q", want, ae.ErrorMessage())
	}
}

// strs returns attribute attr (S or N) of each item.
func strs(items []rec, attr string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		switch v := it[attr].(type) {
		case *types.AttributeValueMemberS:
			out[i] = v.Value
		case *types.AttributeValueMemberN:
			out[i] = v.Value
		case nil:
			out[i] = "<missing>"
		default:
			out[i] = fmt.Sprintf("%T", v)
		}
	}
	return out
}

func units(cc *types.ConsumedCapacity) float64 {
	if cc == nil {
		return -1
	}
	return aws.ToFloat64(cc.CapacityUnits)
}

func query(t testing.TB, db *DB, in *dynamodb.QueryInput) *dynamodb.QueryOutput {
	t.Helper()
	out, err := db.Query(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func scan(t testing.TB, db *DB, in *dynamodb.ScanInput) *dynamodb.ScanOutput {
	t.Helper()
	out, err := db.Scan(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// padded returns an item with the given key attributes whose itemSize is
// exactly size bytes (a "data" S attribute takes up the rest).
func padded(size int, key ...any) rec {
	it := rec{}
	used := len("data")
	for i := 0; i < len(key); i += 2 {
		name := key[i].(string)
		it[name] = key[i+1].(av)
	}
	v, _ := convertItem(it)
	used += itemSize(v)
	it["data"] = S(strings.Repeat("x", size-used))
	return it
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func containsMsg(err error, s string) bool { return err != nil && strings.Contains(err.Error(), s) }
