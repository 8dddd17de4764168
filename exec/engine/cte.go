package engine

import (
	"context"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// A WITH query read several times runs once: the With operator registers
// a store per materialized query in the statement's Env before it builds
// the statement; the first CTE scan to ask for rows fills the store by
// running the query to its end, and every scan replays what it holds. The
// store keeps batches within Env.Memory and writes the rest, in order, to
// one spill run; with no spill directory it fails with spill.Exceeded. A
// query nobody reads is never built, so it sends no request.

// cteStores are a statement's materialized WITH queries.
type cteStores struct {
	mu     sync.Mutex
	stores map[*planner.Materialize]*cteStore
}

func (env *Env) cteStore(n *planner.Materialize) *cteStore {
	if env.ctes == nil {
		return nil
	}
	env.ctes.mu.Lock()
	defer env.ctes.mu.Unlock()
	return env.ctes.stores[n]
}

func (env *Env) addCTEStore(n *planner.Materialize, s *cteStore) {
	if env.ctes == nil {
		env.ctes = &cteStores{stores: map[*planner.Materialize]*cteStore{}}
	}
	env.ctes.mu.Lock()
	defer env.ctes.mu.Unlock()
	env.ctes.stores[n] = s
}

// cteStore holds the rows of one materialized query.
type cteStore struct {
	env  *Env
	node *planner.Materialize
	open func() (Operator, error)

	mu       sync.Mutex // held while filling
	filled   bool
	err      error
	batches  []arrow.RecordBatch // the first rows, in memory
	reserved int64
	run      *spill.Run // the rows after them, past the memory limit
}

// fill runs the query to its end once; later calls return its outcome.
func (s *cteStore) fill(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.filled {
		return s.err
	}
	s.filled = true
	s.err = s.read(ctx)
	return s.err
}

func (s *cteStore) read(ctx context.Context) error {
	op, err := s.open()
	if err != nil {
		return err
	}
	defer op.Close()
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := s.keep(b); err != nil {
			return err
		}
	}
	if s.run != nil {
		return s.run.Finish()
	}
	return nil
}

// keep takes over batch b: in memory while the budget allows, then in the run.
func (s *cteStore) keep(b arrow.RecordBatch) error {
	if s.run == nil {
		n := recordBytes(b)
		if s.env.Memory.TryReserve(n) {
			s.batches = append(s.batches, b)
			s.reserved += n
			return nil
		}
		if s.env.Spill == nil {
			b.Release()
			return spill.Exceeded("WITH "+s.node.Name, s.env.Memory, s.env.Memory.Used()+n)
		}
		run, err := s.env.Spill.NewRun("with", s.env.Mem)
		if err != nil {
			b.Release()
			return err
		}
		s.run = run
	}
	defer b.Release()
	return s.run.Write(b)
}

// close drops what the store holds.
func (s *cteStore) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.batches {
		b.Release()
	}
	s.batches = nil
	s.env.Memory.Release(s.reserved)
	s.reserved = 0
	if s.run != nil {
		_ = s.run.Close()
		s.run = nil
	}
	s.filled, s.err = true, errClosedCTE
}

var errClosedCTE = execErrorf(diag.CodeInternal, "a WITH query was read after its statement ended")

// withOp runs the statement below a With and drops the stores on Close.
type withOp struct {
	input  Operator
	stores []*cteStore
}

func (op *withOp) Next(ctx context.Context) (arrow.RecordBatch, error) { return op.input.Next(ctx) }

func (op *withOp) Close() error {
	err := op.input.Close()
	for _, s := range op.stores {
		s.close()
	}
	op.stores = nil
	return err
}

func buildWithNode(env *Env, n *planner.With, leaf leafFunc) (Operator, error) {
	var stores []*cteStore
	for _, c := range n.CTEs {
		m, ok := c.(*planner.Materialize)
		if !ok {
			return nil, execErrorf(diag.CodeInternal, "a WITH input is a %T, not a materialized query", c)
		}
		s := &cteStore{env: env, node: m, open: func() (Operator, error) { return buildWith(env, m, leaf) }}
		env.addCTEStore(m, s)
		stores = append(stores, s)
	}
	in, err := buildWith(env, n.Input, leaf)
	if err != nil {
		for _, s := range stores {
			s.close()
		}
		return nil, err
	}
	return &withOp{input: in, stores: stores}, nil
}

// cteScanOp replays a store: its batches in memory (shared, each retained
// for the caller), then its run.
type cteScanOp struct {
	store   *cteStore
	columns []string
	next    int
	reader  *spill.RunReader
	done    bool
}

func (op *cteScanOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if op.done {
		return nil, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := op.store.fill(ctx); err != nil {
		return nil, err
	}
	if op.next < len(op.store.batches) {
		b := op.store.batches[op.next]
		op.next++
		b.Retain()
		return renamed(b, op.columns), nil
	}
	if op.store.run == nil {
		op.done = true
		return nil, io.EOF
	}
	if op.reader == nil {
		op.reader = op.store.run.Reader()
	}
	b, err := op.reader.Next()
	if err == io.EOF {
		op.done = true
		op.reader.Close()
		op.reader = nil
	}
	if err != nil {
		return nil, err
	}
	return renamed(b, op.columns), nil
}

func (op *cteScanOp) Close() error {
	if op.reader != nil {
		op.reader.Close()
		op.reader = nil
	}
	op.done = true
	return nil
}

// materializeOp is the query a store runs: its input, as is (the node is
// there for EXPLAIN ANALYZE's figures).
type materializeOp struct{ input Operator }

func (op *materializeOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return op.input.Next(ctx)
}
func (op *materializeOp) Close() error { return op.input.Close() }

// derivedOp passes a query's rows on as the attributes of a FROM item:
// its columns renamed to the query's column names.
type derivedOp struct {
	input   Operator
	columns []string
}

func (op *derivedOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := op.input.Next(ctx)
	if err != nil {
		return nil, err
	}
	return renamed(b, op.columns), nil
}

func (op *derivedOp) Close() error { return op.input.Close() }

// renamed takes over b and names its columns by position (nil names: b
// as it is); fields keep their types and encodings and lose any FROM item
// mark.
func renamed(b arrow.RecordBatch, names []string) arrow.RecordBatch {
	if names == nil || int(b.NumCols()) != len(names) {
		return b
	}
	s := b.Schema()
	same := true
	for i, n := range names {
		f := s.Field(i)
		if f.Name != n || fromItemOf(f) >= 0 {
			same = false
			break
		}
	}
	if same {
		return b
	}
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		fields[i] = withFromItem(s.Field(i), -1)
		fields[i].Name = n
	}
	out := array.NewRecordBatch(arrow.NewSchema(fields, nil), b.Columns(), b.NumRows())
	b.Release()
	return out
}
