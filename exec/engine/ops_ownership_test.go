package engine

// Operators that keep values past the batch they were read from: a full
// sort and a top-N heap, the hash join's build side, GROUP BY keys and
// MIN/MAX accumulators, DISTINCT. Every input here is strings (and numbers
// stored as text) spread over many small batches, each released by the
// operator before the next arrives; otEnv's allocator overwrites released
// buffers, so a value kept in place instead of owned comes out as garbage
// and the comparison with the reference fails.

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// otOwnText draws a short string; few letters, so equal strings are common.
func otOwnText(r *rand.Rand) string {
	var b strings.Builder
	for i, n := 0, 1+r.IntN(10); i < n; i++ {
		b.WriteString([]string{"a", "b", "c", "X", "Y", " ", "é"}[r.IntN(7)])
	}
	return b.String()
}

// otOwnInput builds nbatches batches of k (one of a few keys), s (a string),
// n (a number stored as text: never integral) and seq (input order).
// Columns are marked as FROM item source's when source >= 0, as joined
// rows carry them.
func otOwnInput(r *rand.Rand, nbatches, source int) []otBatch {
	var from []int
	if source >= 0 {
		from = []int{source, source, source, source}
	}
	var out []otBatch
	seq := 0
	for b := 0; b < nbatches; b++ {
		batch := otBatch{names: []string{"k", "s", "n", "seq"}, from: from}
		for i, rows := 0, r.IntN(9); i < rows; i++ {
			k := value.MissingValue()
			if r.IntN(8) > 0 {
				k = otS("key-" + strconv.Itoa(r.IntN(5)))
			}
			batch.rows = append(batch.rows, []value.Value{
				k, otS(otOwnText(r)), otN(strconv.Itoa(r.IntN(40)-20) + ".5"), otN(strconv.Itoa(seq)),
			})
			seq++
		}
		out = append(out, batch)
	}
	return out
}

func TestOwnedValuesSortAndTopN(t *testing.T) {
	r := otRand(t)
	for iter := 0; iter < 40; iter++ {
		input := otOwnInput(r, 2+r.IntN(8), -1)
		all := otRowsOf(input...)
		first := []string{"s", "n", "k"}[r.IntN(3)]
		keys := []planner.SortKey{{Expr: otCol(first), Desc: r.IntN(2) == 0}, {Expr: otCol("s")}}
		want := otReferenceSort(all, keys)
		for _, topN := range []int{0, 1, 3, len(all)/2 + 1} {
			env := otEnv(t)
			env.BatchRows = 1 + r.IntN(6)
			src := otSrc(env, input...)
			var node planner.Node = &planner.Sort{Input: &otLeaf{op: src}, Keys: keys, TopN: int64(topN)}
			wantRows := want
			if topN > 0 {
				node = &planner.Limit{Count: int64(topN), Input: node}
				wantRows = want[:min(topN, len(want))]
			}
			op := otMustBuild(t, env, node)
			got, _, err := otDrain(op)
			if err != nil {
				t.Fatal(err)
			}
			op.Close()
			src.check(t)
			otSameRows(t, "ORDER BY "+first+" (top "+strconv.Itoa(topN)+")", got, wantRows)
		}
	}
}

func TestOwnedValuesHashJoinBuildSide(t *testing.T) {
	r := otRand(t)
	for iter := 0; iter < 40; iter++ {
		probeIn, buildIn := otOwnInput(r, 1+r.IntN(3), 0), otOwnInput(r, 2+r.IntN(8), 1)
		kind := []planner.JoinKind{planner.JoinInner, planner.JoinLeft}[r.IntN(2)]
		env := otEnv(t)
		env.BatchRows = 1 + r.IntN(8)
		probe, build := otSrc(env, probeIn...), otSrc(env, buildIn...)
		op := otMustBuild(t, env, &planner.HashJoin{
			Probe: &otLeaf{op: probe}, Build: &otLeaf{op: build}, Kind: kind,
			ProbeKeys: []expr.Expr{otQCol(0, "k")}, BuildKeys: []expr.Expr{otQCol(1, "k")},
		})
		got, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		op.Close()
		probe.check(t)
		build.check(t)
		otSameRows(t, "JOIN ON k", got, otReferenceJoin(t, otRowsOf(probeIn...), otRowsOf(buildIn...), kind, nil))
	}
}

// otReferenceGroups states GROUP BY k with MIN/MAX of s and n, COUNT of
// distinct s and MIN(DISTINCT s) independently: groups in order of first
// appearance, NULL keys one group, NULL arguments ignored.
func otReferenceGroups(rows []otRow) []otRow {
	type acc struct {
		key                    value.Value
		minS, maxS, minN, maxN value.Value
		distinct               map[string]bool
	}
	var order []*acc
	byKey := map[string]*acc{}
	for _, row := range rows {
		k := row.get("k")
		if k.IsNull() {
			k = value.MissingValue()
		}
		id := otShow(k)
		a := byKey[id]
		if a == nil {
			a = &acc{key: k, distinct: map[string]bool{}}
			byKey[id] = a
			order = append(order, a)
		}
		s, n := row.get("s"), row.get("n")
		if a.minS.Kind() == value.Missing || value.Order(s, a.minS) < 0 {
			a.minS = s
		}
		if a.maxS.Kind() == value.Missing || value.Order(s, a.maxS) > 0 {
			a.maxS = s
		}
		if a.minN.Kind() == value.Missing || value.Order(n, a.minN) < 0 {
			a.minN = n
		}
		if a.maxN.Kind() == value.Missing || value.Order(n, a.maxN) > 0 {
			a.maxN = n
		}
		a.distinct[s.Text()] = true
	}
	names := []string{"k", "MIN(s)", "MAX(s)", "MIN(n)", "MAX(n)", "COUNT(DISTINCT s)", "MIN(DISTINCT s)"}
	out := make([]otRow, len(order))
	for i, a := range order {
		out[i] = otRow{names: names, vals: []value.Value{a.key, a.minS, a.maxS, a.minN, a.maxN,
			otN(strconv.Itoa(len(a.distinct))), a.minS}}
	}
	return out
}

// GROUP BY keys and MIN/MAX results outlive the batches they came from, on
// the column-wise path (GROUP BY k) and the general one (GROUP BY an
// expression that returns its argument: coalesce(k, NULL) is k itself).
func TestOwnedValuesGroupKeysAndExtremes(t *testing.T) {
	r := otRand(t)
	aggs := []expr.Aggregate{
		otAgg("min", otCol("s"), false), otAgg("max", otCol("s"), false),
		otAgg("min", otCol("n"), false), otAgg("max", otCol("n"), false),
		otAgg("count", otCol("s"), true), otAgg("min", otCol("s"), true),
	}
	plain := otCol("k")
	general := expr.Func{Name: "coalesce", Args: []expr.Expr{otCol("k"), otLit(value.NullValue())}}
	for iter := 0; iter < 40; iter++ {
		input := otOwnInput(r, 2+r.IntN(8), -1)
		want := otReferenceGroups(otRowsOf(input...))
		for _, group := range []expr.Expr{plain, general} {
			env := otEnv(t)
			env.BatchRows = 1 + r.IntN(4)
			got, err := otAggregate(t, env, []expr.Expr{group}, aggs, input...)
			if err != nil {
				t.Fatal(err)
			}
			otSameRows(t, "GROUP BY "+group.String(), otRenamed(got, want), want)
		}
	}
}

// otRenamed gives rows the names of the reference rows (same positions),
// so that rows compare by value.
func otRenamed(rows, like []otRow) []otRow {
	if len(like) == 0 {
		return rows
	}
	out := make([]otRow, len(rows))
	for i, r := range rows {
		out[i] = otRow{names: like[0].names, vals: r.vals}
	}
	return out
}

func TestOwnedValuesDistinct(t *testing.T) {
	r := otRand(t)
	for iter := 0; iter < 40; iter++ {
		input := otOwnInput(r, 2+r.IntN(8), -1)
		// DISTINCT k, s: the first of each pair, in input order.
		var want []otRow
		seen := map[string]bool{}
		for _, row := range otRowsOf(input...) {
			p := otRow{names: []string{"k", "s"}, vals: []value.Value{row.get("k"), row.get("s")}}
			if !seen[p.key()] {
				seen[p.key()] = true
				want = append(want, p)
			}
		}
		env := otEnv(t)
		src := otSrc(env, input...)
		op := otMustBuild(t, env, &planner.Distinct{Input: &planner.Project{Input: &otLeaf{op: src},
			Exprs: []expr.Expr{otCol("k"), otCol("s")}, Names: []string{"k", "s"}}})
		got, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		op.Close()
		src.check(t)
		otSameRows(t, "DISTINCT k, s", got, want)
	}
}

// The batches a full sort retains are released however it ends: LIMIT 0
// (never read), Close before Next, Close after part of the result, an
// input error after several retained batches, an error evaluating a key.
func TestOwnedValuesSortEarlyEnds(t *testing.T) {
	r := otRand(t)
	input := otOwnInput(r, 12, -1)
	for len(otRowsOf(input...)) < 20 {
		input = append(input, otOwnInput(r, 4, -1)...)
	}
	keys := []planner.SortKey{{Expr: otCol("s")}}
	sortOf := func(src *otSource, keys []planner.SortKey) *planner.Sort {
		return &planner.Sort{Input: &otLeaf{op: src}, Keys: keys}
	}
	t.Run("limit0", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, input...)
		op := otMustBuild(t, env, &planner.Limit{Count: 0, Input: sortOf(src, keys)})
		if rows, _, err := otDrain(op); err != nil || len(rows) != 0 {
			t.Fatalf("LIMIT 0: %d rows, %v", len(rows), err)
		}
		op.Close()
		src.check(t)
	})
	t.Run("close_before_next", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, input...)
		op := otMustBuild(t, env, sortOf(src, keys))
		op.Close()
		src.check(t)
	})
	t.Run("close_after_part", func(t *testing.T) {
		env := otEnv(t)
		env.BatchRows = 3
		src := otSrc(env, input...)
		op := otMustBuild(t, env, sortOf(src, keys))
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got := otBatchRows(b)
		b.Release()
		op.Close()
		src.check(t)
		otSameRows(t, "first batch", got, otReferenceSort(otRowsOf(input...), keys)[:3])
	})
	t.Run("limit_after_sort", func(t *testing.T) {
		env := otEnv(t)
		env.BatchRows = 2
		src := otSrc(env, input...)
		op := otMustBuild(t, env, &planner.Limit{Count: 5, Offset: 3, Input: sortOf(src, keys)})
		got, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		op.Close()
		src.check(t)
		otSameRows(t, "LIMIT 3, 5", got, otReferenceSort(otRowsOf(input...), keys)[3:8])
	})
	t.Run("input_error", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, input...)
		src.failAt = 7
		op := otMustBuild(t, env, sortOf(src, keys))
		if _, _, err := otDrain(op); !errors.Is(err, otErrInput) {
			t.Fatalf("error %v, want the input's", err)
		}
		op.Close()
		src.check(t)
	})
	t.Run("key_error", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, input...)
		bad := []planner.SortKey{{Expr: expr.Binary{Op: expr.OpAdd, L: otCol("s"), R: otLit(otN("1"))}}}
		op := otMustBuild(t, env, sortOf(src, bad))
		if _, _, err := otDrain(op); otCode(err) != diag.CodeEval {
			t.Fatalf("error %v, want an eval error", err)
		}
		op.Close()
		src.check(t)
	})
}
