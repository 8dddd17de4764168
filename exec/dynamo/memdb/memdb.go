package memdb

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DB is an in-process DynamoDB. It implements dynamo.Client and
// dynamo.Writer (asserted in the tests: memdb does not import exec/dynamo,
// so exec/dynamo may build on it) and is safe for concurrent use.
type DB struct {
	mu     sync.RWMutex // guards tables
	tables map[string]*table

	readOnly      atomic.Bool
	hook          RequestHook
	unprocessed   UnprocessedFunc
	laggingCounts bool // DescribeTable reports counts as of RefreshCounts

	requests  sync.Map // op name -> *atomic.Int64
	itemsRead atomic.Int64
}

// RequestHook is called at the start of every request with the operation
// name ("Query", "PutItem", …) and its input. A non-nil error fails the
// request with that error, before any validation.
type RequestHook func(ctx context.Context, op string, input any) error

// UnprocessedFunc decides, for each key of a BatchGetItem request, whether
// to leave it unprocessed (returned in UnprocessedKeys, not read or billed).
// It lets callers test their retry logic; DynamoDB does this under load.
type UnprocessedFunc func(table string, key map[string]types.AttributeValue) bool

// Option configures a DB.
type Option func(*DB)

// ReadOnly makes the DB reject writes (CreateTable, DeleteTable, PutItem,
// BatchWriteItem) with ErrReadOnly. Loaders fill a read-only DB through
// Loader(), or build it writable and call Freeze.
func ReadOnly() Option { return func(db *DB) { db.readOnly.Store(true) } }

// WithRequestHook installs a hook called at the start of every request.
func WithRequestHook(h RequestHook) Option { return func(db *DB) { db.hook = h } }

// WithUnprocessedKeys makes BatchGetItem leave the keys f selects
// unprocessed.
func WithUnprocessedKeys(f UnprocessedFunc) Option { return func(db *DB) { db.unprocessed = f } }

// New returns an empty DB.
func New(opts ...Option) *DB {
	db := &DB{tables: map[string]*table{}}
	for _, o := range opts {
		o(db)
	}
	return db
}

// Freeze makes the DB read-only from now on (for loaded exports).
func (db *DB) Freeze() { db.readOnly.Store(true) }

// Thaw allows writes again after Freeze (ddbsql's write statements on
// --demo and --data tables, which change them in memory only).
func (db *DB) Thaw() { db.readOnly.Store(false) }

// IsReadOnly reports whether writes are rejected.
func (db *DB) IsReadOnly() bool { return db.readOnly.Load() }

// Loader returns a writer (a dynamo.Writer) that writes even when the DB
// is read-only: the one door for loaders of read-only data.
func (db *DB) Loader() *Loader { return &Loader{db} }

// Requests returns how many requests of operation op were made ("" counts
// all operations).
func (db *DB) Requests(op string) int64 {
	if op != "" {
		if c, ok := db.requests.Load(op); ok {
			return c.(*atomic.Int64).Load()
		}
		return 0
	}
	var n int64
	db.requests.Range(func(_, c any) bool {
		n += c.(*atomic.Int64).Load()
		return true
	})
	return n
}

// ItemsRead returns how many stored items (or index entries) Query, Scan,
// GetItem and BatchGetItem have read in total: the work done, which a
// Query keeps to its own partition.
func (db *DB) ItemsRead() int64 { return db.itemsRead.Load() }

// ResetStats zeroes the request and item counters.
func (db *DB) ResetStats() {
	db.requests.Range(func(k, _ any) bool {
		db.requests.Delete(k)
		return true
	})
	db.itemsRead.Store(0)
}

// serve answers one request the way every operation starts and ends:
// begin, then do, with errors wrapped as the SDK wraps them.
func serve[I any, O any](ctx context.Context, db *DB, op string, in I, do func(I) (*O, error)) (*O, error) {
	if err := db.begin(ctx, op, in); err != nil {
		return nil, wrapOp(op, err)
	}
	out, err := do(in)
	return out, wrapOp(op, err)
}

// serveWrite is serve for writes, through beginWrite.
func serveWrite[I any, O any](ctx context.Context, db *DB, op string, in I, mode writeMode, do func(I) (*O, error)) (*O, error) {
	if err := db.beginWrite(ctx, op, in, mode); err != nil {
		return nil, wrapOp(op, err)
	}
	out, err := do(in)
	return out, wrapOp(op, err)
}

// begin counts a request, checks the context and runs the hook.
func (db *DB) begin(ctx context.Context, op string, input any) error {
	c, _ := db.requests.LoadOrStore(op, new(atomic.Int64))
	c.(*atomic.Int64).Add(1)
	if err := ctx.Err(); err != nil {
		return err
	}
	if db.hook != nil {
		return db.hook(ctx, op, input)
	}
	return nil
}

// writeMode says whether a write honours read-only mode.
type writeMode int

const (
	// honourReadOnly: the DB's own writers, refused on a read-only DB.
	honourReadOnly writeMode = iota
	// bypassReadOnly: the Loader's writers, which load a read-only DB.
	bypassReadOnly
)

// beginWrite is begin for writes, which a read-only DB refuses unless the
// mode bypasses it.
func (db *DB) beginWrite(ctx context.Context, op string, input any, mode writeMode) error {
	if err := db.begin(ctx, op, input); err != nil {
		return err
	}
	if mode == honourReadOnly && db.readOnly.Load() {
		return ErrReadOnly
	}
	return nil
}

// table returns the named table or ResourceNotFoundException.
func (db *DB) table(name string, by lookup) (*table, error) {
	db.mu.RLock()
	t := db.tables[name]
	db.mu.RUnlock()
	if t == nil {
		return nil, notFound(name, by)
	}
	return t, nil
}

// tableNames returns the table names in byte order.
func (db *DB) tableNames() []string {
	db.mu.RLock()
	defer db.mu.RUnlock()
	names := make([]string, 0, len(db.tables))
	for n := range db.tables {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
