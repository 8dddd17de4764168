package session_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/planner/value"
)

// holdBackClient holds back keys of BatchGetItem requests as
// UnprocessedKeys, as DynamoDB does under load (the spy counts requests).
type holdBackClient struct {
	dynamo.Client
	mu        sync.Mutex
	holdBack  int // BatchGetItem requests still to answer partially
	heldTotal int
}

func (c *holdBackClient) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.mu.Lock()
	hold := c.holdBack > 0
	if hold {
		c.holdBack--
	}
	c.mu.Unlock()
	if !hold {
		return c.Client.BatchGetItem(ctx, in, o...)
	}
	// Send only the first half of each table's keys; report the rest unprocessed.
	sent := &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{}, ReturnConsumedCapacity: in.ReturnConsumedCapacity}
	held := map[string]types.KeysAndAttributes{}
	for t, ka := range in.RequestItems {
		half := (len(ka.Keys) + 1) / 2
		first, rest := ka, ka
		first.Keys, rest.Keys = ka.Keys[:half], ka.Keys[half:]
		sent.RequestItems[t] = first
		if len(rest.Keys) > 0 {
			held[t] = rest
			c.mu.Lock()
			c.heldTotal += len(rest.Keys)
			c.mu.Unlock()
		}
	}
	out, err := c.Client.BatchGetItem(ctx, sent, o...)
	if err != nil {
		return nil, err
	}
	out.UnprocessedKeys = held
	return out, nil
}

// calls counts the recorded requests of one operation.
func (c *spyClient) calls(op string) int {
	n := 0
	for _, r := range c.requests() {
		if r.Op == op {
			n++
		}
	}
	return n
}

// joinTables builds a 250-item driving partition whose cust attribute takes
// 120 distinct values (plus some missing and unmatched), and a customers
// table keyed by id.
func joinTables() (orders, customers *fixtures.Table) {
	orders = &fixtures.Table{Name: "orders", Create: &dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		BillingMode:          types.BillingModePayPerRequest,
	}}
	for i := 0; i < 250; i++ {
		attrs := map[string]value.Value{"PK": value.Str("ORD"), "SK": value.Str(fmt.Sprintf("O%04d", i))}
		attrs["cust"] = value.Str(fmt.Sprintf("c%03d", i%120))
		orders.Items = append(orders.Items, value.MapOf(attrs))
	}
	customers = &fixtures.Table{Name: "custs", Create: &dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	}}
	for i := 0; i < 120; i++ {
		customers.Items = append(customers.Items, value.MapOf(map[string]value.Value{
			"id": value.Str(fmt.Sprintf("c%03d", i)), "name": value.Str(fmt.Sprintf("customer %d", i))}))
	}
	return orders, customers
}

func TestLookupJoinRequests(t *testing.T) {
	ctx := context.Background()
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	orders, custs := joinTables()
	if err := fixtures.Load(ctx, client, prefix, orders, custs); err != nil {
		t.Fatal(err)
	}
	sql := fmt.Sprintf("SELECT o.SK, c.name FROM `%s` o JOIN `%s` c ON o.cust = c.id WHERE o.PK = 'ORD'", orders.Named(prefix), custs.Named(prefix))

	run := func(t *testing.T, hold int) (*spyClient, *holdBackClient, []string) {
		hb := &holdBackClient{Client: client, holdBack: hold}
		cc := spy(hb)
		var out, errOut bytes.Buffer
		cfg := session.DefaultConfig()
		cfg.Mem, cfg.Format = memtest.Allocator(t), "csv"
		s := session.New(cc, &out, &errOut, cfg)
		if err := s.RunScript(ctx, sql); err != nil {
			t.Fatalf("%v\n%s", err, errOut.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		return cc, hb, lines[1:]
	}

	t.Run("120 distinct keys take exactly 2 BatchGetItem requests", func(t *testing.T) {
		cc, _, rows := run(t, 0)
		if len(rows) != 250 {
			t.Fatalf("got %d rows, want 250", len(rows))
		}
		if got := cc.calls("BatchGetItem"); got != 2 {
			t.Fatalf("BatchGetItem requests = %d, want 2", got)
		}
		if got := cc.calls("Query"); got != 1 {
			t.Fatalf("Query requests = %d, want 1", got)
		}
		for i, r := range rows {
			want := fmt.Sprintf("O%04d,customer %d", i, i%120)
			if r != want {
				t.Fatalf("row %d = %q, want %q", i, r, want)
			}
		}
	})

	t.Run("unprocessed keys are retried until every row is there", func(t *testing.T) {
		cc, hb, rows := run(t, 3)
		if len(rows) != 250 {
			t.Fatalf("got %d rows, want 250", len(rows))
		}
		if hb.heldTotal == 0 || cc.calls("BatchGetItem") <= 2 {
			t.Fatalf("the test did not hold back keys: held %d, requests %d", hb.heldTotal, cc.calls("BatchGetItem"))
		}
	})
}
