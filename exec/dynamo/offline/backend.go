package offline

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// Backend is the offline DynamoDB over the sources Open prepared: a
// memdb.DB whose export and item-file tables are read from their files.
// Each request decides for itself: a Scan of a table not loaded yet
// streams the files (see stream.go), page after page, never holding the
// table; any other read of it (GetItem, BatchGetItem, Query) loads the
// table into the DB first, once, and from then on every request reads the
// loaded table. DescribeTable never loads: before loading it reports the
// item count an export's manifests give (else 0, which the planner shows
// as unknown) and no size.
type Backend struct {
	*memdb.DB
	fsys    fileSystem
	opts    Options
	lazy    map[string]*lazyTable // fixed after Open
	cursors cursors
	streams atomic.Int64 // streams opened (for tests)
	// boundaries: the point in time of each table with incremental
	// exports, in --data order (fixed after Open).
	boundaries []Boundary
}

// Boundaries says, for each table with incremental exports, which window
// boundary it shows (the last, or the one --as-of selected).
func (b *Backend) Boundaries() []Boundary { return append([]Boundary(nil), b.boundaries...) }

// lazyTable is a table that is streamed until it is loaded.
type lazyTable struct {
	ps       *plannedSource
	typeFrom []pos // where the key types were inferred

	mu     sync.Mutex  // held by a load
	loaded atomic.Bool // set once loaded, never cleared
	err    error       // the load's error, met again by every later load
	loads  int
}

func newBackend(db *memdb.DB, fsys fileSystem, opts Options) *Backend {
	return &Backend{DB: db, fsys: fsys, opts: opts, lazy: map[string]*lazyTable{}, cursors: cursors{m: map[cursorKey]*cursor{}}}
}

// Loaded reports whether table is held in the DB (a table that is not
// read from files always is).
func (b *Backend) Loaded(table string) bool {
	lt := b.lazy[table]
	if lt == nil {
		return true
	}
	return lt.loaded.Load()
}

// Loads counts the loads of the tables read from files.
func (b *Backend) Loads() int {
	n := 0
	seen := map[*lazyTable]bool{} // a chain's table and its $changes share one
	for _, lt := range b.lazy {
		if seen[lt] {
			continue
		}
		seen[lt] = true
		lt.mu.Lock()
		n += lt.loads
		lt.mu.Unlock()
	}
	return n
}

// LoadAll loads every table that is not loaded yet, in name order.
func (b *Backend) LoadAll(ctx context.Context) error {
	names := make([]string, 0, len(b.lazy))
	for n := range b.lazy {
		names = append(names, n)
	}
	sort.Strings(names)
	return b.ensure(ctx, names...)
}

// Close stops the streams still open.
func (b *Backend) Close() { b.cursors.closeAll() }

// ensureChain loads a table with incremental exports (and its $changes
// table) before a Scan: its items are known only once the changes are
// applied, so it is never streamed.
func (b *Backend) ensureChain(ctx context.Context, table string) error {
	if lt := b.lazy[table]; lt != nil && lt.ps.chain != nil {
		return b.load(ctx, lt)
	}
	return nil
}

// ensure loads the named tables that are read from files and not loaded.
func (b *Backend) ensure(ctx context.Context, tables ...string) error {
	for _, name := range tables {
		if lt := b.lazy[name]; lt != nil {
			if err := b.load(ctx, lt); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *Backend) load(ctx context.Context, lt *lazyTable) error {
	if lt.loaded.Load() {
		return nil
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if lt.loaded.Load() {
		return nil
	}
	if lt.err != nil {
		return lt.err
	}
	prog := NewProgress()
	prog.measure(b.fsys, lt.ps.src.Path)
	if c := lt.ps.chain; c != nil {
		for _, ie := range c.windows() {
			prog.measure(b.fsys, ie.src.Path)
		}
	}
	if b.opts.Loading != nil {
		done := b.opts.Loading(lt.ps.spec.name, prog)
		defer done()
	}
	l := &loader{ctx: ctx, db: b.DB, w: b.DB.Loader(), fsys: b.fsys, data: countedFS{fileSystem: b.fsys, p: prog}, prog: prog, claimed: map[string]string{}}
	spec := *lt.ps.spec
	s := l.sink(&spec).prepared(lt.typeFrom)
	err := l.run(lt.ps, s)
	if err == nil {
		err = s.finish()
	}
	lt.loads++
	if err != nil {
		b.empty(lt)
		if ctx.Err() == nil {
			lt.err = b.reword(err) // the files are as they were: the next load would fail the same way
		}
		return b.reword(err)
	}
	lt.loaded.Store(true)
	return nil
}

// empty drops what a failed load stored, keeping the table.
func (b *Backend) empty(lt *lazyTable) {
	ctx := context.Background()
	w := b.DB.Loader()
	_, _ = w.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(lt.ps.spec.name)})
	if in, err := lt.ps.spec.createInput(); err == nil {
		_, _ = w.CreateTable(ctx, in)
	}
	if c := lt.ps.chain; c != nil {
		emptyChanges(w, c)
	}
}

// reword passes a load error through Options.Reword.
func (b *Backend) reword(err error) error {
	if b.opts.Reword == nil || err == nil {
		return err
	}
	return b.opts.Reword(err)
}

// loadError is the load error a streamed request met (the diag.Error
// itself, not memdb's operation error around it), reworded; other errors
// pass through.
func (b *Backend) loadError(err error) error {
	var de *diag.Error
	if errors.As(err, &de) && de.Phase == diag.Load {
		return b.reword(de)
	}
	return err
}

// streamed is the table a Scan streams, or nil when the DB serves it: a
// table not loaded yet, or one loaded while this Scan was streaming it (a
// stream is kept at its start key), whose pages go on in the stream's
// order. A scan is never held up by a load.
func (b *Backend) streamed(in *dynamodb.ScanInput) *lazyTable {
	if in.TableName == nil || in.IndexName != nil {
		return nil
	}
	lt := b.lazy[*in.TableName]
	if lt == nil {
		return nil
	}
	if lt.loaded.Load() && !b.cursors.has(cursorKeyOf(lt, in)) {
		return nil
	}
	return lt
}

// cursorKeyOf is where a stream that in continues is kept.
func cursorKeyOf(lt *lazyTable, in *dynamodb.ScanInput) cursorKey {
	_, need := scanNeeds(in, lt.ps.spec.keys)
	return cursorKey{table: lt.ps.spec.name, segment: aws.ToInt32(in.Segment), total: aws.ToInt32(in.TotalSegments), after: keyID(in.ExclusiveStartKey), need: need}
}

// DescribeTable is the DB's, with an unloaded table's item count taken
// from its export's manifests.
func (b *Backend) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	out, err := b.DB.DescribeTable(ctx, in, opts...)
	if err != nil || out.Table == nil || in.TableName == nil {
		return out, err
	}
	if lt := b.lazy[*in.TableName]; lt != nil && !b.Loaded(*in.TableName) {
		out.Table.ItemCount = aws.Int64(0)
		if n := lt.ps.itemCount(); n != nil {
			out.Table.ItemCount = aws.Int64(*n)
		}
		out.Table.TableSizeBytes = aws.Int64(0)
	}
	return out, nil
}

// GetItem loads the table first.
func (b *Backend) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	if err := b.ensure(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	return b.DB.GetItem(ctx, in, opts...)
}

// BatchGetItem loads the tables first.
func (b *Backend) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	names := make([]string, 0, len(in.RequestItems))
	for n := range in.RequestItems {
		names = append(names, n)
	}
	sort.Strings(names)
	if err := b.ensure(ctx, names...); err != nil {
		return nil, err
	}
	return b.DB.BatchGetItem(ctx, in, opts...)
}

// Query loads the table first.
func (b *Backend) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	if err := b.ensure(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	return b.DB.Query(ctx, in, opts...)
}

// Scan streams a table not loaded yet; the DB serves the rest.
func (b *Backend) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	if err := b.ensureChain(ctx, aws.ToString(in.TableName)); err != nil {
		return nil, err
	}
	lt := b.streamed(in)
	if lt == nil {
		return b.DB.Scan(ctx, in, opts...)
	}
	return b.streamPage(in, lt, func(src memdb.ScanSource) (*dynamodb.ScanOutput, error) {
		return b.DB.ScanFeed(ctx, in, src)
	})
}

// streamPage serves one page of a streamed Scan through page: it
// continues the stream whose last page ended at the request's
// ExclusiveStartKey, or starts one, and keeps the stream for the next page
// while there is one.
func (b *Backend) streamPage(in *dynamodb.ScanInput, lt *lazyTable, page func(memdb.ScanSource) (*dynamodb.ScanOutput, error)) (*dynamodb.ScanOutput, error) {
	key := cursorKeyOf(lt, in)
	st := b.cursors.take(key)
	positioned := st != nil
	need, _ := scanNeeds(in, lt.ps.spec.keys)
	feed := &openingFeed{st: st, open: func() *stream {
		b.streams.Add(1)
		return openStream(b.DB, b.fsys, lt.ps, lt.typeFrom, need)
	}}
	out, err := page(memdb.ScanSource{Feed: feed, Positioned: positioned})
	if err != nil || out.LastEvaluatedKey == nil {
		feed.close()
		return out, b.loadError(err)
	}
	if feed.st != nil {
		key.after = keyID(out.LastEvaluatedKey)
		b.cursors.put(key, feed.st)
	}
	return out, nil
}

// openingFeed opens its stream when the first item is asked for, so that
// a request memdb rejects starts no reading.
type openingFeed struct {
	st   *stream
	open func() *stream
}

func (f *openingFeed) Next(ctx context.Context) (memdb.FedItem, bool, error) {
	if f.st == nil {
		f.st = f.open()
	}
	return f.st.Next(ctx)
}

func (f *openingFeed) close() {
	if f.st != nil {
		f.st.close()
	}
}
