package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/planner/value"
)

// itemsBatch builds one batch with a column per attribute present, the
// keys first.
func itemsBatch(mem memory.Allocator, items []value.Value, keys []string) arrow.RecordBatch {
	names := rawpage.Columns(items, keys)
	return rawpage.Build(mem, items, names)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func arrowSchema(fields []arrow.Field) *arrow.Schema { return arrow.NewSchema(fields, nil) }
