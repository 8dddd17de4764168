package rawpage

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Reader is the fast read path: it decodes Query and Scan responses
// straight into Arrow record batches instead of the SDK's item maps. The
// batch has one column per attribute present (key attributes first, then the
// rest in byte order), encoded as package columnar describes; it must hold
// exactly what the SDK path would produce. Errors must be the SDK's (so
// exec/read's DynamoError explains them).
type Reader interface {
	Query(ctx context.Context, in *dynamodb.QueryInput, mem memory.Allocator, keys []string) (*Page, error)
	Scan(ctx context.Context, in *dynamodb.ScanInput, mem memory.Allocator, keys []string) (*Page, error)
}

// Page is one decoded response; the caller owns Batch (nil for Select=COUNT).
type Page struct {
	Batch            arrow.RecordBatch
	LastEvaluatedKey map[string]types.AttributeValue
	Count            int32
	ScannedCount     int32
	ConsumedCapacity *types.ConsumedCapacity
}
