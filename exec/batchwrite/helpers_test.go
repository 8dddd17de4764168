package batchwrite_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/batchwrite"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// backend is a DynamoDB the tests write to: the in-process one or
// dynalite, with a fresh table keyed PK (S) and SK (N).
type backend struct {
	name   string
	client interface {
		batchwrite.Client
		Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	}
	table string
}

type scanner interface {
	Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}

func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	t.Run("memdb", func(t *testing.T) {
		db := memdb.New()
		tb := keyedTable()
		if err := fixtures.Load(context.Background(), db, "", tb); err != nil {
			t.Fatal(err)
		}
		f(t, backend{name: "memdb", client: db, table: tb.Name})
	})
	t.Run("dynalite", func(t *testing.T) {
		c := dynalitetest.Client(t)
		p := dynalitetest.Prefix(t)
		tb := keyedTable()
		if err := fixtures.Load(context.Background(), c, p, tb); err != nil {
			t.Fatal(err)
		}
		f(t, backend{name: "dynalite", client: c, table: tb.Named(p)})
	})
}

func keyedTable() *fixtures.Table {
	return &fixtures.Table{Name: "items", Create: &dynamodb.CreateTableInput{
		TableName:   aws.String("items"),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
		},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeN},
		},
	}}
}

var keys = []string{"PK", "SK"}

func item(pk string, sk int, payload string) batchwrite.Item {
	return batchwrite.Item{
		"PK":      &types.AttributeValueMemberS{Value: pk},
		"SK":      &types.AttributeValueMemberN{Value: fmt.Sprint(sk)},
		"payload": &types.AttributeValueMemberS{Value: payload},
		"exact":   &types.AttributeValueMemberN{Value: "12345678901234567890123456789012345.678"},
	}
}

// tableRows scans the whole table into "PK/SK=payload" rows, sorted.
func tableRows(t *testing.T, c scanner, table string) []string {
	t.Helper()
	var rows []string
	in := &dynamodb.ScanInput{TableName: aws.String(table)}
	for {
		out, err := c.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			rows = append(rows, row(it))
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	sort.Strings(rows)
	return rows
}

func row(it map[string]types.AttributeValue) string {
	s := func(n string) string {
		switch v := it[n].(type) {
		case *types.AttributeValueMemberS:
			return v.Value
		case *types.AttributeValueMemberN:
			return v.Value
		}
		return "?"
	}
	return s("PK") + "/" + s("SK") + "=" + s("payload") + "|" + s("exact")
}

func rowOf(pk string, sk int, payload string) string { return row(item(pk, sk, payload)) }

// flaky wraps a client: unprocessed decides which puts of each request
// come back in UnprocessedItems (not written), fail which requests fail.
type flaky struct {
	batchwrite.Client
	mu          sync.Mutex
	requests    int
	unprocessed func(req int, it batchwrite.Item) bool
	fail        func(req int) error
	maxItems    int
}

func (f *flaky) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	f.mu.Lock()
	f.requests++
	n := f.requests
	for _, reqs := range in.RequestItems {
		f.maxItems = max(f.maxItems, len(reqs))
	}
	f.mu.Unlock()
	if f.fail != nil {
		if err := f.fail(n); err != nil {
			return nil, err
		}
	}
	keep := map[string][]types.WriteRequest{}
	left := map[string][]types.WriteRequest{}
	for table, reqs := range in.RequestItems {
		for _, r := range reqs {
			if f.unprocessed != nil && f.unprocessed(n, r.PutRequest.Item) {
				left[table] = append(left[table], r)
			} else {
				keep[table] = append(keep[table], r)
			}
		}
	}
	out := &dynamodb.BatchWriteItemOutput{}
	if len(keep) > 0 {
		sent := *in
		sent.RequestItems = keep
		o, err := f.Client.BatchWriteItem(ctx, &sent, opts...)
		if err != nil {
			return nil, err
		}
		out = o
	}
	if len(left) > 0 {
		out.UnprocessedItems = left
	}
	return out, nil
}

func keyList(ks []batchwrite.Key) string {
	var out []string
	for _, k := range ks {
		out = append(out, k.String())
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

type countingPacer struct {
	mu     sync.Mutex
	waits  int
	booked float64
}

func (p *countingPacer) Wait(context.Context) error {
	p.mu.Lock()
	p.waits++
	p.mu.Unlock()
	return nil
}

func (p *countingPacer) Book(u float64) {
	p.mu.Lock()
	p.booked += u
	p.mu.Unlock()
}
