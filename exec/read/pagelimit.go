package read

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// A request's Limit (set only when the statement needs at most that many
// items from it: no filter, order satisfied by the key) bounds the items
// read over all its pages, not per page. DynamoDB stops a page at 1 MB, so
// a Limit larger than a page's worth would otherwise be asked again on the
// next page, and DynamoDB would read, and bill, up to Limit more items.

// remaining is the Limit for the next page: what is left of the request's.
func (p *pager) remaining(limit *int32) *int32 {
	if limit == nil {
		return nil
	}
	left := *limit - int32(min(p.read, int64(*limit)))
	return &left
}

// advance records a response: where the next page starts, and whether the
// request is done (no LastEvaluatedKey, or its Limit has been read).
func (p *pager) advance(lek map[string]types.AttributeValue, scanned int32) {
	p.startKey = lek
	p.read += int64(scanned)
	var limit *int32
	if p.query != nil {
		limit = p.query.Limit
	} else {
		limit = p.scan.Limit
	}
	p.done = len(lek) == 0 || (limit != nil && p.read >= int64(*limit))
	if p.done && p.scan != nil && p.scan.TotalSegments != nil {
		p.env.Stats.SegmentDone()
	}
}
