package read

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// The Limit rule of a request template (planner/doc.go states it too): a
// request's Limit, set only when the statement needs at most that many
// items from it (no filter, order satisfied by the key), is the request's
// total over all its pages, not a page's. Each page asks for what remains:
// DynamoDB stops a page at 1 MB, so a Limit larger than a page's worth
// would otherwise be asked again on the next page, and DynamoDB would
// read, and bill, up to Limit more items. The request is done once Limit
// items have been read.

// remaining is the Limit for the next page: what is left of the request's.
func (p *pager) remaining() *int32 {
	limit := p.req.limit()
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
	limit := p.req.limit()
	p.done = len(lek) == 0 || (limit != nil && p.read >= int64(*limit))
	if p.done && p.req.segment() {
		p.env.Stats.segmentDone()
	}
}
