package memdb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
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
