package read

import (
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/planner"
)

// TestReadAhead checks that a read marked ReadAhead asks for the next page
// before its consumer does, and that an unmarked read (one a LIMIT may stop)
// never does.
func TestReadAhead(t *testing.T) {
	var queries atomic.Int32
	db := memdb.New(memdb.WithRequestHook(func(_ context.Context, op string, _ any) error {
		if op == "Query" {
			queries.Add(1)
		}
		return nil
	}))
	if err := fixtures.Load(context.Background(), db, "", fixtures.App()); err != nil {
		t.Fatal(err)
	}
	query := &dynamodb.QueryInput{
		TableName:                 aws.String("app"),
		KeyConditionExpression:    aws.String("PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "WS#big"}},
	}
	for _, ahead := range []bool{false, true} {
		queries.Store(0)
		mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
		env := &Env{Client: db, Mem: mem, Stats: NewStats()}
		newOp := NewPages
		if ahead {
			newOp = NewReadAhead
		}
		op := newOp(env, &planner.Access{Op: planner.OpQuery, Table: "app", Queries: []*dynamodb.QueryInput{query},
			KeyAttrs: []string{"PK", "SK"}, ReadAhead: ahead})
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		rows := b.NumRows()
		b.Release()
		deadline := time.Now().Add(5 * time.Second)
		for ahead && queries.Load() < 2 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond) // room for a request that must not come
		switch got := queries.Load(); {
		case ahead && got < 2:
			t.Errorf("with read-ahead, the second page was not requested before the consumer asked (requests: %d)", got)
		case !ahead && got != 1:
			t.Errorf("without read-ahead, %d requests were sent for one page", got)
		}
		for {
			b, err := op.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			rows += b.NumRows()
			b.Release()
		}
		if rows != fixtures.AppBigDocuments+1 {
			t.Errorf("read-ahead=%v: %d rows, want %d", ahead, rows, fixtures.AppBigDocuments+1)
		}
		op.Close()
		mem.AssertSize(t, 0)
	}
}
