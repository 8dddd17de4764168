package memdb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The in-process backend keeps no expiring items and no backups, so it
// answers as DynamoDB does for a table where neither was ever turned on:
// TTL DISABLED, continuous backups ENABLED (DynamoDB always reports them
// so) with point-in-time recovery DISABLED.

// DescribeTimeToLive reports TTL as DISABLED for an existing table.
func (db *DB) DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	if err := db.describeSetting(ctx, "DescribeTimeToLive", in, in.TableName, "DescribeTimeToLiveInput"); err != nil {
		return nil, err
	}
	return &dynamodb.DescribeTimeToLiveOutput{TimeToLiveDescription: &types.TimeToLiveDescription{TimeToLiveStatus: types.TimeToLiveStatusDisabled}}, nil
}

// DescribeContinuousBackups reports point-in-time recovery as DISABLED for
// an existing table.
func (db *DB) DescribeContinuousBackups(ctx context.Context, in *dynamodb.DescribeContinuousBackupsInput, _ ...func(*dynamodb.Options)) (*dynamodb.DescribeContinuousBackupsOutput, error) {
	if err := db.describeSetting(ctx, "DescribeContinuousBackups", in, in.TableName, "DescribeContinuousBackupsInput"); err != nil {
		return nil, err
	}
	return &dynamodb.DescribeContinuousBackupsOutput{ContinuousBackupsDescription: &types.ContinuousBackupsDescription{
		ContinuousBackupsStatus:        types.ContinuousBackupsStatusEnabled,
		PointInTimeRecoveryDescription: &types.PointInTimeRecoveryDescription{PointInTimeRecoveryStatus: types.PointInTimeRecoveryStatusDisabled},
	}}, nil
}

// describeSetting validates a per-table settings request: the table must
// be named, valid and exist.
func (db *DB) describeSetting(ctx context.Context, op string, in any, name *string, shape string) error {
	if err := db.begin(ctx, op, in); err != nil {
		return wrapOp(op, err)
	}
	if name == nil {
		return wrapOp(op, missingParam(shape, "TableName"))
	}
	var ce constraintErrors
	db.checkTableName(&ce, *name, "tableName")
	if err := ce.err(); err != nil {
		return wrapOp(op, err)
	}
	if _, err := db.table(*name, controlLookup); err != nil {
		return wrapOp(op, err)
	}
	return nil
}
