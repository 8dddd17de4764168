package engine

import (
	"errors"
	"os"
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// spillEnv is otEnv with a memory budget of limit bytes and a spill
// directory under a test directory.
func spillEnv(t *testing.T, limit int64) (*Env, string) {
	env := otEnv(t)
	base := t.TempDir()
	env.Memory, env.Spill = spill.NewBudget(limit), spill.NewDir(base)
	return env, base
}

func emptyDir(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("%s is left in the temp dir", e.Name())
	}
}

// The same random input sorted within a tiny budget (many runs, merged)
// and without one gives the same rows in the same order.
func TestSortSpilledMatchesInMemory(t *testing.T) {
	r := otRand(t)
	spilled := 0
	for iter := 0; iter < 40; iter++ {
		input := otSortInput(r, 4+r.IntN(12))
		keys := []planner.SortKey{{Expr: otCol("k1"), Desc: r.IntN(2) == 0}}
		if r.IntN(2) == 0 {
			keys = append(keys, planner.SortKey{Expr: otCol("k2"), Desc: r.IntN(2) == 0})
		}
		batchRows := 1 + r.IntN(20)
		run := func(env *Env) []otRow {
			env.BatchRows = batchRows
			src := otSrc(env, input...)
			op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: keys})
			got, _, err := otDrain(op)
			if err != nil {
				t.Fatal(err)
			}
			op.Close()
			src.check(t)
			return got
		}
		want := run(otEnv(t))
		otSameRows(t, "reference", want, otReferenceSort(otRowsOf(input...), keys))
		// The budget holds about two of the largest input batches.
		env, base := spillEnv(t, 6<<10)
		got := run(env)
		otSameRows(t, "spilled", got, want)
		spilled += env.Spill.Files()
		if env.Memory.Used() != 0 {
			t.Errorf("%d bytes still reserved after Close", env.Memory.Used())
		}
		if err := env.Spill.Close(); err != nil {
			t.Fatal(err)
		}
		emptyDir(t, base)
	}
	if spilled < 40 {
		t.Errorf("only %d runs were spilled in 40 sorts: the budget does not force spilling", spilled)
	}
}

// A sort closed in the middle of its merge releases every batch and
// reservation.
func TestSortSpilledClosedEarly(t *testing.T) {
	r := otRand(t)
	input := otSortInput(r, 30)
	env, base := spillEnv(t, 4<<10)
	env.BatchRows = 3
	src := otSrc(env, input...)
	op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: otCol("k1")}}})
	b, err := op.Next(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.Release()
	if env.Spill.Files() == 0 {
		t.Fatal("nothing spilled")
	}
	op.Close()
	if env.Memory.Used() != 0 {
		t.Errorf("%d bytes still reserved after Close", env.Memory.Used())
	}
	env.Spill.Close()
	emptyDir(t, base)
}

// Without a spill directory, or when one batch alone is past the limit,
// ORDER BY fails with memory_limit instead of growing.
func TestSortPastTheLimitFails(t *testing.T) {
	r := otRand(t)
	input := otSortInput(r, 20)
	for _, c := range []struct {
		name  string
		limit int64
		spill bool
	}{{"no spill directory", 2 << 10, false}, {"one batch past the limit", 64, true}} {
		env, base := spillEnv(t, c.limit)
		if !c.spill {
			env.Spill = nil
		}
		src := otSrc(env, input...)
		op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: otCol("k1")}}})
		_, _, err := otDrain(op)
		op.Close()
		if otCode(err) != diag.CodeMemoryLimit {
			t.Errorf("%s: error %v, want %s", c.name, err, diag.CodeMemoryLimit)
		}
		if env.Memory.Used() != 0 {
			t.Errorf("%s: %d bytes still reserved after Close", c.name, env.Memory.Used())
		}
		if env.Spill != nil {
			env.Spill.Close()
		}
		emptyDir(t, base)
	}
}

// An input that fails after the sort has spilled leaves nothing reserved,
// no batch unreleased (otEnv's allocator checks) and no file.
func TestSortSpilledThenInputFails(t *testing.T) {
	r := otRand(t)
	input := otSortInput(r, 30)
	env, base := spillEnv(t, 4<<10)
	src := otSrc(env, input...)
	src.failAt = 25
	op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: []planner.SortKey{{Expr: otCol("k1")}}})
	_, _, err := otDrain(op)
	if !errors.Is(err, otErrInput) {
		t.Fatalf("error %v, want the input's", err)
	}
	if env.Spill.Files() == 0 {
		t.Fatal("nothing spilled before the failure")
	}
	op.Close()
	if env.Memory.Used() != 0 {
		t.Errorf("%d bytes still reserved after Close", env.Memory.Used())
	}
	env.Spill.Close()
	emptyDir(t, base)
}

// Columns stored as int64 or strings are keyed from their cells, not from
// values: the order must still be the reference's, with missing cells
// (an absent attribute) first ascending and last descending.
func TestSortKeyedFromCells(t *testing.T) {
	r := otRand(t)
	var input []otBatch
	seq := 0
	for b := 0; b < 8; b++ {
		batch := otBatch{names: []string{"n", "s", "seq"}}
		for i := 0; i < 20; i++ {
			n, s := otN(strconv.Itoa(r.IntN(41)-20)), otS([]string{"", "a", "a\x00", "ab", "b", "é"}[r.IntN(6)])
			if r.IntN(5) == 0 {
				n = value.MissingValue()
			}
			if r.IntN(5) == 0 {
				s = value.MissingValue()
			}
			batch.rows = append(batch.rows, []value.Value{n, s, otN(strconv.Itoa(seq))})
			seq++
		}
		input = append(input, batch)
	}
	for _, descN := range []bool{false, true} {
		for _, descS := range []bool{false, true} {
			keys := []planner.SortKey{{Expr: otCol("s"), Desc: descS}, {Expr: otCol("n"), Desc: descN}}
			env := otEnv(t)
			src := otSrc(env, input...)
			op := otMustBuild(t, env, &planner.Sort{Input: &otLeaf{op: src}, Keys: keys})
			got, _, err := otDrain(op)
			if err != nil {
				t.Fatal(err)
			}
			op.Close()
			otSameRows(t, "keyed from cells", got, otReferenceSort(otRowsOf(input...), keys))
		}
	}
}
