package engine

import (
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// otSetOp is a set operation over two scripted members.
func otSetOp(op planner.SetOpKind, all bool, left, right *otSource, columns ...string) *planner.SetOp {
	return &planner.SetOp{Left: &otLeaf{op: left}, Right: &otLeaf{op: right}, Op: op, All: all, Columns: columns}
}

// otValues renders rows by position, sorted: a multiset to compare.
func otValues(rows []otRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		var parts []string
		for _, v := range r.vals {
			parts = append(parts, otShow(v))
		}
		out[i] = strings.Join(parts, " | ")
	}
	slices.Sort(out)
	return out
}

// UNION ALL passes both members, every column named by the first member,
// whatever the second calls its columns.
func TestUnionAllConcatenates(t *testing.T) {
	env := otEnv(t)
	a := otSrc(env, otBatch{names: []string{"k", "v"}, rows: [][]value.Value{{otS("x"), otN("1")}, {otS("x"), otN("1")}}})
	b := otSrc(env, otBatch{names: []string{"other", "names"}, rows: [][]value.Value{{otS("y"), value.NullValue()}}},
		otBatch{names: []string{"k2", "v2"}, rows: [][]value.Value{{otS("x"), otN("1")}}})
	op := otMustBuild(t, env, otSetOp(planner.SetUnion, true, a, b, "k", "v"))
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	a.check(t)
	b.check(t)
	if len(rows) != 4 {
		t.Fatalf("got %d rows, want 4", len(rows))
	}
	for _, r := range rows {
		if r.names[0] != "k" || r.names[1] != "v" {
			t.Errorf("row named %v, want the first member's names k, v", r.names)
		}
	}
}

// The set operations against a count of rows: NULLs equal each other and a
// missing attribute, and numbers compare by value (1.50 = 1.5).
func TestSetOpsMatchCounts(t *testing.T) {
	r := otRand(t)
	pool := []value.Value{otS("a"), otS("b"), otN("1.5"), otN("1.50"), otN("2"), value.NullValue(), value.MissingValue(), otS("1.5")}
	gen := func(n int) []otBatch {
		var bs []otBatch
		for len(bs) == 0 || r.IntN(3) > 0 {
			b := otBatch{names: []string{"p", "q"}}
			for range r.IntN(n) {
				b.rows = append(b.rows, []value.Value{pool[r.IntN(len(pool))], pool[r.IntN(3)]})
			}
			bs = append(bs, b)
		}
		return bs
	}
	norm := func(v value.Value) string {
		if v.IsNull() {
			return "NULL"
		}
		return otShow(v)
	}
	key := func(row []value.Value) string { return norm(row[0]) + " | " + norm(row[1]) }
	for round := range 40 {
		left, right := gen(12), gen(12)
		lc, rc := map[string]int{}, map[string]int{}
		var order []string
		for _, b := range left {
			for _, row := range b.rows {
				if lc[key(row)] == 0 {
					order = append(order, key(row))
				}
				lc[key(row)]++
			}
		}
		for _, b := range right {
			for _, row := range b.rows {
				rc[key(row)]++
			}
		}
		for _, c := range []struct {
			op  planner.SetOpKind
			all bool
			n   func(l, r int) int
		}{
			{planner.SetUnion, false, func(l, r int) int { return min(1, l+r) }},
			{planner.SetUnion, true, func(l, r int) int { return l + r }},
			{planner.SetIntersect, false, func(l, r int) int { return min(1, l, r) }},
			{planner.SetIntersect, true, func(l, r int) int { return min(l, r) }},
			{planner.SetExcept, false, func(l, r int) int {
				if r > 0 {
					return 0
				}
				return min(1, l)
			}},
			{planner.SetExcept, true, func(l, r int) int { return max(0, l-r) }},
		} {
			env := otEnv(t)
			op := otMustBuild(t, env, otSetOp(c.op, c.all, otSrc(env, left...), otSrc(env, right...), "p", "q"))
			rows, _, err := otDrain(op)
			op.Close()
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, row := range rows {
				got[key(row.vals)]++
			}
			keys := append([]string(nil), order...)
			for k := range rc {
				if lc[k] == 0 {
					keys = append(keys, k)
				}
			}
			for _, k := range keys {
				if want := c.n(lc[k], rc[k]); got[k] != want {
					t.Fatalf("round %d, %s all=%v: row %s comes out %d times, want %d (left %d, right %d)",
						round, c.op, c.all, k, got[k], want, lc[k], rc[k])
				}
			}
			if len(rows) != sumCounts(got) {
				t.Fatalf("rows not accounted for")
			}
		}
	}
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// Closing early (before any Next, after one batch, or on an input error)
// releases everything: otEnv's allocator checks it at the end.
func TestSetOpsCloseEarly(t *testing.T) {
	batches := func() []otBatch {
		return []otBatch{
			{names: []string{"k"}, rows: [][]value.Value{{otS("a")}, {otS("b")}}},
			{names: []string{"k"}, rows: [][]value.Value{{otS("c")}}},
		}
	}
	for _, kind := range []planner.SetOpKind{planner.SetUnion, planner.SetIntersect, planner.SetExcept} {
		for _, all := range []bool{false, true} {
			for _, stop := range []string{"before", "after one", "left fails", "right fails"} {
				env := otEnv(t)
				left, right := otSrc(env, batches()...), otSrc(env, batches()...)
				switch stop {
				case "left fails":
					left.failAt = 1
				case "right fails":
					right.failAt = 1
				}
				op := otMustBuild(t, env, otSetOp(kind, all, left, right, "k"))
				switch stop {
				case "after one":
					b, err := op.Next(context.Background())
					switch {
					case err == nil:
						b.Release()
					case err != io.EOF: // EXCEPT of equal members has no row
						t.Fatal(err)
					}
				case "left fails", "right fails":
					_, _, err := otDrain(op)
					if !errors.Is(err, otErrInput) {
						t.Errorf("%s %v %s: got %v, want the input's error", kind, all, stop, err)
					}
				}
				if err := op.Close(); err != nil {
					t.Fatal(err)
				}
				left.check(t)
				right.check(t)
			}
		}
	}
}

// INTERSECT's table of the second member's rows stays within the memory
// limit, or the statement fails with memory_limit naming the operation.
func TestIntersectMemoryLimit(t *testing.T) {
	env := stSpillEnv(t, 200, true)
	var rows [][]value.Value
	for i := range 50 {
		rows = append(rows, []value.Value{otN(strconv.Itoa(i))})
	}
	left := otSrc(env, otBatch{names: []string{"k"}, rows: rows})
	right := otSrc(env, otBatch{names: []string{"k"}, rows: rows})
	op := otMustBuild(t, env, otSetOp(planner.SetIntersect, false, left, right, "k"))
	_, _, err := otDrain(op)
	if otCode(err) != diag.CodeMemoryLimit || !strings.Contains(err.Error(), "INTERSECT") {
		t.Errorf("got %v, want a memory_limit error naming INTERSECT", err)
	}
	op.Close()
	stFinish(t, env)
}

// otCTE is a With whose statement is a UNION ALL of two scans of one
// materialized query, read from src.
func otCTE(src *otSource, columns []string) *planner.With {
	m := &planner.Materialize{Input: &otLeaf{op: src}, Name: "q", Columns: columns, Refs: 2}
	union := &planner.SetOp{Left: &planner.CTEScan{CTE: m, Alias: "a"}, Right: &planner.CTEScan{CTE: m, Alias: "b"},
		Op: planner.SetUnion, All: true, Columns: columns}
	return &planner.With{CTEs: []planner.Node{m}, Input: union}
}

func otCTERows(n int) []otBatch {
	var bs []otBatch
	for i := 0; i < n; i += 10 {
		b := otBatch{names: []string{"orig", "v"}}
		for j := i; j < min(n, i+10); j++ {
			b.rows = append(b.rows, []value.Value{otS(strings.Repeat("x", j%7)), otN(strconv.Itoa(j))})
		}
		bs = append(bs, b)
	}
	return bs
}

// A materialized query is read once and replayed for each reference, in
// memory and, past the memory limit, from a spill run; its columns take
// the query's names.
func TestCTEReadOnceAndReplayed(t *testing.T) {
	for _, limit := range []int64{0, 600} {
		env := stSpillEnv(t, limit, true)
		src := otSrc(env, otCTERows(95)...)
		op := otMustBuild(t, env, otCTE(src, []string{"k", "v"}))
		rows, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		if err := op.Close(); err != nil {
			t.Fatal(err)
		}
		src.check(t)
		if src.pos != 10 || src.nexts != 11 {
			t.Errorf("limit %d: the query's input was read %d times for %d batches, want once to its end", limit, src.nexts, src.pos)
		}
		if len(rows) != 190 {
			t.Fatalf("limit %d: got %d rows, want 95 twice", limit, len(rows))
		}
		want := otValues(append(otRowsOf(otCTERows(95)...), otRowsOf(otCTERows(95)...)...))
		if got := otValues(rows); !slices.Equal(got, want) {
			t.Errorf("limit %d: rows differ", limit)
		}
		for _, r := range rows {
			if r.names[0] != "k" {
				t.Fatalf("column named %q, want k", r.names[0])
			}
		}
		if limit > 0 && env.Spill.Files() == 0 {
			t.Errorf("limit %d: nothing spilled", limit)
		}
		stFinish(t, env)
	}
}

// Without a spill directory a query past the limit fails with
// memory_limit, naming it.
func TestCTEMemoryLimit(t *testing.T) {
	env := stSpillEnv(t, 600, false)
	src := otSrc(env, otCTERows(95)...)
	op := otMustBuild(t, env, otCTE(src, []string{"k", "v"}))
	_, _, err := otDrain(op)
	if otCode(err) != diag.CodeMemoryLimit || !strings.Contains(err.Error(), "WITH q") {
		t.Errorf("got %v, want a memory_limit error naming WITH q", err)
	}
	op.Close()
	src.check(t)
	stFinish(t, env)
}

// A With closed before, or in the middle of, the replays releases every
// batch it kept; a query never asked for is never read.
func TestCTECloseEarly(t *testing.T) {
	for _, reads := range []int{0, 1, 12} {
		env := otEnv(t)
		src := otSrc(env, otCTERows(95)...)
		op := otMustBuild(t, env, otCTE(src, []string{"k", "v"}))
		for range reads {
			b, err := op.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			b.Release()
		}
		if err := op.Close(); err != nil {
			t.Fatal(err)
		}
		if reads == 0 && src.nexts != 0 {
			t.Errorf("the query was read (%d calls) though no row was asked for", src.nexts)
		}
		if reads > 0 {
			src.check(t)
		}
	}
}

// A derived table renames its query's columns and drops FROM item marks.
func TestDerivedRenames(t *testing.T) {
	env := otEnv(t)
	src := otSrc(env, otBatch{names: []string{"a", "b"}, from: []int{0, 1}, rows: [][]value.Value{{otS("x"), otN("2")}}})
	op := otMustBuild(t, env, &planner.Derived{Input: &otLeaf{op: src}, Alias: "d", Columns: []string{"x", "y"}})
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	op.Close()
	src.check(t)
	if len(rows) != 1 || rows[0].names[0] != "x" || rows[0].names[1] != "y" || rows[0].fromItem(0) != -1 {
		t.Errorf("got %+v, want columns x, y without FROM items", rows)
	}
	if _, err := op.Next(context.Background()); err != io.EOF && err == nil {
		t.Errorf("Next after the end: %v", err)
	}
}
