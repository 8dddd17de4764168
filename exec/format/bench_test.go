package format

import (
	"fmt"
	"io"
	"testing"

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
