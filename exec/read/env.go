package read

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/planner"
)

// Env is what the reads of one statement share.
type Env struct {
	Client dynamo.Client
	Mem    memory.Allocator
	Stats  *Stats
	// Concurrency bounds the DynamoDB requests in flight at once (IN
	// lists, lookups, BatchGetItem chunks); at least 1.
	Concurrency int
	// BatchRows caps the rows of batches built from items.
	BatchRows int
	// Budget, when positive, is the most read capacity the statement may
	// consume (--max-rcu).
	Budget float64
	// Limiter paces the statement's reads (--rate-limit); nil: no limit.
	Limiter *RateLimiter
	// Raw, when set, decodes Query/Scan pages straight into Arrow batches.
	Raw rawpage.Reader
	// NodeStats, when set, gives the statistics of one plan node, which
	// every response it sends is also recorded in (EXPLAIN ANALYZE).
	NodeStats func(planner.Node) *Stats
}

func (e *Env) concurrency() int {
	if e.Concurrency < 1 {
		return 8
	}
	return e.Concurrency
}

func (e *Env) batchRows() int {
	if e.BatchRows < 1 {
		return 4096
	}
	return e.BatchRows
}
