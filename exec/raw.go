package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// RawReader is the fast read path: it decodes Query and Scan responses
// straight into Arrow record batches instead of the SDK's item maps. The
// batch has one column per attribute present (key attributes first, then the
// rest in byte order), encoded as package columnar describes; it must hold
// exactly what the SDK path would produce. Errors must be the SDK's (so
// DynamoError explains them).
type RawReader interface {
	Query(ctx context.Context, in *dynamodb.QueryInput, mem memory.Allocator, keys []string) (*RawPage, error)
	Scan(ctx context.Context, in *dynamodb.ScanInput, mem memory.Allocator, keys []string) (*RawPage, error)
}

// RawPage is one decoded response; the caller owns Batch (nil for Select=COUNT).
type RawPage struct {
	Batch            arrow.RecordBatch
	LastEvaluatedKey map[string]types.AttributeValue
	Count            int32
	ScannedCount     int32
	ConsumedCapacity *types.ConsumedCapacity
}

// rawNext reads the next page through the fast path.
func (p *pager) rawNext(ctx context.Context) (page, error) {
	in := p.env.Raw
	var (
		rp  *RawPage
		err error
	)
	if p.query != nil {
		q := *p.query
		q.ExclusiveStartKey = p.startKey
		q.Limit = p.remaining(q.Limit)
		rp, err = in.Query(ctx, &q, p.env.Mem, p.keys)
	} else {
		s := *p.scan
		s.ExclusiveStartKey = p.startKey
		s.Limit = p.remaining(s.Limit)
		rp, err = in.Scan(ctx, &s, p.env.Mem, p.keys)
	}
	if err != nil {
		p.env.failedRequest(p.node, p.op())
		return page{}, DynamoError(p.op(), err)
	}
	r := Response{Op: p.op(), Read: int64(rp.ScannedCount), Returned: int64(rp.Count), Page: true, Capacity: capacityOf(rp.ConsumedCapacity)}
	if err := p.env.afterResponse(p.node, r); err != nil {
		if rp.Batch != nil {
			rp.Batch.Release()
		}
		return page{}, err
	}
	p.advance(rp.LastEvaluatedKey, rp.ScannedCount)
	return page{rec: rp.Batch, count: int64(rp.Count), scanned: int64(rp.ScannedCount)}, nil
}

// qualifyBatch renames a batch's columns to QualifiedName(source, attr) for
// joined rows; with source < 0 it returns the batch unchanged.
func qualifyBatch(rec arrow.RecordBatch, source int) arrow.RecordBatch {
	if source < 0 {
		return rec
	}
	fields := rec.Schema().Fields()
	for i := range fields {
		fields[i].Name = QualifiedName(source, fields[i].Name)
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), rec.Columns(), rec.NumRows())
	rec.Release()
	return out
}
