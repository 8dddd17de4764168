package offline

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// The benchmark file: 1,000,000 DynamoDB-JSON lines, 10,000 partitions of
// 100 orders each (about 150 bytes a line).
const (
	benchPartitions   = 10_000
	benchPerPartition = 100
	benchItems        = benchPartitions * benchPerPartition
)

var benchFile struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchFile.dir != "" {
		os.RemoveAll(benchFile.dir)
	}
	os.Exit(code)
}

func millionLines(b *testing.B) string {
	b.Helper()
	benchFile.once.Do(func() {
		benchFile.dir, benchFile.err = os.MkdirTemp("", "ddbsql-offline-bench")
		if benchFile.err != nil {
			return
		}
		benchFile.path = filepath.Join(benchFile.dir, "orders.jsonl")
		benchFile.err = writeMillion(benchFile.path)
	})
	if benchFile.err != nil {
		b.Fatal(benchFile.err)
	}
	return benchFile.path
}

func writeMillion(p string) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	statuses := []string{"placed", "paid", "shipped", "delivered"}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for p := 0; p < benchPartitions; p++ {
		for i := 0; i < benchPerPartition; i++ {
			at := base.Add(time.Duration(i*97+p) * time.Minute).Format("2006-01-02T15:04:05Z")
			fmt.Fprintf(w, `{"PK":{"S":"USER#%05d"},"SK":{"S":"ORDER#%s"},"total":{"N":"%d.%02d"},"qty":{"N":"%d"},"status":{"S":"%s"}}`+"\n",
				p, at, (p*31+i*7)%500, i%100, 1+i%4, statuses[(p+i)%4])
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// BenchmarkLoad1M loads 1 M items from DynamoDB-JSON lines per operation
// (run with -benchtime=1x).
func BenchmarkLoad1M(b *testing.B) {
	p := millionLines(b)
	st, _ := os.Stat(p)
	b.SetBytes(st.Size())
	b.ResetTimer()
	for range b.N {
		db := memdb.New(memdb.ReadOnly())
		if _, err := Load(ctx, db, []Source{{Path: p, Keys: pkSK}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchItems*b.N)/b.Elapsed().Seconds(), "items/s")
}

var loaded struct {
	once sync.Once
	db   *memdb.DB
	load time.Duration
	heap uint64
}

func loadedMillion(b *testing.B) *memdb.DB {
	p := millionLines(b)
	loaded.once.Do(func() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		db := memdb.New(memdb.ReadOnly())
		start := time.Now()
		if _, err := Load(ctx, db, []Source{{Path: p, Keys: pkSK}}); err != nil {
			b.Fatal(err)
		}
		loaded.load = time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&after)
		loaded.heap, loaded.db = after.HeapAlloc-before.HeapAlloc, db
	})
	if loaded.db == nil {
		b.Fatal("loading failed")
	}
	return loaded.db
}

// BenchmarkQuery100Of1M queries one 100-item partition of the loaded
// 1 M-item table and checks it reads exactly those 100 items.
func BenchmarkQuery100Of1M(b *testing.B) {
	db := loadedMillion(b)
	in := eq("orders", "", "PK", S("USER#04242"))
	in.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		before := db.ItemsRead()
		out, err := db.Query(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		if out.Count != benchPerPartition || db.ItemsRead()-before != benchPerPartition {
			b.Fatalf("query returned %d and read %d items, want %d", out.Count, db.ItemsRead()-before, benchPerPartition)
		}
	}
	b.ReportMetric(loaded.load.Seconds(), "load-s")
	b.ReportMetric(float64(loaded.heap)/benchItems, "heap-B/item")
}

// BenchmarkLoadDemo loads the built-in demo.
func BenchmarkLoadDemo(b *testing.B) {
	for range b.N {
		if _, err := LoadDemo(ctx, memdb.New()); err != nil {
			b.Fatal(err)
		}
	}
}

var _ = aws.String
var _ = strconv.Itoa
