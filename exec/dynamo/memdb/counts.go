package memdb

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DescribeTable's ItemCount and size figures (the table's and each
// index's) are live by default. DynamoDB refreshes them only about every
// six hours, so a new or freshly loaded table reports 0 items and 0 bytes
// for hours. WithLaggingCounts reproduces that, for callers that must cope
// with stale figures: DescribeTable then reports the figures as of the last
// RefreshCounts, and 0 before the first.

// WithLaggingCounts makes DescribeTable report the counts and sizes as of
// the last RefreshCounts (0 until then), as DynamoDB does between its
// periodic refreshes.
func WithLaggingCounts() Option { return func(db *DB) { db.laggingCounts = true } }

// reportedCounts are the figures DescribeTable shows with lagging counts.
type reportedCounts struct {
	items, bytes int
	indexes      map[string][2]int // index name → items, bytes
}

// RefreshCounts makes DescribeTable report every table's current counts
// and sizes, as DynamoDB's periodic refresh does. Without
// WithLaggingCounts the figures are always current and this changes
// nothing.
func (db *DB) RefreshCounts() {
	db.mu.RLock()
	defer db.mu.RUnlock()
	for _, t := range db.tables {
		t.mu.Lock()
		rc := &reportedCounts{items: t.base.count, bytes: t.base.bytes, indexes: map[string][2]int{}}
		for _, ix := range t.indexes {
			rc.indexes[ix.name] = [2]int{ix.space.count, ix.space.bytes}
		}
		t.reported = rc
		t.mu.Unlock()
	}
}

// showReported replaces the live figures of d with those of the last
// refresh (zero before the first).
func (t *table) showReported(d *types.TableDescription) {
	rc := t.reported
	if rc == nil {
		rc = &reportedCounts{}
	}
	d.ItemCount, d.TableSizeBytes = aws.Int64(int64(rc.items)), aws.Int64(int64(rc.bytes))
	for i := range d.GlobalSecondaryIndexes {
		g := &d.GlobalSecondaryIndexes[i]
		f := rc.indexes[aws.ToString(g.IndexName)]
		g.ItemCount, g.IndexSizeBytes = aws.Int64(int64(f[0])), aws.Int64(int64(f[1]))
	}
	for i := range d.LocalSecondaryIndexes {
		l := &d.LocalSecondaryIndexes[i]
		f := rc.indexes[aws.ToString(l.IndexName)]
		l.ItemCount, l.IndexSizeBytes = aws.Int64(int64(f[0])), aws.Int64(int64(f[1]))
	}
}
