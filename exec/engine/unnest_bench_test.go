package engine

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// listRows builds n items in batches of 4096: id (int) and tags, a list
// of per strings (stored encoded, as documents are).
func listRows(n, per int) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	b := columnar.NewRowBuilder(memory.DefaultAllocator, []string{"id", "tags"})
	for i := 0; i < n; i++ {
		tags := make([]value.Value, per)
		for k := range tags {
			tags[k] = value.Str(fmt.Sprintf("tag-%d", (i+k)%50))
		}
		b.Append([]value.Value{value.NumTrusted(fmt.Sprint(i)), value.ListOf(tags)})
		if b.Len() == 4096 {
			out = append(out, b.Build())
		}
	}
	if b.Len() > 0 {
		out = append(out, b.Build())
	}
	return out
}

// BenchmarkUnnest measures CROSS JOIN UNNEST over 250,000 items of 4
// elements (rows/s counts the 1 M output rows).
func BenchmarkUnnest(b *testing.B) {
	const items, per = 250_000, 4
	batches := listRows(items, per)
	env := &Env{Mem: memory.DefaultAllocator}
	node := &planner.Unnest{Source: 1, Alias: "u", X: otQCol(0, "tags"), Value: "tag"}
	runBench(b, items*per, batches, func(in Operator) Operator { return newUnnestOp(env, node, in) })
}
