package engine

import (
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// stJoinSide is random rows of one FROM item: k (a key of mixed types,
// NULLs included, skewed less than elsewhere: a hot key's rows must fit in
// the budget for the join to finish; with uniform, numbers and NULLs
// only, evenly spread), v (a number), id.
func stJoinSide(t *testing.T, source, rows, keys int, prefix string, uniform bool) []otBatch {
	r := otRand(t)
	data := make([][]value.Value, rows)
	for i := range data {
		k := stSkewedValue(r, keys, 40)
		if uniform {
			k = value.NumTrusted(strconv.Itoa(r.IntN(keys)))
			if r.IntN(20) == 0 {
				k = value.NullValue()
			}
		}
		data[i] = []value.Value{k, otN(strconv.Itoa(r.IntN(5))), otS(prefix + strconv.Itoa(i))}
	}
	batches := stBatches(r, []string{"k", "v", "id"}, data)
	for i := range batches {
		batches[i].from = []int{source, source, source}
	}
	return batches
}

func stHashJoin(t *testing.T, env *Env, kind planner.JoinKind, residual expr.Expr, probeIn, buildIn []otBatch) ([]otRow, error) {
	t.Helper()
	probe, build := otSrc(env, probeIn...), otSrc(env, buildIn...)
	op := otMustBuild(t, env, &planner.HashJoin{
		Probe: &otLeaf{op: probe}, Build: &otLeaf{op: build}, Kind: kind,
		ProbeKeys: []expr.Expr{otQCol(0, "k")}, BuildKeys: []expr.Expr{otQCol(1, "k")},
		Residual: residual,
	})
	rows, _, err := otDrain(op)
	if cerr := op.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	probe.check(t)
	build.check(t)
	return rows, err
}

func TestHashJoinSpillMatchesInMemory(t *testing.T) {
	residual := expr.Binary{Op: expr.OpGe, L: otQCol(1, "v"), R: otQCol(0, "v")}
	for _, tc := range []struct {
		name     string
		kind     planner.JoinKind
		residual expr.Expr
		limit    int64
		uniform  bool // keys evenly spread: the budget can be tiny, forcing several levels
	}{
		{"inner", planner.JoinInner, nil, 40 << 10, false},
		{"left", planner.JoinLeft, nil, 32 << 10, false},
		{"inner, tiny budget", planner.JoinInner, nil, 3 << 10, true},
		{"left, tiny budget", planner.JoinLeft, residual, 3 << 10, true},
		{"left with residual", planner.JoinLeft, residual, 28 << 10, false},
		{"inner with residual", planner.JoinInner, residual, 36 << 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probeIn := stJoinSide(t, 0, 1500, 3000, "p", tc.uniform)
			buildIn := stJoinSide(t, 1, 3000, 3000, "b", tc.uniform)
			want, err := stHashJoin(t, otEnv(t), tc.kind, tc.residual, probeIn, buildIn)
			if err != nil {
				t.Fatal(err)
			}
			env := stSpillEnv(t, tc.limit, true)
			env.BatchRows = 500
			got, err := stHashJoin(t, env, tc.kind, tc.residual, probeIn, buildIn)
			if err != nil {
				t.Fatal(err)
			}
			files := env.Spill.Files()
			stFinish(t, env)
			if files == 0 {
				t.Fatalf("a %d-byte budget wrote no spill file", tc.limit)
			}
			if tc.uniform && files <= 2*spillFanout {
				t.Errorf("%d spill files: the runs were never partitioned again", files)
			}
			stSameMultiset(t, tc.name, got, want)
		})
	}
}

func TestHashJoinWithoutSpillDirFails(t *testing.T) {
	env := stSpillEnv(t, 8<<10, false)
	_, err := stHashJoin(t, env, planner.JoinInner, nil, stJoinSide(t, 0, 500, 500, "p", false), stJoinSide(t, 1, 3000, 3000, "b", false))
	stWantMemoryLimit(t, err, "JOIN")
	stFinish(t, env)
}

// A build side of one key cannot shrink by partitioning: after the last
// level the join fails with the memory-limit error instead of spilling on.
func TestHashJoinOneKeyPastTheLimitFails(t *testing.T) {
	var build, probe [][]value.Value
	for i := 0; i < 2000; i++ {
		build = append(build, []value.Value{otN("7"), otN("1"), otS("b" + strconv.Itoa(i))})
	}
	probe = append(probe, []value.Value{otN("7"), otN("1"), otS("p")})
	side := func(source int, rows [][]value.Value) []otBatch {
		var out []otBatch
		for len(rows) > 0 {
			n := min(len(rows), 100)
			out = append(out, otBatch{names: []string{"k", "v", "id"}, from: []int{source, source, source}, rows: rows[:n]})
			rows = rows[n:]
		}
		return out
	}
	env := stSpillEnv(t, 8<<10, true)
	_, err := stHashJoin(t, env, planner.JoinInner, nil, side(0, probe), side(1, build))
	stWantMemoryLimit(t, err, "JOIN")
	files := env.Spill.Files()
	stFinish(t, env)
	if files != 1 {
		t.Errorf("%d spill files: the one key's rows were written again level after level", files)
	}
}
