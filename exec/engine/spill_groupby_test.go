package engine

import (
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// stGroupInput is random rows of two group keys k, k2 and aggregate
// inputs x (numbers) and y (any key value).
func stGroupInput(t *testing.T, rows, keys int) []otBatch {
	r := otRand(t)
	names := []string{"k", "k2", "x", "y"}
	data := make([][]value.Value, rows)
	for i := range data {
		data[i] = []value.Value{stValue(r, keys), stValue(r, 3), stNumber(r), stValue(r, keys)}
	}
	return stBatches(r, names, data)
}

// stGroupAggs covers every aggregate, DISTINCT ones included; general adds
// an expression argument, which takes the row-by-row path.
func stGroupAggs(general bool) []expr.Aggregate {
	aggs := append([]expr.Aggregate(nil), otAllAggs...)
	aggs = append(aggs, otAgg("min", otCol("y"), false), otAgg("max", otCol("y"), false),
		otAgg("count", otCol("y"), true), otAgg("avg", otCol("x"), true))
	if general {
		times1 := expr.Binary{Op: expr.OpMul, L: otCol("x"), R: otLit(otN("1"))}
		aggs = append(aggs, otAgg("sum", times1, false), otAgg("count", times1, true))
	}
	return aggs
}

func TestGroupBySpillMatchesInMemory(t *testing.T) {
	for _, tc := range []struct {
		name    string
		groups  []expr.Expr
		general bool
		rows    int
		keys    int
		limit   int64
	}{
		{"fast path, many keys", []expr.Expr{otCol("k"), otCol("k2")}, false, 5000, 3000, 32 << 10},
		{"general path", []expr.Expr{otCol("k"), otCol("k2")}, true, 3000, 1500, 24 << 10},
		{"one key column, tiny budget", []expr.Expr{otCol("k")}, false, 2000, 1500, 4 << 10},
		{"no GROUP BY, distinct sets spill", nil, false, 5000, 4000, 8 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := stGroupInput(t, tc.rows, tc.keys)
			aggs := stGroupAggs(tc.general)
			want, err := otAggregate(t, otEnv(t), tc.groups, aggs, in...)
			if err != nil {
				t.Fatal(err)
			}
			env := stSpillEnv(t, tc.limit, true)
			got, err := otAggregate(t, env, tc.groups, aggs, in...)
			if err != nil {
				t.Fatal(err)
			}
			files := env.Spill.Files()
			stFinish(t, env)
			if files == 0 {
				t.Fatalf("a %d-byte budget wrote no spill file", tc.limit)
			}
			if tc.groups != nil && files <= spillFanout {
				t.Errorf("%d spill files: the runs were never partitioned again", files)
			}
			stSameMultiset(t, tc.name, got, want)
		})
	}
}

func TestGroupByWithoutSpillDirFails(t *testing.T) {
	in := stGroupInput(t, 2000, 1000)
	env := stSpillEnv(t, 4<<10, false)
	_, err := otAggregate(t, env, []expr.Expr{otCol("k")}, []expr.Aggregate{otAgg("count", nil, false)}, in...)
	stWantMemoryLimit(t, err, "GROUP BY")
	stFinish(t, env)
}

func TestCountDistinctWithoutSpillDirFails(t *testing.T) {
	in := stGroupInput(t, 3000, 3000)
	env := stSpillEnv(t, 1<<10, false)
	_, err := otAggregate(t, env, nil, []expr.Aggregate{otAgg("count", otCol("y"), true)}, in...)
	stWantMemoryLimit(t, err, "COUNT(DISTINCT")
	stFinish(t, env)
}

// Groups each larger than the budget still finish: a level always holds
// one group, and the others go one level deeper.
func TestGroupByKeysLargerThanBudget(t *testing.T) {
	big := make([]byte, 64<<10)
	rows := [][]value.Value{}
	for i := 0; i < 50; i++ {
		big[0] = byte(i)
		rows = append(rows, []value.Value{value.Bin(append([]byte(nil), big...))})
	}
	env := stSpillEnv(t, 16<<10, true)
	got, err := otAggregate(t, env, []expr.Expr{otCol("k")}, []expr.Aggregate{otAgg("count", nil, false)},
		otBatch{names: []string{"k"}, rows: rows})
	stFinish(t, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 50 {
		t.Fatalf("%d groups, want 50", len(got))
	}
}

// The MIN/MAX values a group keeps count too: few groups with long
// values spill although their keys alone would fit.
func TestGroupByLongExtremesSpill(t *testing.T) {
	r := otRand(t)
	var data [][]value.Value
	for i := 0; i < 2000; i++ {
		long := make([]byte, 1000+r.IntN(3000))
		for j := range long {
			long[j] = byte('a' + r.IntN(26))
		}
		// Groups keep coming (the copies count once a batch is folded).
		data = append(data, []value.Value{otN(strconv.Itoa(i / 33)), value.Str(string(long))})
	}
	in := stBatches(r, []string{"k", "y"}, data)
	groups := []expr.Expr{otCol("k")}
	aggs := []expr.Aggregate{otAgg("max", otCol("y"), false), otAgg("min", otCol("y"), false)}
	want, err := otAggregate(t, otEnv(t), groups, aggs, in...)
	if err != nil {
		t.Fatal(err)
	}
	env := stSpillEnv(t, 64<<10, true)
	got, err := otAggregate(t, env, groups, aggs, in...)
	if err != nil {
		t.Fatal(err)
	}
	files := env.Spill.Files()
	stFinish(t, env)
	if files == 0 {
		t.Fatal("60 groups of MIN and MAX over 4KB values stayed in a 64KiB budget")
	}
	stSameMultiset(t, "MIN/MAX of long values", got, want)
}
