package offline

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// writeOrders writes n export-style items (gzipped, {"Item": …} lines) of
// twelve attributes, a list and nested maps among them: the shape of a real
// orders table, 50 orders per user.
func writeOrders(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	gw := gzip.NewWriter(f)
	w := bufio.NewWriterSize(gw, 1<<20)
	statuses := []string{"placed", "paid", "shipped", "delivered", "cancelled"}
	for i := 0; i < n; i++ {
		u := i / 50
		fmt.Fprintf(w, `{"Item":{"PK":{"S":"USER#%06d"},"SK":{"S":"ORDER#%08d"},"status":{"S":"%s"},"total":{"N":"%d.%02d"},`+
			`"qty":{"N":"%d"},"currency":{"S":"EUR"},"email":{"S":"user%d@example.com"},"createdAt":{"S":"2026-01-%02dT10:%02d:00Z"},`+
			`"active":{"BOOL":%t},"tags":{"L":[{"S":"t%d"},{"S":"x"}]},"address":{"M":{"city":{"S":"City%d"},"zip":{"S":"%05d"},`+
			`"geo":{"M":{"lat":{"N":"%d.5"},"lon":{"N":"-%d.25"}}}}},"sku":{"S":"SKU-%d"}}}`+"\n",
			u, i, statuses[i%5], (i*31)%900, i%100, 1+i%7, u, 1+i%28, i%60, i%3 == 0, i%17, i%300, i%99999, i%90, i%180, 1000+i%400)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := gw.Close(); err != nil {
		return err
	}
	return f.Close()
}

// benchmarkLoadGroupBy loads n generated orders and runs what
// SELECT status, COUNT(*), SUM(total) … GROUP BY status asks of the DB: a
// two-segment Scan projecting status and total, read through RawReader,
// counted per status. It reports ns/item (load and scan) and the heap
// after loading and at the end.
func benchmarkLoadGroupBy(b *testing.B, n int) {
	dir := b.TempDir()
	p := filepath.Join(dir, "orders.json.gz")
	if err := writeOrders(p, n); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var before, loadedStats, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for range b.N {
		db := memdb.New(memdb.ReadOnly())
		if _, err := Load(ctx, db, []Source{{Path: p, Table: "orders", Keys: pkSK}}); err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&loadedStats)
		counts := map[string]int{}
		r := RawReader(db)
		done := make(chan error, 2)
		var per [2]map[string]int
		for seg := range 2 {
			go func() {
				per[seg] = map[string]int{}
				in := &dynamodb.ScanInput{TableName: aws.String("orders"), Segment: aws.Int32(int32(seg)), TotalSegments: aws.Int32(2),
					ProjectionExpression: aws.String("#s, #t"), ExpressionAttributeNames: map[string]string{"#s": "status", "#t": "total"}}
				for {
					pg, err := r.Scan(ctx, in, memory.DefaultAllocator, pkSK)
					if err != nil {
						done <- err
						return
					}
					if pg.Batch != nil {
						for i, f := range pg.Batch.Schema().Fields() {
							if f.Name == "status" {
								col := pg.Batch.Column(i)
								for row := 0; row < col.Len(); row++ {
									per[seg][col.ValueStr(row)]++
								}
							}
						}
						pg.Batch.Release()
					}
					if pg.LastEvaluatedKey == nil {
						done <- nil
						return
					}
					in.ExclusiveStartKey = pg.LastEvaluatedKey
				}
			}()
		}
		for range 2 {
			if err := <-done; err != nil {
				b.Fatal(err)
			}
		}
		total := 0
		for _, m := range per {
			for k, c := range m {
				counts[k] += c
				total += c
			}
		}
		if total != n || len(counts) != 5 {
			b.Fatalf("counted %d items in %d groups, want %d in 5", total, len(counts), n)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/item")
	b.ReportMetric(float64(loadedStats.HeapInuse)/(1<<20), "heap-MB-loaded")
	b.ReportMetric(float64(after.HeapSys-before.HeapSys)/(1<<20), "heapsys-MB")
}

func BenchmarkLoadGroupBy200k(b *testing.B) { benchmarkLoadGroupBy(b, 200_000) }
func BenchmarkLoadGroupBy1M(b *testing.B)   { benchmarkLoadGroupBy(b, 1_000_000) }
