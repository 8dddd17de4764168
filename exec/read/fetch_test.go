package read

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestFetchFansOut checks that a fetch of more keys than one BatchGetItem
// takes sends its requests concurrently, never more at once than the
// concurrency allows, and still returns the items in the order of the
// keys asked for, each once, skipping keys without an item.
func TestFetchFansOut(t *testing.T) {
	var inFlight, most, requests atomic.Int32
	var overlapped atomic.Bool
	db := memdb.New(memdb.WithRequestHook(func(_ context.Context, op string, _ any) error {
		if op != "BatchGetItem" {
			return nil
		}
		first := requests.Add(1) == 1
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if n >= 2 {
			overlapped.Store(true)
		}
		// The first request waits for a second one to be in flight (a
		// sequential fetch never sends it; the wait then ends unmet).
		for deadline := time.Now().Add(10 * time.Second); first && !overlapped.Load() && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		inFlight.Add(-1)
		return nil
	}))
	const stored = 400
	items := make([]value.Value, stored)
	for i := range items {
		items[i] = value.MapOf(map[string]value.Value{"id": value.Str("k" + strconv.Itoa(i)), "n": value.Str(strconv.Itoa(i))})
	}
	tbl := &fixtures.Table{Name: "things", Items: items, Create: &dynamodb.CreateTableInput{
		TableName:            aws.String("things"),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
	}}
	if err := fixtures.Load(context.Background(), db, "", tbl); err != nil {
		t.Fatal(err)
	}
	// 350 wanted keys, from the last to the first, every 8th one absent
	// and every 10th one asked for twice.
	var want []string
	var keys []value.Value
	for i := 349; i >= 0; i-- {
		id := "k" + strconv.Itoa(i)
		if i%8 == 0 {
			id = "absent" + strconv.Itoa(i)
		} else {
			want = append(want, id)
		}
		keys = append(keys, value.MapOf(map[string]value.Value{"id": value.Str(id)}))
		if i%10 == 0 {
			keys = append(keys, keys[len(keys)-1])
		}
	}
	env := &Env{Client: db, Mem: memtest.Allocator(t), Stats: NewStats(), Concurrency: 2}
	node := &planner.Fetch{Table: "things", KeyAttrs: []string{"id"}}
	got, err := Fetch(context.Background(), env, node, keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d items, want %d", len(got), len(want))
	}
	for i, it := range got {
		if id := it.Attr("id").Text(); id != want[i] {
			t.Fatalf("item %d is %s, want %s (the order of the keys)", i, id, want[i])
		}
	}
	// 385 keys, 350 distinct: 4 requests of at most 100 keys.
	if n := requests.Load(); n != 4 {
		t.Errorf("%d BatchGetItems, want 4", n)
	}
	if m := most.Load(); m != 2 {
		t.Errorf("at most %d BatchGetItems at once, want 2 (the concurrency)", m)
	}
}
