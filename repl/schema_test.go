package repl

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/planner"
)

// slowCatalog answers after a delay, or fails.
type slowCatalog struct {
	delay     time.Duration
	fail      atomic.Bool
	calls     atomic.Int32
	refreshed atomic.Int32
}

func (c *slowCatalog) Tables(ctx context.Context) ([]string, error) {
	c.calls.Add(1)
	time.Sleep(c.delay)
	if c.fail.Load() {
		return nil, errors.New("down")
	}
	return []string{"app"}, nil
}

func (c *slowCatalog) Table(ctx context.Context, name string) (*planner.TableDef, error) {
	c.calls.Add(1)
	time.Sleep(c.delay)
	if c.fail.Load() || name != "app" {
		return nil, errors.New("no such table")
	}
	return appDef(), nil
}

func (c *slowCatalog) Refresh() { c.refreshed.Add(1) }

func TestSchemaCacheDoesNotBlockTyping(t *testing.T) {
	cat := &slowCatalog{delay: 300 * time.Millisecond}
	c := newSchemaCache(context.Background(), cat)
	start := time.Now()
	if names := c.TableNames(10 * time.Millisecond); len(names) != 0 {
		t.Fatalf("names %q before ListTables answered", names)
	}
	if d := time.Since(start); d > 200*time.Millisecond {
		t.Errorf("waited %v", d)
	}
	// The look-up went on; a longer wait sees it.
	if names := c.TableNames(5 * time.Second); !reflect.DeepEqual(names, []string{"app"}) {
		t.Fatalf("names %q", names)
	}
	if d := c.Table("app", 5*time.Second); d == nil || d.PK.Name != "PK" {
		t.Fatalf("table %+v", d)
	}
	calls := cat.calls.Load()
	c.TableNames(time.Second)
	c.Table("app", time.Second)
	if cat.calls.Load() != calls {
		t.Error("cached answers must not call the catalog again")
	}
	c.Refresh()
	if cat.refreshed.Load() != 1 {
		t.Error("Refresh must refresh the session's catalog too")
	}
	if c.Table("app", 5*time.Second) == nil || cat.calls.Load() == calls {
		t.Error("after Refresh the table is described again")
	}
}

func TestSchemaCacheBacksOffAfterFailure(t *testing.T) {
	cat := &slowCatalog{}
	cat.fail.Store(true)
	c := newSchemaCache(context.Background(), cat)
	if c.Table("app", time.Second) != nil || c.TableNames(time.Second) != nil {
		t.Fatal("failures give nothing")
	}
	calls := cat.calls.Load()
	for i := 0; i < 5; i++ {
		c.Table("app", time.Second)
		c.TableNames(time.Second)
	}
	if cat.calls.Load() != calls {
		t.Errorf("a failed look-up was repeated %d times within the back-off", cat.calls.Load()-calls)
	}
}

// itemsClient returns fixed items from every read.
type itemsClient struct{ dynamo.Client }

var testItems = []map[string]types.AttributeValue{
	{"PK": &types.AttributeValueMemberS{Value: "a"}, "status": &types.AttributeValueMemberS{Value: "x"}},
	{"PK": &types.AttributeValueMemberS{Value: "b"}, "GSI1#PK": &types.AttributeValueMemberS{Value: "y"}},
}

func (itemsClient) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return &dynamodb.QueryOutput{Items: testItems}, nil
}

func (itemsClient) Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return &dynamodb.ScanOutput{Items: testItems[:1]}, nil
}

func (itemsClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{Item: map[string]types.AttributeValue{"owner": &types.AttributeValueMemberS{Value: "u"}}}, nil
}

func (itemsClient) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return &dynamodb.BatchGetItemOutput{Responses: map[string][]map[string]types.AttributeValue{"other": testItems[1:]}}, nil
}

func TestRecordingClientRemembersAttributes(t *testing.T) {
	seen := newSeenAttrs()
	c := recordingClient{Client: itemsClient{}, seen: seen}
	ctx := context.Background()
	c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("app")})
	c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("app")})
	c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("users")})
	c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{})
	if got := seen.Names("app"); !reflect.DeepEqual(got, []string{"GSI1#PK", "PK", "owner", "status"}) {
		t.Errorf("app: %q", got)
	}
	if got := seen.Names("users"); !reflect.DeepEqual(got, []string{"PK", "status"}) {
		t.Errorf("users: %q", got)
	}
	if got := seen.Names("other"); !reflect.DeepEqual(got, []string{"GSI1#PK", "PK"}) {
		t.Errorf("other: %q", got)
	}
}
