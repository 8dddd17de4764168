package bulkload_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/bulkload"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// BenchmarkLoad20k loads 20,000 items of DynamoDB-JSON lines into the
// in-process backend, check included: ddbsql's own cost per item (decode,
// requests, the read-back), without a network.
func BenchmarkLoad20k(b *testing.B) {
	p := writeFile(&testing.T{}, b.TempDir(), "items.jsonl", strings.Join(genItems(20000), "\n")+"\n")
	b.Setenv("XDG_STATE_HOME", b.TempDir())
	b.ResetTimer()
	for i := range b.N {
		db := memdb.New()
		rep, err := bulkload.Load(context.Background(), db, bulkload.Source{Table: "bench" + strconv.Itoa(i), Path: p, Keys: pkSK}, bulkload.Options{Concurrency: 4, Target: "bench"})
		if err != nil || rep.Verified != 20000 {
			b.Fatal(rep, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/20000, "ns/item")
}
