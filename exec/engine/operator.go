package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/exec/spill"
)

// Operator produces record batches. Next returns io.EOF after the last batch.
type Operator interface {
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close() error
}

// Env is what operators share while running one statement.
type Env struct {
	Client dynamo.Client
	Mem    memory.Allocator
	Stats  *Stats
	// Concurrency bounds the DynamoDB requests in flight at once (IN
	// fan-out, BatchGetItem chunks); at least 1.
	Concurrency int
	// BatchRows caps the rows of batches built on the client.
	BatchRows int
	// Budget, when positive, is the most read capacity the statement may
	// consume (--max-rcu).
	Budget float64
	// Limiter paces the statement's reads (--rate-limit); nil: no limit.
	Limiter *RateLimiter
	// Analysis, when set, collects per-node figures (EXPLAIN ANALYZE).
	Analysis *Analysis
	// Raw, when set, decodes Query/Scan pages straight into Arrow batches.
	Raw rawpage.Reader
	// Memory is the statement's share of --memory-limit that blocking
	// operators reserve what they retain from; nil: no limit.
	Memory *spill.Budget
	// Spill is where those operators write what does not fit; nil: they
	// cannot spill and fail with spill.Exceeded instead.
	Spill *spill.Dir
	// ctes are the statement's materialized WITH queries (cte.go).
	ctes *cteStores
}

// reader is the environment of DynamoDB reads: this one's settings as they
// are now, and per-node statistics when EXPLAIN ANALYZE collects them.
func (e *Env) reader() *read.Env {
	r := &read.Env{Client: e.Client, Mem: e.Mem, Stats: e.Stats, Concurrency: e.Concurrency,
		BatchRows: e.BatchRows, Budget: e.Budget, Limiter: e.Limiter, Raw: e.Raw}
	if a := e.Analysis; a != nil {
		r.NodeStats = a.stats
	}
	return r
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
