package memdb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/planner/value"
)

// The JSON read path: a Query or Scan page rendered as the body DynamoDB
// would send, {"Items":[…]}, so that a wire decoder turns it straight into
// columns and no SDK item maps are built. Everything else (validation,
// paging, capacity, errors, the request hook and counters) is the SDK
// path's own; only the items' form differs.

// QueryJSON is Query with the page's items appended to dst as a response
// body {"Items":[…]} (nothing for Select=COUNT); the output's Items is nil
// and the rest is what Query returns.
func (db *DB) QueryJSON(ctx context.Context, in *dynamodb.QueryInput, dst []byte) (*dynamodb.QueryOutput, []byte, error) {
	body := dst
	out, err := serve(ctx, db, "Query", in, func(in *dynamodb.QueryInput) (*dynamodb.QueryOutput, error) {
		return db.queryInto(in, &body)
	})
	return out, body, err
}

// ScanJSON is Scan with the page's items appended to dst as a response
// body, as QueryJSON.
func (db *DB) ScanJSON(ctx context.Context, in *dynamodb.ScanInput, dst []byte) (*dynamodb.ScanOutput, []byte, error) {
	body := dst
	out, err := serve(ctx, db, "Scan", in, func(in *dynamodb.ScanInput) (*dynamodb.ScanOutput, error) {
		return db.scanInto(in, &body)
	})
	return out, body, err
}

// renderJSON applies the filter and projection and appends the items that
// pass to *dst as a body; it returns their count.
func (pg *page) renderJSON(dst *[]byte) int {
	b := append(*dst, '{')
	if !pg.req.count {
		b = append(b, `"Items":[`...)
	}
	count := 0
	needed := pg.req.needed()
	for _, it := range pg.read {
		a := it.only(needed)
		if pg.req.filter != nil && !pg.req.filter.eval(a) {
			continue
		}
		if !pg.req.count {
			if count > 0 {
				b = append(b, ',')
			}
			b = appendAttrsJSON(b, project(a, pg.req.projection))
		}
		count++
	}
	if !pg.req.count {
		b = append(b, ']')
	}
	*dst = append(b, '}')
	return count
}

// appendAttrsJSON renders an item as a DynamoDB-JSON object, attributes in
// name order.
func appendAttrsJSON(dst []byte, a attrs) []byte {
	dst = append(dst, '{')
	for i, at := range a {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = value.AppendJSON(dst, value.Str(at.name))
		dst = append(dst, ':')
		dst = value.AppendDynamoJSON(dst, at.val)
	}
	return append(dst, '}')
}
