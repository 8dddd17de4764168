package memdb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Streamed scans: a table whose items are not stored but read from
// elsewhere (a file, in file order) is scanned page by page with the same
// request checks, expression evaluation, page limits, capacity and answer
// as a stored table; only where the items come from differs. The table
// exists in the DB (its key schema, for the checks), usually empty.

// FedItem is one item checked as PutItem would check it, in the compact
// stored form, but not stored: what a streamed Scan reads.
type FedItem struct {
	it     *item
	hk, rk string // encoded table keys, to find an ExclusiveStartKey
	bucket int    // placement bucket of the partition key (Scan segments)
}

// Feed supplies a streamed Scan's items in order; ok is false at the end.
// An error ends the Scan page with that error, as it is.
type Feed interface {
	Next(ctx context.Context) (it FedItem, ok bool, err error)
}

// ScanSource is where a streamed Scan page reads: Feed, positioned right
// after the request's ExclusiveStartKey when Positioned (a continued
// stream), or at the start of the segment's items otherwise (the page then
// skips the items up to and including the ExclusiveStartKey's).
type ScanSource struct {
	Feed       Feed
	Positioned bool
}

// Checker returns a function that checks an item as PutValues does,
// without storing it, and returns its compact form; it is safe for
// concurrent use (items are checked against the table's key schema, which
// does not change).
func (l *Loader) Checker(table string) (func([]NamedValue, Skipped) (FedItem, error), error) {
	t, err := l.db.table(table, dataLookup)
	if err != nil {
		return nil, wrapOp("PutItem", err)
	}
	return func(nv []NamedValue, sk Skipped) (FedItem, error) {
		a, size, err := checkNewValueItemSkipping(nv, sk)
		if err == nil {
			err = t.checkItem(a)
		}
		if err != nil {
			return FedItem{}, wrapOp("PutItem", err)
		}
		hk, e := t.baseEntry(a)
		it := &item{enc: encodeAttrs(a), size: size, psize: pageSizeWith(a, t.rangeAttr, sk.Page)}
		return FedItem{it: it, hk: hk, rk: e.rk,
			bucket: bucket(hashPrefix(a.val(t.hashAttr), value.MissingValue()))}, nil
	}, nil
}

// ScanFeed is Scan reading the table's items from src instead of the store.
func (db *DB) ScanFeed(ctx context.Context, in *dynamodb.ScanInput, src ScanSource) (*dynamodb.ScanOutput, error) {
	return serve(ctx, db, "Scan", in, func(in *dynamodb.ScanInput) (*dynamodb.ScanOutput, error) {
		return db.scanFrom(ctx, in, nil, &src)
	})
}

// ScanFeedJSON is ScanFeed with the page's items rendered as a body, as
// ScanJSON.
func (db *DB) ScanFeedJSON(ctx context.Context, in *dynamodb.ScanInput, src ScanSource, dst []byte) (*dynamodb.ScanOutput, []byte, error) {
	body := dst
	out, err := serve(ctx, db, "Scan", in, func(in *dynamodb.ScanInput) (*dynamodb.ScanOutput, error) {
		return db.scanFrom(ctx, in, &body, &src)
	})
	return out, body, err
}

// runFeed reads the segment's items from src into the page until it is
// full or the feed ends.
func (s *scanPlan) runFeed(ctx context.Context, pg *page, src *ScanSource) error {
	skipping := s.start != nil && !src.Positioned
	for !pg.full() {
		fi, ok, err := src.Feed.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if fi.bucket < s.loBucket || fi.bucket > s.hiBucket {
			continue
		}
		if skipping {
			if fi.hk == s.startPart.hk && fi.rk == s.start.rk {
				skipping = false
			}
			continue
		}
		pg.take(&entry{it: fi.it})
	}
	return nil
}
