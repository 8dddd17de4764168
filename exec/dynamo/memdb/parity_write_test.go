package memdb_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// writeBackend is what the write parity test sends requests to.
type writeBackend interface {
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
}

// TestWriteParityWithDynalite sends the same UpdateItem and DeleteItem
// requests (the forms ddbsql's writes send, their conditions, ReturnValues
// and errors) to dynalite and memdb, and compares each response and the
// item after it.
func TestWriteParityWithDynalite(t *testing.T) {
	ctx := context.Background()
	dl := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	run := func(c writeBackend, table string) []string {
		if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(table),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("G"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
			BillingMode: types.BillingModePayPerRequest,
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("ByG"),
				KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		}); err != nil {
			t.Fatal(err)
		}
		if dc, ok := c.(*dynamodb.Client); ok {
			if err := dynamodb.NewTableExistsWaiter(dc).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)}, time.Minute); err != nil {
				t.Fatal(err)
			}
		}
		key := vals{"PK": s("a")}
		var lines []string
		state := func() {
			out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
			if err != nil {
				lines = append(lines, "get "+renderErr(err))
				return
			}
			lines = append(lines, "item="+renderItem(out.Item))
		}
		up := func(expr, cond string, nm names, v vals, rv types.ReturnValue) {
			in := &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key, ExpressionAttributeNames: nm, ExpressionAttributeValues: v,
				ReturnValues: rv, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
			if expr != "" {
				in.UpdateExpression = aws.String(expr)
			}
			if cond != "" {
				in.ConditionExpression = aws.String(cond)
			}
			out, err := c.UpdateItem(ctx, in)
			if err != nil {
				lines = append(lines, "update "+renderErr(err))
			} else {
				lines = append(lines, "update attrs="+renderItem(out.Attributes)+" cc="+renderCC(*out.ConsumedCapacity, prefix))
			}
			state()
		}
		del := func(cond string, nm names, v vals, rv types.ReturnValue) {
			in := &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key, ExpressionAttributeNames: nm, ExpressionAttributeValues: v,
				ReturnValues: rv, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
			if cond != "" {
				in.ConditionExpression = aws.String(cond)
			}
			out, err := c.DeleteItem(ctx, in)
			if err != nil {
				lines = append(lines, "delete "+renderErr(err))
			} else {
				lines = append(lines, "delete attrs="+renderItem(out.Attributes)+" cc="+renderCC(*out.ConsumedCapacity, prefix))
			}
			state()
		}
		// An update of a missing item creates it from its key.
		up("SET #b = :b", "", names{"#b": "b"}, vals{":b": n("1")}, types.ReturnValueAllNew)
		up("SET #b = :b, #c = :c", "#b = :old AND attribute_not_exists(#c)", names{"#b": "b", "#c": "c"}, vals{":b": n("2"), ":c": s("x"), ":old": n("1")}, types.ReturnValueAllOld)
		// A failed condition changes nothing.
		up("SET #b = :b", "#b = :old", names{"#b": "b"}, vals{":b": n("9"), ":old": n("1")}, types.ReturnValueAllNew)
		up("REMOVE #c SET #g = :g", "attribute_exists(#c)", names{"#c": "c", "#g": "G"}, vals{":g": s("idx")}, types.ReturnValueUpdatedOld)
		up("SET #g = :g", "", names{"#g": "G"}, vals{":g": s("idx2")}, types.ReturnValueUpdatedNew)
		up("REMOVE #g", "", names{"#g": "G"}, nil, types.ReturnValueNone)
		// Errors: a key attribute, a wrong index key type, an unused value,
		// a repeated clause, overlapping paths.
		up("SET #k = :k", "", names{"#k": "PK"}, vals{":k": s("b")}, "")
		up("SET #g = :g", "", names{"#g": "G"}, vals{":g": n("1")}, "")
		up("SET #b = :b", "", names{"#b": "b"}, vals{":b": n("1"), ":x": n("2")}, "")
		up("SET #b = :b SET #c = :c", "", names{"#b": "b", "#c": "c"}, vals{":b": n("1"), ":c": n("2")}, "")
		up("SET #b = :b REMOVE #b", "", names{"#b": "b"}, vals{":b": n("1")}, "")
		// Deletes: a failed condition, ALL_OLD, a missing item.
		del("#b = :v", names{"#b": "b"}, vals{":v": n("7")}, types.ReturnValueAllOld)
		del("#b = :v AND attribute_not_exists(#c)", names{"#b": "b", "#c": "c"}, vals{":v": n("2")}, types.ReturnValueAllOld)
		del("", nil, nil, types.ReturnValueAllOld)
		del("attribute_exists(#p)", names{"#p": "PK"}, nil, "")
		return lines
	}
	want := run(dl, prefix+"wparity")
	got := run(memdb.New(), prefix+"wparity")
	if len(want) != len(got) {
		t.Fatalf("dynalite gave %d lines, memdb %d", len(want), len(got))
	}
	for i := range want {
		if want[i] != got[i] {
			t.Errorf("line %d differs:\ndynalite: %s\nmemdb:    %s", i, want[i], got[i])
		}
	}
}
