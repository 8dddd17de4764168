package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// otSortValue draws sort-key material: few distinct values (so ties are
// common), every kind, and both kinds of NULL.
func otSortValue(r *rand.Rand) value.Value {
	switch r.IntN(12) {
	case 0:
		return value.MissingValue()
	case 1:
		return value.NullValue()
	case 2:
		return value.BoolOf(r.IntN(2) == 0)
	case 3, 4, 5:
		return otN([]string{"-1", "0", "2", "10", "2.5", "9223372036854775808", "-12345678901234567890123456789012345678"}[r.IntN(7)])
	case 6, 7, 8:
		return otS([]string{"", "a", "B", "b", "é"}[r.IntN(5)])
	case 9:
		return value.Bin([]byte{byte(r.IntN(3))})
	case 10:
		return value.ListOf([]value.Value{otN(strconv.Itoa(r.IntN(2)))})
	}
	return value.MapOf(map[string]value.Value{"k": otN(strconv.Itoa(r.IntN(2)))})
}

// otWiden adds six columns (w1…w6) of any type to every batch: batches of
// sortBatchColumns or more are sorted as they arrive.
func otWiden(r *rand.Rand, in []otBatch) []otBatch {
	out := make([]otBatch, len(in))
	for b, batch := range in {
		names := append([]string(nil), batch.names...)
		for w := 1; w <= 6; w++ {
			names = append(names, "w"+strconv.Itoa(w))
		}
		wide := otBatch{names: names}
		for _, row := range batch.rows {
			row = append([]value.Value(nil), row...)
			for w := 1; w <= 6; w++ {
				row = append(row, otSortValue(r))
			}
			wide.rows = append(wide.rows, row)
		}
		out[b] = wide
	}
	return out
}

// otSortInput builds batches with columns k1, k2, seq in varying layouts
// (some batches lack k2 entirely), seq numbering the rows in input order.
func otSortInput(r *rand.Rand, nbatches int) []otBatch {
	var out []otBatch
	seq := 0
	for b := 0; b < nbatches; b++ {
		names := []string{"k1", "k2", "seq"}
		if r.IntN(3) == 0 {
			names = []string{"seq", "k1"}
		}
		batch := otBatch{names: names}
		for i, n := 0, r.IntN(30); i < n; i++ {
			row := make([]value.Value, len(names))
			for c, name := range names {
				if name == "seq" {
					row[c] = otN(strconv.Itoa(seq))
				} else {
					row[c] = otSortValue(r)
				}
			}
			seq++
			batch.rows = append(batch.rows, row)
		}
		out = append(out, batch)
	}
	return out
}

// otReferenceSort is an independent statement of ORDER BY: value.Order per
// key, NULL and missing as peers, DESC reversing, ties in input order.
func otReferenceSort(rows []otRow, keys []planner.SortKey) []otRow {
	out := append([]otRow(nil), rows...)
	keyOf := func(r otRow, k planner.SortKey) value.Value {
		v := r.get(k.Expr.(expr.Column).Path[0].Name)
		if v.IsNull() {
			return value.MissingValue()
		}
		return v
	}
	sort.SliceStable(out, func(i, j int) bool {
		for _, k := range keys {
			c := value.Order(keyOf(out[i], k), keyOf(out[j], k))
			if k.Desc {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return false
	})
	return out
}

func TestSortMatchesReferenceAndTopN(t *testing.T) {
	r := otRand(t)
	for iter := 0; iter < 60; iter++ {
		input := otSortInput(r, 1+r.IntN(6))
		if iter%2 == 1 {
			input = otWiden(r, input)
		}
		all := otRowsOf(input...)
		keys := []planner.SortKey{{Expr: otCol("k1"), Desc: r.IntN(2) == 0}}
		if r.IntN(2) == 0 {
			keys = append(keys, planner.SortKey{Expr: otCol("k2"), Desc: r.IntN(2) == 0})
		}
		want := otReferenceSort(all, keys)

		env := otEnv(t)
		env.BatchRows = 1 + r.IntN(20)
		src := otSrc(env, input...)
		op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: keys})
		got, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		op.Close()
		src.check(t)
		otSameRows(t, "full sort", got, want)

		// Top-N (ORDER BY … LIMIT n) gives the full sort's first n rows,
		// ties included in the same (input) order.
		for _, n := range []int{1, 2, 5, len(all) - 1, len(all), len(all) + 3} {
			if n < 1 {
				continue
			}
			src := otSrc(env, input...)
			op := otMustBuild(t, env, &planner.Limit{Count: int64(n),
				Input: &planner.Sort{Input: &otLeaf{op: src}, Keys: keys, TopN: int64(n)}})
			got, _, err := otDrain(op)
			if err != nil {
				t.Fatal(err)
			}
			op.Close()
			src.check(t)
			otSameRows(t, "top "+strconv.Itoa(n), got, want[:min(n, len(want))])
		}
	}
}

// Ties keep their input order, across batches, ascending and descending.
func TestSortStable(t *testing.T) {
	env := otEnv(t)
	var batches []otBatch
	for b := 0; b < 4; b++ {
		batch := otBatch{names: []string{"k", "seq"}}
		for i := 0; i < 5; i++ {
			seq := b*5 + i
			batch.rows = append(batch.rows, []value.Value{otN(strconv.Itoa(seq % 3)), otN(strconv.Itoa(seq))})
		}
		batches = append(batches, batch)
	}
	for _, desc := range []bool{false, true} {
		for _, topN := range []int64{0, 7} {
			src := otSrc(env, batches...)
			op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: otCol("k"), Desc: desc}}, TopN: topN})
			rows, _, err := otDrain(op)
			if err != nil {
				t.Fatal(err)
			}
			op.Close()
			if topN > 0 && len(rows) != int(topN) {
				t.Fatalf("top %d returned %d rows", topN, len(rows))
			}
			for i := 1; i < len(rows); i++ {
				a, b := rows[i-1], rows[i]
				ka, kb := a.get("k"), b.get("k")
				if value.Order(ka, kb) == 0 && value.Order(a.get("seq"), b.get("seq")) > 0 {
					t.Errorf("desc=%v top=%d: tie %s reordered: seq %s before %s", desc, topN, otShow(ka), a.get("seq").Text(), b.get("seq").Text())
				}
			}
		}
	}
}

// NULLs (missing or DynamoDB NULL, as peers) sort first ascending and last
// descending; values of different types follow value.Order.
func TestSortNullsAndMixedTypes(t *testing.T) {
	env := otEnv(t)
	vals := []value.Value{
		otS("b"), otN("10"), value.BoolOf(true), value.NullValue(), value.MissingValue(), value.Bin([]byte{1}),
		value.ListOf(nil), value.MapOf(nil), otN("2"), otS("a"), value.BoolOf(false), value.NullValue(),
		value.SetOf(value.StringSet, []value.Value{otS("x")}), otN("-1.5"),
	}
	batch := otBatch{names: []string{"k", "id"}}
	for i, v := range vals {
		batch.rows = append(batch.rows, []value.Value{v, otN(strconv.Itoa(i))})
	}
	asc := []string{"3", "4", "11", "10", "2", "13", "8", "1", "9", "0", "5", "12", "6", "7"}
	for _, desc := range []bool{false, true} {
		want := asc
		if desc {
			// Reversed, except that the NULL peers keep their input order.
			want = []string{"7", "6", "12", "5", "0", "9", "1", "8", "13", "2", "10", "3", "4", "11"}
		}
		for _, topN := range []int64{0, int64(len(vals))} {
			src := otSrc(env, batch)
			op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: otCol("k"), Desc: desc}}, TopN: topN})
			rows, _, err := otDrain(op)
			if err != nil {
				t.Fatal(err)
			}
			op.Close()
			var got []string
			for _, r := range rows {
				got = append(got, r.get("id").Text())
			}
			if len(got) != len(want) {
				t.Fatalf("desc=%v: %v", desc, got)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("desc=%v topN=%d: order %v, want %v", desc, topN, got, want)
					break
				}
			}
		}
	}
}

// A second key decides between NULL and missing first keys (they are peers).
func TestSortNullPeersUseNextKey(t *testing.T) {
	env := otEnv(t)
	src := otSrc(env, otBatch{names: []string{"a", "b"}, rows: [][]value.Value{
		{value.NullValue(), otN("2")},
		{value.MissingValue(), otN("1")},
		{value.NullValue(), otN("0")},
	}})
	op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: otCol("a")}, {Expr: otCol("b")}}})
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	op.Close()
	for i, want := range []string{"0", "1", "2"} {
		if got := rows[i].get("b").Text(); got != want {
			t.Fatalf("row %d: b = %s, want %s", i, got, want)
		}
	}
}

// Sort by a computed key and by a Ref (how the planner addresses ORDER BY
// columns); an evaluation error is an eval error and leaks nothing.
func TestSortKeysAndErrors(t *testing.T) {
	env := otEnv(t)
	input := otBatch{names: []string{"x", "y"}, rows: [][]value.Value{
		{otN("3"), otS("c")}, {otN("1"), otS("a")}, {otN("2"), otS("b")},
	}}
	neg := expr.Unary{Op: expr.OpNeg, X: otCol("x")}
	src := otSrc(env, input)
	op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: neg}}})
	rows, _, err := otDrain(op)
	if err != nil || len(rows) != 3 || rows[0].get("y").Text() != "c" || rows[2].get("y").Text() != "a" {
		t.Fatalf("ORDER BY -x: %v, %v", rows, err)
	}
	op.Close()

	src = otSrc(env, input)
	op = otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: expr.Ref{Index: 1}, Desc: true}}})
	rows, _, err = otDrain(op)
	if err != nil || rows[0].get("y").Text() != "c" {
		t.Fatalf("ORDER BY $1 DESC: %v, %v", rows, err)
	}
	op.Close()

	src = otSrc(env, input, input)
	bad := expr.Binary{Op: expr.OpAdd, L: otCol("y"), R: otLit(otN("1"))}
	op = otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: bad}}, TopN: 1})
	if _, _, err := otDrain(op); otCode(err) != diag.CodeEval {
		t.Fatalf("ORDER BY y + 1 over strings: %v, want an eval error", err)
	}
	op.Close()
	src.check(t)
}

func TestSortEarlyCloseAndInputError(t *testing.T) {
	r := otRand(t)
	input := otSortInput(r, 8)
	keys := []planner.SortKey{{Expr: otCol("k1")}}
	t.Run("close_before_next", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, input...)
		op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: keys})
		op.Close()
		src.check(t)
	})
	t.Run("close_after_first_batch", func(t *testing.T) {
		env := otEnv(t)
		env.BatchRows = 3
		src := otSrc(env, input...)
		op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: keys, TopN: 100})
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		b.Release()
		op.Close()
		src.check(t)
	})
	t.Run("limit1", func(t *testing.T) {
		env := otEnv(t)
		env.BatchRows = 2
		src := otSrc(env, input...)
		op := otMustBuild(t, env, &planner.Limit{Count: 1, Input: &planner.Sort{Input: &otLeaf{op: src}, Keys: keys}})
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 1 {
			t.Fatalf("%d rows, %v", len(rows), err)
		}
		op.Close()
		src.check(t)
	})
	for _, topN := range []int64{0, 3} {
		t.Run("input_error_top"+strconv.Itoa(int(topN)), func(t *testing.T) {
			env := otEnv(t)
			src := otSrc(env, input...)
			src.failAt = 4
			op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: keys, TopN: topN})
			if _, _, err := otDrain(op); !errors.Is(err, otErrInput) {
				t.Fatalf("error %v, want the input's", err)
			}
			op.Close()
			src.check(t)
		})
	}
}

// A sort rebuilds its output batches from rows: joined rows keep the FROM
// item of every column, also when two inputs have the same column names
// from different FROM items.
func TestSortKeepsFromItems(t *testing.T) {
	env := otEnv(t)
	in := []otBatch{
		{names: []string{"a", "b"}, from: []int{0, 1}, rows: [][]value.Value{{otN("2"), otS("x")}}},
		{names: []string{"a", "b"}, from: []int{0, 0}, rows: [][]value.Value{{otN("1"), otS("y")}}},
	}
	src := otSrc(env, in...)
	op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: otQCol(0, "a")}}})
	got, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	op.Close()
	src.check(t)
	want := otRowsOf(in[1], in[0])
	otSameRows(t, "ORDER BY a", got, want)
	if b := got[1].getFrom(1, "b"); b.Text() != "x" {
		t.Errorf("b of FROM item 1 is %v, want x", b.JSON())
	}
}
