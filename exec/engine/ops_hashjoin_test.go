package engine

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

func otJoinKey(r *rand.Rand) value.Value {
	switch r.IntN(8) {
	case 0:
		return value.MissingValue()
	case 1:
		return value.NullValue()
	case 2:
		return otS(strconv.Itoa(r.IntN(3))) // the string "1" never joins the number 1
	}
	return otN([]string{"0", "1", "2", "1.0", "1E0"}[r.IntN(5)])
}

// otJoinSide builds batches of one FROM item (each column marked with it,
// as joined rows carry them): k (key), v (payload), id.
func otJoinSide(r *rand.Rand, source, nbatches int, prefix string) []otBatch {
	var out []otBatch
	id := 0
	for b := 0; b < nbatches; b++ {
		batch := otBatch{names: []string{"k", "v", "id"}, from: []int{source, source, source}}
		for i, n := 0, r.IntN(12); i < n; i++ {
			batch.rows = append(batch.rows, []value.Value{otJoinKey(r), otN(strconv.Itoa(r.IntN(5))), otS(prefix + strconv.Itoa(id))})
			id++
		}
		out = append(out, batch)
	}
	return out
}

// otReferenceJoin is a nested-loop join with SQL semantics: keys match when
// neither is NULL and they are equal DynamoDB values; the residual must be
// TRUE; LEFT keeps unmatched probe rows.
func otReferenceJoin(t *testing.T, probe, build []otRow, kind planner.JoinKind, residual expr.Expr) []otRow {
	t.Helper()
	var out []otRow
	for _, p := range probe {
		pk := p.getFrom(0, "k")
		matched := false
		for _, b := range build {
			bk := b.getFrom(1, "k")
			if pk.IsNull() || bk.IsNull() || !value.Equal(pk, bk) {
				continue
			}
			joined := otRow{names: append(append([]string(nil), p.names...), b.names...),
				from: append(append([]int(nil), p.from...), b.from...), vals: append(append([]value.Value(nil), p.vals...), b.vals...)}
			if residual != nil {
				tr, err := otTestJoined(residual, joined)
				if err != nil {
					t.Fatal(err)
				}
				if !tr {
					continue
				}
			}
			matched = true
			out = append(out, joined)
		}
		if !matched && kind == planner.JoinLeft {
			out = append(out, p)
		}
	}
	return out
}

func TestHashJoinMatchesNestedLoop(t *testing.T) {
	r := otRand(t)
	residuals := []expr.Expr{
		nil,
		expr.Binary{Op: expr.OpGe, L: otQCol(1, "v"), R: otQCol(0, "v")},
		expr.Binary{Op: expr.OpNe, L: otQCol(1, "v"), R: otLit(otN("2"))},
	}
	for iter := 0; iter < 80; iter++ {
		probeIn := otJoinSide(r, 0, 1+r.IntN(4), "p")
		buildIn := otJoinSide(r, 1, 1+r.IntN(4), "b")
		kind := planner.JoinInner
		if r.IntN(2) == 0 {
			kind = planner.JoinLeft
		}
		residual := residuals[r.IntN(len(residuals))]
		env := otEnv(t)
		env.BatchRows = 1 + r.IntN(8)
		probe, build := otSrc(env, probeIn...), otSrc(env, buildIn...)
		op := otMustBuild(t, env, &planner.HashJoin{
			Probe: &otLeaf{op: probe}, Build: &otLeaf{op: build}, Kind: kind,
			ProbeKeys: []expr.Expr{otQCol(0, "k")}, BuildKeys: []expr.Expr{otQCol(1, "k")},
			Residual: residual,
		})
		got, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		op.Close()
		probe.check(t)
		build.check(t)
		want := otReferenceJoin(t, otRowsOf(probeIn...), otRowsOf(buildIn...), kind, residual)
		what := "INNER JOIN"
		if kind == planner.JoinLeft {
			what = "LEFT JOIN"
		}
		if residual != nil {
			what += " ON … AND " + residual.String()
		}
		otSameRows(t, what, got, want)
	}
}

func TestHashJoinEarlyCloseAndErrors(t *testing.T) {
	mk := func(source, batches int) []otBatch {
		var out []otBatch
		for b := 0; b < batches; b++ {
			batch := otBatch{names: []string{"k", "id"}, from: []int{source, source}}
			for i := 0; i < 20; i++ {
				batch.rows = append(batch.rows, []value.Value{otN(strconv.Itoa(i % 4)), otN(strconv.Itoa(b*20 + i))})
			}
			out = append(out, batch)
		}
		return out
	}
	node := func(probe, build Operator) *planner.HashJoin {
		return &planner.HashJoin{Probe: &otLeaf{op: probe}, Build: &otLeaf{op: build}, Kind: planner.JoinInner,
			ProbeKeys: []expr.Expr{otQCol(0, "k")}, BuildKeys: []expr.Expr{otQCol(1, "k")}}
	}
	t.Run("limit1_with_pending_output_batches", func(t *testing.T) {
		env := otEnv(t)
		env.BatchRows = 3 // one probe batch yields many output batches
		probe, build := otSrc(env, mk(0, 5)...), otSrc(env, mk(1, 3)...)
		op := otMustBuild(t, env, &planner.Limit{Count: 1, Input: node(probe, build)})
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 1 {
			t.Fatalf("%d rows, %v", len(rows), err)
		}
		if probe.nexts != 1 {
			t.Errorf("read %d probe batches for one row", probe.nexts)
		}
		op.Close()
		probe.check(t)
		build.check(t)
	})
	t.Run("close_before_next", func(t *testing.T) {
		env := otEnv(t)
		probe, build := otSrc(env, mk(0, 2)...), otSrc(env, mk(1, 2)...)
		op := otMustBuild(t, env, node(probe, build))
		op.Close()
		probe.check(t)
		build.check(t)
	})
	t.Run("build_error", func(t *testing.T) {
		env := otEnv(t)
		probe, build := otSrc(env, mk(0, 2)...), otSrc(env, mk(1, 3)...)
		build.failAt = 2
		op := otMustBuild(t, env, node(probe, build))
		if _, _, err := otDrain(op); !errors.Is(err, otErrInput) {
			t.Fatalf("error %v, want the build side's", err)
		}
		if probe.nexts != 0 {
			t.Error("the probe side was read although the build side failed")
		}
		op.Close()
		probe.check(t)
		build.check(t)
	})
	t.Run("probe_error", func(t *testing.T) {
		env := otEnv(t)
		env.BatchRows = 7
		probe, build := otSrc(env, mk(0, 4)...), otSrc(env, mk(1, 2)...)
		probe.failAt = 2
		op := otMustBuild(t, env, node(probe, build))
		rows, _, err := otDrain(op)
		// Two probe batches of 20 rows, each matching 10 build rows.
		if !errors.Is(err, otErrInput) || len(rows) != 400 {
			t.Fatalf("%d rows, %v; want 400 then the probe side's error", len(rows), err)
		}
		op.Close()
		probe.check(t)
		build.check(t)
	})
	t.Run("residual_error", func(t *testing.T) {
		env := otEnv(t)
		probe, build := otSrc(env, mk(0, 2)...), otSrc(env, mk(1, 2)...)
		n := node(probe, build)
		n.Residual = expr.Binary{Op: expr.OpGt, L: expr.Binary{Op: expr.OpAdd, L: otQCol(1, "id"), R: otLit(otS("x"))}, R: otLit(otN("0"))}
		op := otMustBuild(t, env, n)
		if _, _, err := otDrain(op); otCode(err) != diag.CodeEval {
			t.Fatalf("error %v, want an eval error", err)
		}
		op.Close()
		probe.check(t)
		build.check(t)
	})
}

// otTestJoined evaluates a residual over a joined reference row.
func otTestJoined(pred expr.Expr, row otRow) (bool, error) {
	tr, err := eval.Test(pred, otQualifiedRow{row})
	return tr == eval.True, err
}

// otQualifiedRow shows a joined row to the evaluator.
type otQualifiedRow struct{ r otRow }

func (o otQualifiedRow) Attr(id expr.ColumnID) value.Value {
	c := otColumnOf(id)
	return o.r.getFrom(c.source, c.attr)
}
func (o otQualifiedRow) Item(int) (value.Value, bool) { return value.MissingValue(), false }
func (o otQualifiedRow) Ref(int) value.Value          { return value.MissingValue() }
