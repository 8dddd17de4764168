package memdb

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The benchmark table: 1,000,000 small items in 10,000 partitions of 100,
// loaded through BatchWriteItem as a loader would.
const (
	benchPartitions   = 10_000
	benchPerPartition = 100
	benchItems        = benchPartitions * benchPerPartition
)

var million struct {
	once sync.Once
	db   *DB
	load time.Duration
	heap uint64
}

func loadItems(b *testing.B, db *DB, partitions int) {
	b.Helper()
	if _, err := db.CreateTable(ctx, tableDef("bench", "pk:S", "sk:N")); err != nil {
		b.Fatal(err)
	}
	batch := make([]types.WriteRequest, 0, 25)
	flush := func() {
		if _, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bench": batch}}); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	for p := 0; p < partitions; p++ {
		pk := S(fmt.Sprintf("P%05d", p))
		for i := 0; i < benchPerPartition; i++ {
			batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: rec{
				"pk": pk, "sk": N(fmt.Sprint(i)), "v": N(fmt.Sprint(p*7 + i)), "s": S("small value"),
			}}})
			if len(batch) == 25 {
				flush()
			}
		}
	}
	if len(batch) > 0 {
		flush()
	}
}

func loadMillion(b *testing.B) *DB {
	million.once.Do(func() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		db := New()
		start := time.Now()
		loadItems(b, db, benchPartitions)
		million.load = time.Since(start)
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		million.heap = after.HeapAlloc - before.HeapAlloc
		million.db = db
	})
	if million.db == nil {
		b.Fatal("loading failed")
	}
	return million.db
}

// BenchmarkLoad1M loads 1 M items per operation (run it with -benchtime=1x).
func BenchmarkLoad1M(b *testing.B) {
	for i := 0; i < b.N; i++ {
		loadItems(b, New(), benchPartitions)
	}
	b.ReportMetric(float64(benchItems*b.N)/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkQuery100Of1M queries one 100-item partition of the 1 M-item
// table and checks that it reads exactly those 100 items.
func BenchmarkQuery100Of1M(b *testing.B) {
	db := loadMillion(b)
	in := &dynamodb.QueryInput{TableName: aws.String("bench"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: map[string]av{":p": S("P04242")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		before := db.ItemsRead()
		out, err := db.Query(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		if out.Count != benchPerPartition || db.ItemsRead()-before != benchPerPartition {
			b.Fatalf("query returned %d and read %d items, want %d", out.Count, db.ItemsRead()-before, benchPerPartition)
		}
	}
	b.ReportMetric(million.load.Seconds(), "load-s")
	b.ReportMetric(float64(million.heap)/float64(benchItems), "heap-B/item")
}

// BenchmarkQueryRange10Of1M reads 10 items from the middle of a partition.
func BenchmarkQueryRange10Of1M(b *testing.B) {
	db := loadMillion(b)
	in := &dynamodb.QueryInput{TableName: aws.String("bench"), KeyConditionExpression: aws.String("pk = :p AND sk BETWEEN :a AND :b"),
		ExpressionAttributeValues: map[string]av{":p": S("P00042"), ":a": N("40"), ":b": N("49")}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := db.Query(ctx, in)
		if err != nil || out.Count != 10 {
			b.Fatalf("%v, %d items", err, out.Count)
		}
	}
}

// BenchmarkGetItem1M reads one item by key from the 1 M-item table.
func BenchmarkGetItem1M(b *testing.B) {
	db := loadMillion(b)
	in := &dynamodb.GetItemInput{TableName: aws.String("bench"), Key: rec{"pk": S("P09999"), "sk": N("99")}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := db.GetItem(ctx, in)
		if err != nil || out.Item == nil {
			b.Fatal(err)
		}
	}
}
