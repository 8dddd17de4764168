package engine

// Helpers for the spilling tests (spill_*_test.go): random inputs of mixed
// types, NULLs, skew and many keys, and an environment whose budget is
// tiny and whose spill directory is checked to be gone at the end.

import (
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// stSpillEnv is a checked environment with a budget of limit bytes and a
// spill directory; at the end of the test the budget must hold nothing
// and, once closed, the directory must be gone.
func stSpillEnv(t *testing.T, limit int64, canSpill bool) *Env {
	t.Helper()
	env := otEnv(t)
	env.Memory = spill.NewBudget(limit)
	if canSpill {
		env.Spill = spill.NewDir(t.TempDir())
	}
	return env
}

// stFinish checks what an operator run under env left behind: nothing
// reserved, and a spill directory that Close removes.
func stFinish(t *testing.T, env *Env) {
	t.Helper()
	if used := env.Memory.Used(); used != 0 {
		t.Errorf("the budget still holds %d bytes after Close", used)
	}
	if env.Spill == nil {
		return
	}
	path := env.Spill.Path()
	if err := env.Spill.Close(); err != nil {
		t.Fatal(err)
	}
	if path != "" {
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("spill directory %s still there after Close (%v)", path, err)
		}
	}
}

// stValue draws a key value: mostly from a skewed pool of keys (a few hot
// ones, many rare), of mixed types, with NULLs and missing attributes.
func stValue(r *rand.Rand, keys int) value.Value { return stSkewedValue(r, keys, 3) }

// stSkewedValue is stValue with one draw in hotOneIn from the hot keys.
func stSkewedValue(r *rand.Rand, keys, hotOneIn int) value.Value {
	switch r.IntN(20) {
	case 0:
		return value.MissingValue()
	case 1:
		return value.NullValue()
	case 2:
		return value.BoolOf(r.IntN(2) == 0)
	}
	var k int
	if r.IntN(hotOneIn) == 0 {
		k = r.IntN(4) // hot keys
	} else {
		k = r.IntN(keys)
	}
	switch k % 3 {
	case 0:
		return value.Str("k" + strconv.Itoa(k))
	case 1:
		return value.NumTrusted(strconv.Itoa(k))
	}
	return value.Bin([]byte{byte(k), byte(k >> 8), 0})
}

// stNumber draws an aggregate input: integers, exact decimals, numbers
// past int64, NULLs and missing values.
func stNumber(r *rand.Rand) value.Value {
	switch r.IntN(12) {
	case 0:
		return value.MissingValue()
	case 1:
		return value.NullValue()
	case 2:
		return value.NumTrusted("9223372036854775807")
	case 3:
		return value.NumTrusted("0." + strconv.Itoa(r.IntN(1000)+1))
	case 4:
		return value.NumTrusted("-" + strconv.Itoa(r.IntN(50)+1))
	}
	return value.NumTrusted(strconv.Itoa(r.IntN(40)))
}

// stBatches splits rows into batches of random sizes.
func stBatches(r *rand.Rand, names []string, rows [][]value.Value) []otBatch {
	var out []otBatch
	for len(rows) > 0 {
		n := min(len(rows), 1+r.IntN(700))
		out = append(out, otBatch{names: names, rows: rows[:n]})
		rows = rows[n:]
	}
	return out
}

// stKeys renders rows for a comparison as multisets.
func stKeys(rows []otRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.key()
	}
	slices.Sort(out)
	return out
}

func stSameMultiset(t *testing.T, what string, got, want []otRow) {
	t.Helper()
	g, w := stKeys(got), stKeys(want)
	if len(g) != len(w) {
		t.Fatalf("%s: %d rows, want %d", what, len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			t.Fatalf("%s: rows differ; first difference %s, want %s", what, g[i], w[i])
		}
	}
}

// stWantMemoryLimit checks err is the memory-limit error naming operator.
func stWantMemoryLimit(t *testing.T, err error, operator string) {
	t.Helper()
	var d *diag.Error
	if !errors.As(err, &d) || d.Code != diag.CodeMemoryLimit {
		t.Fatalf("got %v, want a %s error", err, diag.CodeMemoryLimit)
	}
	if len(d.Msg) < len(operator) || d.Msg[:len(operator)] != operator {
		t.Errorf("message %q does not name %s", d.Msg, operator)
	}
}
