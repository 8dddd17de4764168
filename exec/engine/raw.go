package engine

import (
	"context"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
)

// rawNext reads the next page through the fast path.
func (p *pager) rawNext(ctx context.Context) (page, error) {
	in := p.env.Raw
	var (
		rp  *rawpage.Page
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
