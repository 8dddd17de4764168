package write_test

import (
	"context"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner"
)

// --rate-limit paces writes as it paces reads: 20 items of 1 WCU at 10
// capacity units a second take two seconds (a fake clock: no real time).
// The limiter books what a response reports, so with requests in flight
// together up to concurrency-1 of them go before the others are booked.
func TestRateLimitPacesWrites(t *testing.T) {
	for _, concurrency := range []int{1, 4} {
		t.Run(strconv.Itoa(concurrency), func(t *testing.T) { ratePacesWrites(t, concurrency) })
	}
}

func ratePacesWrites(t *testing.T, concurrency int) {
	synctest.Test(t, func(t *testing.T) {
		db := memdb.New()
		var items []map[string]types.AttributeValue
		for i := 1; i <= 20; i++ {
			items = append(items, item("a", strconv.Itoa(i), "b", n("1")))
		}
		create(t, db, "writes", items...)
		ctx := context.Background()
		st, err := parser.ParseOne("UPDATE writes SET b = b + 1 WHERE PK = 'a'")
		if err != nil {
			t.Fatal(err)
		}
		wp, err := planner.PlanWrite(ctx, dynamo.NewCatalog(db), st, planner.Options{Parallelism: 1})
		if err != nil {
			t.Fatal(err)
		}
		env := &write.Env{Engine: &engine.Env{Client: db, Mem: memory.DefaultAllocator, Stats: engine.NewStats(), Concurrency: concurrency,
			Limiter: engine.NewRateLimiter(10)}, Client: db}
		start := time.Now()
		res, err := write.Run(ctx, env, wp)
		if err != nil {
			t.Fatal(err)
		}
		// The Query's 0.5 RCU and 19 of the 20 writes are paid before the
		// last write is sent.
		least := 1950*time.Millisecond - time.Duration(concurrency-1)*100*time.Millisecond
		if d := time.Since(start); d < least || d > 1950*time.Millisecond {
			t.Errorf("20 writes of 1 WCU at 10/s, %d at a time, took %v, want %v to 1.95s", concurrency, d, least)
		}
		if res.WCU != 20 {
			t.Errorf("WCU %v", res.WCU)
		}
	})
}
