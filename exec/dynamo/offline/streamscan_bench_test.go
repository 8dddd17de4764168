package offline

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// benchmarkStreamGroupBy is benchmarkLoadGroupBy's statement over a table
// that is streamed from its file (Open, never loaded): one Scan segment
// projecting status and total, read page by page through Backend.Raw. It
// reports ns/item and the process's peak heap.
func benchmarkStreamGroupBy(b *testing.B, n int) {
	p := filepath.Join(b.TempDir(), "orders.json.gz")
	if err := writeOrders(p, n); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	b.ResetTimer()
	var peak uint64
	for range b.N {
		db := memdb.New(memdb.ReadOnly())
		be, err := Open(ctx, db, []Source{{Path: p, Table: "orders", Keys: pkSK}}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		r := be.Raw()
		in := &dynamodb.ScanInput{TableName: aws.String("orders"),
			ProjectionExpression: aws.String("#s, #t"), ExpressionAttributeNames: map[string]string{"#s": "status", "#t": "total"}}
		total := 0
		for {
			pg, err := r.Scan(ctx, in, memory.DefaultAllocator, pkSK)
			if err != nil {
				b.Fatal(err)
			}
			total += int(pg.ScannedCount)
			if pg.Batch != nil {
				pg.Batch.Release()
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			if pg.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = pg.LastEvaluatedKey
		}
		be.Close()
		if total != n || be.Loads() != 0 {
			b.Fatalf("read %d items with %d loads, want %d and none", total, be.Loads(), n)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/item")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

func BenchmarkStreamGroupBy200k(b *testing.B) { benchmarkStreamGroupBy(b, 200_000) }
func BenchmarkStreamGroupBy1M(b *testing.B)   { benchmarkStreamGroupBy(b, 1_000_000) }
