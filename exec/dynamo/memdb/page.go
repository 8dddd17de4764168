package memdb

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// A Query or Scan page: items are read in key order until Limit items or
// 1 MB (page size) have been read; then the filter and projection apply to
// what was read. Capacity is billed on everything read (before the filter,
// whatever the projection or Select), following DynamoDB's documented rules:
//
//   - the items read from the table, or the entries read from an index, are
//     one read: their sizes are summed and rounded up to 4 KB once per page;
//   - a page that reads nothing still costs the minimum, one 4 KB unit
//     ("Queries that do not return results consume the minimum read
//     capacity units according to the type of read");
//   - an LSI read that fetches non-projected attributes is also charged,
//     to the table, for every item fetched, each rounded up to 4 KB on its
//     own (the LSI guide: "you are charged for read capacity units for every
//     base table item fetched", "each item individually rounded up to the
//     next 4 KB").
//
// dynalite charges nothing for an empty page and rounds fetched items as
// one sum; memdb follows the rules above (see capacity_test.go).

type pageReq struct {
	t          *table
	ix         *index // nil: the base table
	filter     *cond
	projection []value.Path
	count      bool // Select=COUNT
	fetch      bool // LSI with Select=ALL_ATTRIBUTES on a partial projection
	limit      int
	consistent bool
	capacity   types.ReturnConsumedCapacity
	body       *[]byte // set: render the items as a DynamoDB-JSON body (see QueryJSON)
}

type page struct {
	req        *pageReq
	read       []*item
	size       int
	tableBytes int // items read from the base table (a table read)
	indexBytes int // entries read from the index (an index read)
	fetchUnits int // 4 KB units of the items an LSI read fetched, each rounded alone
}

// full reports whether the page has reached Limit or 1 MB.
func (pg *page) full() bool {
	return (pg.req.limit > 0 && len(pg.read) >= pg.req.limit) || pg.size >= ddblimits.PageBytes
}

// take reads one entry into the page; false when the page was already full.
func (pg *page) take(e *entry) bool {
	if pg.full() {
		return false
	}
	it := e.it
	switch {
	case pg.req.ix == nil:
		pg.tableBytes += it.size
	case pg.req.fetch:
		pg.indexBytes += it.size
		if base := pg.req.t.lookup(it.attrs()); base != nil {
			it = base
			pg.fetchUnits += units4KB(it.size)
		}
	default:
		pg.indexBytes += it.size
	}
	pg.size += it.psize
	pg.read = append(pg.read, it)
	return true
}

// lastKey is the LastEvaluatedKey: the table keys (and, for an index, the
// index keys) of the last item read, when the page stopped early.
func (pg *page) lastKey() map[string]types.AttributeValue {
	if !pg.full() || len(pg.read) == 0 {
		return nil
	}
	last := pg.read[len(pg.read)-1].attrs()
	names := pg.req.t.keyNames()
	if ix := pg.req.ix; ix != nil {
		names = append(names, ix.hashAttr, ix.rangeAttr)
	}
	key := map[string]types.AttributeValue{}
	for _, n := range names {
		if v, ok := last.get(n); ok && n != "" {
			key[n] = v.AttributeValue()
		}
	}
	return key
}

// results applies the filter and projection.
func (pg *page) results() (items []map[string]types.AttributeValue, count int) {
	if pg.req.body != nil {
		return nil, pg.renderJSON(pg.req.body)
	}
	needed := pg.req.needed()
	for _, it := range pg.read {
		a := it.only(needed)
		if pg.req.filter != nil && !pg.req.filter.eval(a) {
			continue
		}
		count++
		if !pg.req.count {
			items = append(items, toSDK(project(a, pg.req.projection)))
		}
	}
	if !pg.req.count && items == nil {
		items = []map[string]types.AttributeValue{}
	}
	return items, count
}

// needed is the top-level attributes the page's results read: with a
// projection, those it and the filter name; otherwise all (nil). A COUNT
// reads only what its filter names.
func (r *pageReq) needed() map[string]bool {
	if r.projection == nil && !r.count {
		return nil
	}
	n := topNames(r.projection, condPaths(r.filter))
	if n == nil {
		n = map[string]bool{}
	}
	return n
}

// consumed reports the page's read capacity: what it read from the table
// or the index rounded up to 4 KB once (at least one unit), plus an LSI's
// fetched items, charged to the table.
func (pg *page) consumed() *types.ConsumedCapacity {
	r := pg.req
	if r.capacity != types.ReturnConsumedCapacityTotal && r.capacity != types.ReturnConsumedCapacityIndexes {
		return nil
	}
	var tableUnits, indexUnits float64
	if r.ix == nil {
		tableUnits = readUnits(max(pg.tableBytes, 1), r.consistent)
	} else {
		indexUnits = readUnits(max(pg.indexBytes, 1), r.consistent)
		tableUnits = unitsCost(pg.fetchUnits, r.consistent)
	}
	cc := &types.ConsumedCapacity{TableName: aws.String(r.t.name), CapacityUnits: aws.Float64(tableUnits + indexUnits)}
	if r.capacity == types.ReturnConsumedCapacityIndexes {
		cc.Table = &types.Capacity{CapacityUnits: aws.Float64(tableUnits)}
		if r.ix != nil {
			m := map[string]types.Capacity{r.ix.name: {CapacityUnits: aws.Float64(indexUnits)}}
			if r.ix.global {
				cc.GlobalSecondaryIndexes = m
			} else {
				cc.LocalSecondaryIndexes = m
			}
		}
	}
	return cc
}
