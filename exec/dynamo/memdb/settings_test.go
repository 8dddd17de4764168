package memdb

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestSettingsCalls: TTL and point-in-time recovery are reported off for
// an existing table, a missing table is ResourceNotFound, and a stream
// asked for at CreateTable is reported by DescribeTable.
func TestSettingsCalls(t *testing.T) {
	db := New()
	in := tableDef("tbl", "pk:S")
	in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}
	if _, err := db.CreateTable(ctx, in); err != nil {
		t.Fatal(err)
	}
	ttl, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("tbl")})
	if err != nil || ttl.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusDisabled {
		t.Errorf("DescribeTimeToLive: %+v, %v", ttl, err)
	}
	cb, err := db.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("tbl")})
	if err != nil || cb.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusDisabled {
		t.Errorf("DescribeContinuousBackups: %+v, %v", cb, err)
	}
	d, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	if err != nil || d.Table.StreamSpecification == nil || d.Table.StreamSpecification.StreamViewType != types.StreamViewTypeKeysOnly {
		t.Errorf("DescribeTable stream: %+v, %v", d.Table.StreamSpecification, err)
	}
	var rnf *types.ResourceNotFoundException
	if _, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("nope")}); !errors.As(err, &rnf) {
		t.Errorf("DescribeTimeToLive of a missing table: %v", err)
	}
	if _, err := db.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("nope")}); !errors.As(err, &rnf) {
		t.Errorf("DescribeContinuousBackups of a missing table: %v", err)
	}
	if _, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{}); err == nil {
		t.Error("DescribeTimeToLive without TableName succeeded")
	}
}
