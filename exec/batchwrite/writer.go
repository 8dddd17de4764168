package batchwrite

import (
	"context"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
)

// Client is the one DynamoDB call the writer makes; *dynamodb.Client,
// dynamo.Writer and the in-process backend satisfy it.
type Client interface {
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

// Pacer paces requests by the capacity they consume (--rate-limit);
// *read.RateLimiter is one.
type Pacer interface {
	Wait(ctx context.Context) error
	Book(units float64)
}

// Options configure a Writer.
type Options struct {
	// Keys are the table's key attribute names, partition key first.
	Keys []string
	// Concurrency is how many requests may be in flight (default 4).
	Concurrency int
	// Pacer, when set, is waited on before every request and charged with
	// what each response consumed.
	Pacer Pacer
	// Capacity is the ReturnConsumedCapacity asked for: INDEXES (the
	// default) or TOTAL.
	Capacity types.ReturnConsumedCapacity
	// MaxRounds bounds how often one request's UnprocessedItems are
	// re-sent before they are reported unwritten (default 20: with the
	// backoff's 5 s ceiling, over a minute of throttling).
	MaxRounds int
	// MaxBackoff caps the wait between rounds (default 5 s).
	MaxBackoff time.Duration
}

// Request limits (API_BatchWriteItem): 25 put requests and 16 MB.
const (
	maxItems = ddblimits.BatchWriteItems
	// maxBytes leaves room under the 16 MB for the request's JSON framing
	// (names, type tags, quotes, base64), which item sizes do not count.
	maxBytes = 12 * 1024 * 1024
)

// Writer puts items into one table with BatchWriteItem. It is safe for
// concurrent use; see the package documentation for its guarantees.
type Writer struct {
	client Client
	table  string
	opts   Options

	mu       sync.Mutex
	changed  *sync.Cond // a request finished: in-flight keys and counts moved
	cur      *batch
	curKeys  map[string]int // key identity -> index in cur.entries
	inflight map[string]int // key identities of dispatched, unfinished batches
	queue    chan *batch
	workers  sync.WaitGroup
	running  int // batches dispatched and not finished

	seq       int64
	done      map[int64]bool // finished sequence numbers above the watermark
	confirmed int64          // every put below this sequence number is written
	res       Result
	failed    error // the first request that failed for good
	unwritten []unwrittenKey
}

// unwrittenKey is a key not written and the number of its first put, to
// list keys in the order they were put.
type unwrittenKey struct {
	seq int64
	key Key
}

// New returns a writer for table. opts.Keys must name the key schema.
func New(client Client, table string, opts Options) *Writer {
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	if opts.Capacity == "" {
		opts.Capacity = types.ReturnConsumedCapacityIndexes
	}
	if opts.MaxRounds <= 0 {
		opts.MaxRounds = 20
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = 5 * time.Second
	}
	w := &Writer{client: client, table: table, opts: opts, curKeys: map[string]int{}, inflight: map[string]int{}, done: map[int64]bool{}}
	w.changed = sync.NewCond(&w.mu)
	w.res.Indexes = map[string]float64{}
	return w
}

// entry is one key's put in a batch: the last item put for it, and the
// sequence numbers of every put it stands for.
type entry struct {
	id   string
	key  Key
	item Item
	size int64
	seqs []int64
}

type batch struct {
	ctx     context.Context
	entries []*entry
	size    int64
}
