//go:build unix

package format

import (
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// BenchmarkWriters renders 10,000 rows of six typical columns per op.
func BenchmarkWriters(b *testing.B) {
	names := []string{"PK", "SK", "n", "price", "flag", "doc"}
	rb := columnar.NewRowBuilder(memory.NewGoAllocator(), names)
	for i := 0; i < 10000; i++ {
		rb.Append([]value.Value{
			value.Str(fmt.Sprintf("user#%d", i%100)), value.Str(fmt.Sprintf("order#%06d", i)),
			num(b, fmt.Sprint(i)), num(b, fmt.Sprintf("%d.%02d", i, i%100)), value.BoolOf(i%2 == 0),
			value.MapOf(map[string]value.Value{"qty": num(b, "3"), "sku": value.Str("X-1")}),
		})
	}
	rec := rb.Build()
	defer rec.Release()
	for _, f := range Names() {
		b.Run(f, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				w, _ := New(f, io.Discard, Options{})
				_ = w.Begin(Header{Columns: names})
				if err := w.WriteBatch(rec); err != nil {
					b.Fatal(err)
				}
				_ = w.End()
			}
		})
	}
}

// BenchmarkMillionItems writes 1,000,000 items of a typical shape per op
// (one 4,096-row batch written again and again): two key strings, an
// integer, a price with decimals (missing in one item of ten), a boolean,
// a map, and a list missing in one item of three. It runs each streaming
// format and the binary ones, fixed columns and SELECT *. Parquet's
// target is at least half csv's speed: compare the ns/op of parquet and
// csv.
func BenchmarkMillionItems(b *testing.B) {
	const items, batchRows = 1_000_000, 4096
	names := []string{"PK", "SK", "n", "price", "flag", "doc", "tags"}
	rb := columnar.NewRowBuilder(memory.NewGoAllocator(), names)
	for i := 0; i < batchRows; i++ {
		price, tags := num(b, fmt.Sprintf("%d.%02d", i, i%100)), value.ListOf([]value.Value{value.Str("new"), num(b, fmt.Sprint(i%7))})
		if i%10 == 9 {
			price = value.MissingValue()
		}
		if i%3 == 2 {
			tags = value.MissingValue()
		}
		rb.Append([]value.Value{
			value.Str(fmt.Sprintf("user#%d", i%100)), value.Str(fmt.Sprintf("order#%06d", i)),
			num(b, fmt.Sprint(i)), price, value.BoolOf(i%2 == 0),
			value.MapOf(map[string]value.Value{"qty": num(b, "3"), "sku": value.Str("X-1")}),
			tags,
		})
	}
	rec := rb.Build()
	defer rec.Release()
	for _, h := range []struct {
		label string
		h     Header
	}{{"columns", Header{Columns: names}}, {"star", Header{Dynamic: true, KeyColumns: []string{"PK", "SK"}}}} {
		for _, f := range []string{"csv", "ndjson", "parquet", "arrow"} {
			b.Run(h.label+"/"+f, func(b *testing.B) {
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					w, _ := New(f, io.Discard, Options{})
					if err := w.Begin(h.h); err != nil {
						b.Fatal(err)
					}
					for n := 0; n < items; n += batchRows {
						if err := w.WriteBatch(rec); err != nil {
							b.Fatal(err)
						}
					}
					if err := w.End(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*items), "ns/item")
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*items), "cpu-ns/item")
			})
		}
	}
}

// cpuTime is the process's user+system CPU time: on a loaded machine it
// shows what the work costs when the wall clock also counts waiting.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
