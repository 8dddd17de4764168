package engine

// Helpers for the operator tests (ops_*_test.go): a scripted input
// operator, a plan builder that accepts it as a leaf, and result readers.
// Every name starts with "ot" to stay clear of other test files.

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

var otSeed = flag.Uint64("engine.seed", 0, "seed for the random operator tests (0: from the clock)")

func otRand(t testing.TB) *rand.Rand {
	t.Helper()
	seed := *otSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("random seed: -engine.seed=%d", seed)
		}
	})
	return rand.New(rand.NewPCG(seed, 3))
}

// otEnv returns an environment whose allocator must be empty when the test
// ends (every batch an operator returned was released and every operator
// freed what it held) and that overwrites every buffer it frees, so an
// operator that keeps a value read from a released batch returns garbage.
func otEnv(t *testing.T) *Env {
	t.Helper()
	return &Env{Mem: memtest.Allocator(t), Stats: NewStats()}
}

var otErrInput = errors.New("scripted input failure")

// otBatch is one batch an otSource produces. With from, column c is FROM
// item from[c]'s, as in joined rows.
type otBatch struct {
	names []string
	from  []int
	rows  [][]value.Value
}

// otSource yields scripted batches, built on Next with the environment's
// allocator so that the checked allocator sees them. It fails with
// otErrInput instead of batch failAt (when failAt >= 0) and records how it
// was driven.
type otSource struct {
	env     *Env
	batches []otBatch
	failAt  int
	pos     int
	nexts   int
	closes  int
	misuse  string // set when Next is called after Close
	ended   bool
}

func otSrc(env *Env, batches ...otBatch) *otSource {
	return &otSource{env: env, batches: batches, failAt: -1}
}

func (s *otSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	s.nexts++
	switch {
	case s.closes > 0:
		s.misuse = "Next after Close"
		return nil, errors.New(s.misuse)
	case s.ended:
		return nil, io.EOF
	}
	if s.pos == s.failAt {
		s.ended = true
		return nil, otErrInput
	}
	if s.pos >= len(s.batches) {
		s.ended = true
		return nil, io.EOF
	}
	b := s.batches[s.pos]
	s.pos++
	rb := columnar.NewRowBuilder(s.env.Mem, b.names)
	for _, r := range b.rows {
		rb.Append(r)
	}
	if b.from != nil {
		return withFromItems(rb.Build(), b.from), nil
	}
	return rb.Build(), nil
}

func (s *otSource) Close() error { s.closes++; return nil }

// check asserts the source was closed and never misused.
func (s *otSource) check(t *testing.T) {
	t.Helper()
	if s.closes == 0 {
		t.Error("the input operator was never closed")
	}
	if s.misuse != "" {
		t.Errorf("the input operator saw %s", s.misuse)
	}
}

// otLeaf puts an operator into a plan tree. Only the planner declares node
// kinds; the leaf borrows the methods of one (it is never explained, and
// otBuild takes it before Build's own cases).
type otLeaf struct {
	planner.OneRow
	op Operator
}

func (*otLeaf) Inputs() []planner.Node { return nil }

// otBuild builds a plan the way Build does, accepting otLeaf leaves.
func otBuild(env *Env, n planner.Node) (Operator, error) {
	return buildWith(env, n, func(n planner.Node) (Operator, bool) {
		if l, ok := n.(*otLeaf); ok {
			return l.op, true
		}
		return nil, false
	})
}

func otMustBuild(t *testing.T, env *Env, n planner.Node) Operator {
	t.Helper()
	op, err := otBuild(env, n)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

// otRow is one output row: its column names, their FROM items (nil, or -1
// each, for a single table's row) and values, by position.
type otRow struct {
	names []string
	from  []int
	vals  []value.Value
}

// get returns the value of the named column, Missing when absent.
func (r otRow) get(name string) value.Value {
	for i, n := range r.names {
		if n == name {
			return r.vals[i]
		}
	}
	return value.MissingValue()
}

// getFrom returns the value of attribute name of FROM item source.
func (r otRow) getFrom(source int, name string) value.Value {
	for i, n := range r.names {
		if n == name && r.fromItem(i) == source {
			return r.vals[i]
		}
	}
	return value.MissingValue()
}

func (r otRow) fromItem(c int) int {
	if r.from == nil {
		return -1
	}
	return r.from[c]
}

// label names column c for comparisons: its FROM item and attribute.
func (r otRow) label(c int) string {
	if f := r.fromItem(c); f >= 0 {
		return strconv.Itoa(f) + "." + r.names[c]
	}
	return r.names[c]
}

// key renders the row's present columns in name order, for comparisons.
func (r otRow) key() string {
	type kv struct{ k, v string }
	var kvs []kv
	for i := range r.names {
		if r.vals[i].Kind() != value.Missing {
			kvs = append(kvs, kv{r.label(i), otShow(r.vals[i])})
		}
	}
	for i := 1; i < len(kvs); i++ {
		for j := i; j > 0 && kvs[j].k < kvs[j-1].k; j-- {
			kvs[j], kvs[j-1] = kvs[j-1], kvs[j]
		}
	}
	var sb strings.Builder
	sb.WriteByte('{')
	for i, p := range kvs {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(p.k + ": " + p.v)
	}
	sb.WriteByte('}')
	return sb.String()
}

func otShow(v value.Value) string {
	switch v.Kind() {
	case value.Missing:
		return "<missing>"
	case value.Null:
		return "NULL"
	}
	return v.Kind().String() + ":" + string(value.AppendJSON(nil, v))
}

func otSame(a, b value.Value) bool {
	return bytes.Equal(value.AppendBinary(nil, a), value.AppendBinary(nil, b))
}

// otDrain reads op to the end (or its first error), releasing every batch,
// and returns the rows and the number of batches.
func otDrain(op Operator) (rows []otRow, batches int, err error) {
	ctx := context.Background()
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			return rows, batches, nil
		}
		if err != nil {
			return rows, batches, err
		}
		batches++
		rows = append(rows, otBatchRows(b)...)
		b.Release()
	}
}

func otBatchRows(b arrow.RecordBatch) []otRow {
	names := make([]string, b.NumCols())
	from := make([]int, b.NumCols())
	for c := range names {
		names[c], from[c] = b.ColumnName(c), fromItemOf(b.Schema().Field(c))
	}
	out := make([]otRow, b.NumRows())
	for i := range out {
		// Owned: the rows are compared after the batch is released.
		out[i] = otRow{names: names, from: from, vals: columnar.OwnedRow(b, i)}
	}
	return out
}

// otRowsOf turns scripted batches into the rows they describe.
func otRowsOf(batches ...otBatch) []otRow {
	var out []otRow
	for _, b := range batches {
		for _, r := range b.rows {
			out = append(out, otRow{names: b.names, from: b.from, vals: r})
		}
	}
	return out
}

// otSameRows compares rows by their present columns, in order.
func otSameRows(t *testing.T, what string, got, want []otRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := 0; i < len(got) && i < len(want); i++ {
		if g, w := got[i].key(), want[i].key(); g != w {
			t.Errorf("%s: row %d is %s, want %s", what, i, g, w)
			return
		}
	}
}

func otCol(name string) expr.Column    { return otQCol(0, name) }
func otLit(v value.Value) expr.Literal { return expr.Literal{Value: v} }
func otS(s string) value.Value         { return value.Str(s) }

func otN(s string) value.Value {
	v, err := value.Num(s)
	if err != nil {
		panic(err)
	}
	return v
}

// otCode returns the *diag.Error code of err, or "".
func otCode(err error) diag.Code {
	var e *diag.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// otQCol reads attribute name of FROM item source, numbered as the
// planner numbers columns: one ID per FROM item and attribute.
func otQCol(source int, name string) expr.Column {
	return expr.Column{Source: source, Path: value.Path{{Name: name}}, ID: otColumnID(source, name)}
}

// otColumn is what a test's column ID stands for.
type otColumn struct {
	source int
	attr   string
}

var otColumns = struct {
	sync.Mutex
	ids map[otColumn]expr.ColumnID
	of  []otColumn // by ID
}{ids: map[otColumn]expr.ColumnID{}, of: []otColumn{{}}}

func otColumnID(source int, attr string) expr.ColumnID {
	otColumns.Lock()
	defer otColumns.Unlock()
	k := otColumn{source: source, attr: attr}
	if id, ok := otColumns.ids[k]; ok {
		return id
	}
	id := expr.ColumnID(len(otColumns.of))
	otColumns.ids[k] = id
	otColumns.of = append(otColumns.of, k)
	return id
}

func otColumnOf(id expr.ColumnID) otColumn {
	otColumns.Lock()
	defer otColumns.Unlock()
	return otColumns.of[id]
}
