package read

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/planner/value"
)

// convertItems turns SDK items into M values.
func convertItems(items []map[string]types.AttributeValue) ([]value.Value, error) {
	vals, err := rawpage.Values(items)
	if e, ok := unreadableItem(err); ok {
		return nil, e
	} else if err != nil {
		return nil, err
	}
	return vals, nil
}

// itemsBatch builds one batch with a column per attribute present, key
// attributes first, named by attribute.
func itemsBatch(mem memory.Allocator, items []value.Value, keys []string) arrow.RecordBatch {
	names := rawpage.Columns(items, keys)
	return rawpage.Build(mem, items, names)
}

// itemKey identifies an item by the named attributes, as attr reads them
// (value.AppendBinary's bytes: equal exactly when the values are).
func itemKey(names []string, attr func(name string) value.Value) string {
	var b []byte
	for _, n := range names {
		b = value.AppendBinary(b, attr(n))
	}
	return string(b)
}

// requestAttr reads the attributes of a request key, for itemKey (an
// absent attribute reads as Missing, as value.Value.Attr reads it).
func requestAttr(key map[string]types.AttributeValue) func(name string) value.Value {
	return func(name string) value.Value {
		v, _ := value.FromAttributeValue(key[name])
		return v
	}
}
