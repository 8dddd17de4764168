package engine

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// stDistinct runs SELECT DISTINCT over batches.
func stDistinct(t *testing.T, env *Env, batches []otBatch) ([]otRow, error) {
	t.Helper()
	src := otSrc(env, batches...)
	op := otMustBuild(t, env, &planner.Distinct{Input: &otLeaf{op: src}})
	rows, _, err := otDrain(op)
	if cerr := op.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	src.check(t)
	return rows, err
}

func stDistinctInput(t *testing.T, rows, keys int) []otBatch {
	r := otRand(t)
	data := make([][]value.Value, rows)
	for i := range data {
		data[i] = []value.Value{stValue(r, keys), stValue(r, 4)}
	}
	return stBatches(r, []string{"a", "b"}, data)
}

func TestDistinctSpillMatchesInMemory(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rows  int
		keys  int
		limit int64
	}{
		{"many keys", 8000, 4000, 16 << 10},
		{"tiny budget", 3000, 1500, 1 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := stDistinctInput(t, tc.rows, tc.keys)
			want, err := stDistinct(t, otEnv(t), in)
			if err != nil {
				t.Fatal(err)
			}
			env := stSpillEnv(t, tc.limit, true)
			got, err := stDistinct(t, env, in)
			if err != nil {
				t.Fatal(err)
			}
			files := env.Spill.Files()
			stFinish(t, env)
			if files <= spillFanout {
				t.Errorf("%d spill files: the runs were never partitioned again", files)
			}
			stSameMultiset(t, tc.name, got, want)
		})
	}
}

func TestDistinctWithoutSpillDirFails(t *testing.T) {
	env := stSpillEnv(t, 2<<10, false)
	_, err := stDistinct(t, env, stDistinctInput(t, 3000, 3000))
	stWantMemoryLimit(t, err, "DISTINCT")
	stFinish(t, env)
}
