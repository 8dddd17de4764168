package memdb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Loader is the DB's writer that bypasses read-only mode (see DB.Loader).
type Loader struct{ db *DB }

// CreateTable is DB.CreateTable, allowed on a read-only DB.
func (l *Loader) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	return l.db.createTable(ctx, in, bypassReadOnly)
}

// DeleteTable is DB.DeleteTable, allowed on a read-only DB.
func (l *Loader) DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error) {
	return l.db.deleteTable(ctx, in, bypassReadOnly)
}

// PutItem is DB.PutItem, allowed on a read-only DB.
func (l *Loader) PutItem(ctx context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return l.db.putItem(ctx, in, bypassReadOnly)
}

// BatchWriteItem is DB.BatchWriteItem, allowed on a read-only DB.
func (l *Loader) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return l.db.batchWriteItem(ctx, in, bypassReadOnly)
}

// PutItems stores items in table as PutItem would (the same validation and
// the same error for a rejected item), without the per-request work of
// BatchWriteItem: no request-shape checks, capacity or response, and one
// table lock for the lot. It stops at the first rejected item and returns
// its index with the error; items before it are stored. n is len(items)
// when all were stored.
func (l *Loader) PutItems(ctx context.Context, table string, items []map[string]types.AttributeValue) (n int, err error) {
	if err := l.db.beginWrite(ctx, "PutItems", table, bypassReadOnly); err != nil {
		return 0, wrapOp("PutItem", err)
	}
	t, err := l.db.table(table, dataLookup)
	if err != nil {
		return 0, wrapOp("PutItem", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, item := range items {
		a, size, err := checkNewItem(item)
		if err == nil {
			err = t.checkItem(a)
		}
		if err != nil {
			return i, wrapOp("PutItem", err)
		}
		t.store(a, size)
	}
	return len(items), nil
}
