package rawpage

import (
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// ItemError is an item DynamoDB returned that ddbsql cannot read
// (value.FromItem refused it); exec reports it with its decode code.
type ItemError struct{ Err error }

func (e *ItemError) Error() string {
	return "DynamoDB returned an item ddbsql cannot read: " + e.Err.Error()
}

func (e *ItemError) Unwrap() error { return e.Err }

// Values converts SDK items into values; an item it cannot read is an
// *ItemError.
func Values(items []map[string]types.AttributeValue) ([]value.Value, error) {
	out := make([]value.Value, len(items))
	for i, it := range items {
		v, err := value.FromItem(it)
		if err != nil {
			return nil, &ItemError{Err: err}
		}
		out[i] = v
	}
	return out, nil
}

// Columns orders the attributes present in items: key attributes first,
// then the rest in byte order.
func Columns(items []value.Value, keys []string) []string {
	seen := map[string]bool{}
	var rest []string
	for _, it := range items {
		for name := range it.Attrs() {
			if !seen[name] {
				seen[name] = true
				if !slices.Contains(keys, name) {
					rest = append(rest, name)
				}
			}
		}
	}
	sort.Strings(rest)
	var out []string
	for _, k := range keys {
		if seen[k] {
			out = append(out, k)
		}
	}
	return append(out, rest...)
}

// Build makes one batch of items with a column per attribute of names
// (Columns' order), named by the attribute.
func Build(mem memory.Allocator, items []value.Value, names []string) arrow.RecordBatch {
	b := columnar.NewRowBuilder(mem, names)
	row := make([]value.Value, len(names))
	for _, it := range items {
		for c, n := range names {
			row[c] = it.Attr(n)
		}
		b.Append(row)
	}
	return b.Build()
}

// ItemsBatch converts SDK items into the batch exec's read operators
// produce from them: the SDK path, which a Reader must reproduce exactly
// and falls back to for bodies it does not decode.
func ItemsBatch(mem memory.Allocator, items []map[string]types.AttributeValue, keys []string) (arrow.RecordBatch, error) {
	vals, err := Values(items)
	if err != nil {
		return nil, err
	}
	names := Columns(vals, keys)
	return Build(mem, vals, names), nil
}
