package bulkload

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/batchwrite"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
)

// item is one item of the source and where it is.
type item struct {
	Attrs map[string]types.AttributeValue
	Path  string
	Line  int
}

// readSource calls fn with every item of the source, in file order: a CSV
// file by its extension, anything else as offline detects it (a file of
// DynamoDB-JSON items, an export folder).
func readSource(ctx context.Context, path, table string, keys []keyAttr, fn func(item) error) error {
	if isCSV(path) {
		return readCSV(ctx, path, keys, fn)
	}
	typed := make([]string, len(keys))
	for i, k := range keys {
		typed[i] = k.Name + ":" + string(k.Type)
	}
	return offline.ReadItems(ctx, offline.Source{Path: path, Table: table, Keys: typed}, func(items []offline.Item) error {
		for _, it := range items {
			if err := fn(item{Attrs: it.Attrs, Path: it.Path, Line: it.Line}); err != nil {
				return err
			}
		}
		return nil
	})
}

// keyIdentity is the item's key identity and its text for messages.
func keyIdentity(keys []keyAttr, attrs map[string]types.AttributeValue) (id, text string) {
	k, id, err := batchwrite.Identity(keyNames(keys), attrs)
	if err != nil {
		return "", ""
	}
	return id, k.String()
}
