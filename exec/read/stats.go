package read

import (
	"sort"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Stats counts what one statement asked of DynamoDB and what it cost.
type Stats struct {
	mu            sync.Mutex
	start         time.Time
	elapsed       time.Duration
	requests      map[string]int     // by operation
	pages         int                // Query/Scan responses
	itemsRead     int64              // items DynamoDB read (ScannedCount; items returned by Get/BatchGet)
	itemsReturned int64              // items DynamoDB returned to ddbsql
	rcu           float64            // total consumed read capacity
	byTarget      map[string]float64 // "table" or "table/index" → capacity
	rows          int64              // rows the statement produced
	segmentsDone  int                // parallel Scan segments read to the end
}

// NewStats starts the clock.
func NewStats() *Stats {
	return &Stats{start: time.Now(), requests: map[string]int{}, byTarget: map[string]float64{}}
}

// tally is what one DynamoDB response adds to the statistics.
type tally struct {
	Op             string // "GetItem", "BatchGetItem", "Query" or "Scan"
	Read, Returned int64  // items read (before any filter) and returned
	Page           bool   // a Query or Scan page, counted in the pages
	Capacity       []types.ConsumedCapacity
}

// capacityOf lists a single response's ConsumedCapacity, if any.
func capacityOf(c *types.ConsumedCapacity) []types.ConsumedCapacity {
	if c == nil {
		return nil
	}
	return []types.ConsumedCapacity{*c}
}

// record counts one DynamoDB response.
func (s *Stats) record(r tally) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[r.Op]++
	if r.Page {
		s.pages++
	}
	s.itemsRead += r.Read
	s.itemsReturned += r.Returned
	for _, c := range r.Capacity {
		s.addCapacity(c)
	}
}

// recordFailure counts a request that failed.
func (s *Stats) recordFailure(op string) { s.record(tally{Op: op}) }

func (s *Stats) addCapacity(c types.ConsumedCapacity) {
	table := ""
	if c.TableName != nil {
		table = *c.TableName
	}
	if c.CapacityUnits != nil {
		s.rcu += *c.CapacityUnits
	}
	if c.Table != nil && c.Table.CapacityUnits != nil && *c.Table.CapacityUnits > 0 {
		s.byTarget[table] += *c.Table.CapacityUnits
	}
	for name, cap := range c.GlobalSecondaryIndexes {
		if cap.CapacityUnits != nil {
			s.byTarget[table+"/"+name] += *cap.CapacityUnits
		}
	}
	for name, cap := range c.LocalSecondaryIndexes {
		if cap.CapacityUnits != nil {
			s.byTarget[table+"/"+name] += *cap.CapacityUnits
		}
	}
	if c.Table == nil && len(c.GlobalSecondaryIndexes) == 0 && len(c.LocalSecondaryIndexes) == 0 && c.CapacityUnits != nil {
		s.byTarget[table] += *c.CapacityUnits
	}
}

// segmentDone counts a Scan segment read to its end.
func (s *Stats) segmentDone() {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.segmentsDone++
	s.mu.Unlock()
}

// AddRows counts output rows.
func (s *Stats) AddRows(n int64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.rows += n
	s.mu.Unlock()
}

// Finish stops the clock.
func (s *Stats) Finish() {
	s.mu.Lock()
	s.elapsed = time.Since(s.start)
	s.mu.Unlock()
}

// Snapshot is a consistent copy of the counters.
type Snapshot struct {
	Requests      map[string]int
	Pages         int
	ItemsRead     int64
	ItemsReturned int64
	RCU           float64
	ByTarget      map[string]float64
	Rows          int64
	Elapsed       time.Duration
	SegmentsDone  int
}

// TotalRequests sums requests over operations.
func (s Snapshot) TotalRequests() int {
	n := 0
	for _, c := range s.Requests {
		n += c
	}
	return n
}

// Operations lists operation names in a stable order.
func (s Snapshot) Operations() []string {
	ops := make([]string, 0, len(s.Requests))
	for op := range s.Requests {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}

// Snapshot copies the counters.
func (s *Stats) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	elapsed := s.elapsed
	if elapsed == 0 {
		elapsed = time.Since(s.start)
	}
	snap := Snapshot{Requests: map[string]int{}, Pages: s.pages, ItemsRead: s.itemsRead, ItemsReturned: s.itemsReturned,
		RCU: s.rcu, ByTarget: map[string]float64{}, Rows: s.rows, Elapsed: elapsed, SegmentsDone: s.segmentsDone}
	for k, v := range s.requests {
		snap.Requests[k] = v
	}
	for k, v := range s.byTarget {
		snap.ByTarget[k] = v
	}
	return snap
}
