package offline

import (
	"context"
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Write statements change the tables in memory (memdb.DB.Thaw allows it):
// a table that is still only streamed from its files is loaded first, so
// a change is never lost to the next Scan reading the files again.

// PutItem loads the table first.
func (b *Backend) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	if err := b.ensure(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	return b.DB.PutItem(ctx, in, opts...)
}

// UpdateItem loads the table first.
func (b *Backend) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if err := b.ensure(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	return b.DB.UpdateItem(ctx, in, opts...)
}

// DeleteItem loads the table first.
func (b *Backend) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	if err := b.ensure(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	return b.DB.DeleteItem(ctx, in, opts...)
}

// InMemory says that writes last only as long as the process.
func (b *Backend) InMemory() bool { return true }

// BatchWriteItem loads the tables first (REPLACE INTO writes through it).
func (b *Backend) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	names := make([]string, 0, len(in.RequestItems))
	for n := range in.RequestItems {
		names = append(names, n)
	}
	sort.Strings(names)
	if err := b.ensure(ctx, names...); err != nil {
		return nil, err
	}
	return b.DB.BatchWriteItem(ctx, in, opts...)
}
