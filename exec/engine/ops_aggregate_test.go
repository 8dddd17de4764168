package engine

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

func otAgg(fn string, arg expr.Expr, distinct bool) expr.Aggregate {
	return expr.Aggregate{Func: fn, Arg: arg, Distinct: distinct}
}

var otAllAggs = []expr.Aggregate{
	otAgg("count", nil, false),
	otAgg("count", otCol("x"), false),
	otAgg("count", otCol("x"), true),
	otAgg("sum", otCol("x"), false),
	otAgg("avg", otCol("x"), false),
	otAgg("min", otCol("x"), false),
	otAgg("max", otCol("x"), false),
	otAgg("sum", otCol("x"), true),
}

// otAggregate runs an aggregation over scripted batches and returns its rows.
func otAggregate(t *testing.T, env *Env, groups []expr.Expr, aggs []expr.Aggregate, batches ...otBatch) ([]otRow, error) {
	t.Helper()
	src := otSrc(env, batches...)
	op := otMustBuild(t, env, &planner.Aggregate{Input: &otLeaf{op: src}, Groups: groups, Aggs: aggs})
	rows, _, err := otDrain(op)
	if cerr := op.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	src.check(t)
	return rows, err
}

func otTexts(r otRow) []string {
	out := make([]string, len(r.vals))
	for i, v := range r.vals {
		switch v.Kind() {
		case value.Missing, value.Null:
			out[i] = "NULL"
		case value.Number, value.String:
			out[i] = v.Text()
		default:
			out[i] = otShow(v)
		}
	}
	return out
}

func otWantRow(t *testing.T, what string, got otRow, want ...string) {
	t.Helper()
	texts := otTexts(got)
	if strings.Join(texts, " | ") != strings.Join(want, " | ") {
		t.Errorf("%s:\n got %s\nwant %s", what, strings.Join(texts, " | "), strings.Join(want, " | "))
	}
}

func TestAggregateWithoutGroupBy(t *testing.T) {
	env := otEnv(t)
	names := []string{"x", "other"}
	batches := []otBatch{
		{names: names, rows: [][]value.Value{{otN("1"), otS("a")}, {value.NullValue(), otS("b")}, {otN("2.5"), otS("c")}}},
		{names: []string{"other"}, rows: [][]value.Value{{otS("d")}}}, // x missing everywhere
		{names: names, rows: [][]value.Value{{otN("1"), otS("e")}, {value.MissingValue(), otS("f")}, {otN("-4"), otS("g")}}},
		{names: names}, // an empty batch
	}
	rows, err := otAggregate(t, env, nil, otAllAggs, batches...)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1", len(rows))
	}
	// COUNT(*) counts rows, COUNT(x) non-NULL x, COUNT(DISTINCT x) distinct
	// non-NULL x; SUM/AVG/MIN/MAX ignore NULLs; AVG = 0.5 / 4.
	otWantRow(t, "aggregates", rows[0], "7", "4", "3", "0.5", "0.125", "-4", "2.5", "-0.5")
	wantNames := []string{"COUNT(*)", "COUNT(x)", "COUNT(DISTINCT x)", "SUM(x)", "AVG(x)", "MIN(x)", "MAX(x)", "SUM(DISTINCT x)"}
	for i, n := range wantNames {
		if rows[0].names[i] != n {
			t.Errorf("column %d is named %q, want %q", i, rows[0].names[i], n)
		}
	}
}

// Over no rows, an aggregation without GROUP BY yields one row: counts 0,
// everything else NULL. With GROUP BY it yields no rows.
func TestAggregateNoRows(t *testing.T) {
	env := otEnv(t)
	for _, input := range [][]otBatch{nil, {{names: []string{"x"}}}} {
		rows, err := otAggregate(t, env, nil, otAllAggs, input...)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 {
			t.Fatalf("%d rows, want 1", len(rows))
		}
		otWantRow(t, "no rows", rows[0], "0", "0", "0", "NULL", "NULL", "NULL", "NULL", "NULL")
		for i := 3; i < len(rows[0].vals); i++ {
			if rows[0].vals[i].Kind() != value.Missing {
				t.Errorf("column %d is %s, want SQL NULL (missing)", i, otShow(rows[0].vals[i]))
			}
		}
		rows, err = otAggregate(t, env, []expr.Expr{otCol("g")}, otAllAggs, input...)
		if err != nil || len(rows) != 0 {
			t.Fatalf("GROUP BY over no rows: %d rows, %v", len(rows), err)
		}
	}
	// Only NULL inputs: COUNT(x) 0, SUM NULL.
	rows, err := otAggregate(t, env, nil, otAllAggs, otBatch{names: []string{"x"}, rows: [][]value.Value{{value.NullValue()}, {value.MissingValue()}}})
	if err != nil {
		t.Fatal(err)
	}
	otWantRow(t, "only NULLs", rows[0], "2", "0", "0", "NULL", "NULL", "NULL", "NULL", "NULL")
}

// Groups come out in order of first appearance; missing and NULL group
// together; equal numbers group together whatever their encoding.
func TestAggregateGroups(t *testing.T) {
	env := otEnv(t)
	env.BatchRows = 2 // several output batches
	names := []string{"g", "x"}
	batches := []otBatch{
		{names: names, rows: [][]value.Value{
			{otS("b"), otN("1")}, {value.NullValue(), otN("5")}, {otN("1"), otN("2")}, {otS("b"), otN("3")},
		}},
		{names: []string{"x"}, rows: [][]value.Value{{otN("7")}}}, // g missing: the NULL group
		{names: names, rows: [][]value.Value{
			{otN("1.0"), value.NullValue()}, // 1.0 is the number 1
			{otS("1"), otN("4")},            // the string "1" is another group
			{value.BoolOf(true), otN("-1")},
			{otS("b"), otS("oops")}, // MIN/MAX accept any type; only this group sees it
		}},
	}
	aggs := []expr.Aggregate{otAgg("count", nil, false), otAgg("count", otCol("x"), false), otAgg("min", otCol("x"), false), otAgg("max", otCol("x"), false)}
	rows, err := otAggregate(t, env, []expr.Expr{otCol("g")}, aggs, batches...)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"b", "3", "3", "1", "oops"}, // MAX by value.Order: strings after numbers
		{"NULL", "2", "2", "5", "7"},
		{"1", "2", "1", "2", "2"},
		{"1", "1", "1", "4", "4"},
		{"BOOL:true", "1", "1", "-1", "-1"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d groups, want %d", len(rows), len(want))
	}
	for i, w := range want {
		otWantRow(t, "group "+strconv.Itoa(i), rows[i], w...)
	}
	if rows[2].vals[0].Kind() != value.Number || rows[3].vals[0].Kind() != value.String {
		t.Error("the number 1 and the string '1' must be separate groups")
	}
	if rows[1].names[0] != "g" {
		t.Errorf("group column named %q", rows[1].names[0])
	}
}

func TestAggregateSums(t *testing.T) {
	nines := strings.Repeat("9", 38)
	tests := []struct {
		name string
		xs   []string
		sum  string
		avg  string // "" skips AVG
	}{
		{"ints", []string{"1", "2", "3"}, "6", "2"},
		{"int64 overflow goes exact", []string{"9223372036854775807", "1"}, "9223372036854775808", "4611686018427387904"},
		{"negative int64 overflow", []string{"-9223372036854775808", "-1"}, "-9223372036854775809", "-4611686018427387904.5"},
		{"decimals", []string{"0.1", "0.2"}, "0.3", "0.15"},
		{"mixed", []string{"1", "0.5", "-2"}, "-0.5", "-0.16666666666666666666666666666666666667"},
		{"38 digits", []string{nines, "-1"}, strings.Repeat("9", 37) + "8", "49999999999999999999999999999999999999"},
		{"cancelling", []string{nines, "1", "-1"}, nines, "33333333333333333333333333333333333333"},
		{"tiny", []string{"1E-130", "1E-130"}, "0." + strings.Repeat("0", 129) + "2", "0." + strings.Repeat("0", 129) + "1"},
		{"huge", []string{"9.99E125", "-9.99E125", "5E125"}, "5" + strings.Repeat("0", 125), "16666666666666666666666666666666666667" + strings.Repeat("0", 88)},
		{"round to one digit", []string{nines, "1"}, "1" + strings.Repeat("0", 38), "5" + strings.Repeat("0", 37)},
		// A sum is output, not a number DynamoDB stores: it keeps every
		// digit, past 38 and past DynamoDB's magnitudes; AVG rounds to 38
		// significant digits, half away from zero.
		{"over 38 digits", []string{nines, "2"}, "1" + strings.Repeat("0", 37) + "1", "5" + strings.Repeat("0", 36) + "1"},
		{"over the magnitude", []string{"9.99E125", "9.99E125"}, "1998" + strings.Repeat("0", 123), "999" + strings.Repeat("0", 123)},
		// The exact sum has 256 digits; rounded to a working precision it
		// would read 1E+125.
		{"far apart", []string{"1E125", "1E-130"}, "1" + strings.Repeat("0", 125) + "." + strings.Repeat("0", 129) + "1", "5" + strings.Repeat("0", 124)},
		{"far apart, cancelling", []string{"1E125", "1E-130", "-1E125"}, "0." + strings.Repeat("0", 129) + "1", "0." + strings.Repeat("0", 130) + strings.Repeat("3", 38)},
		{"average below 1E-130", []string{"1E-130", "0"}, "0." + strings.Repeat("0", 129) + "1", "0." + strings.Repeat("0", 130) + "5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := otEnv(t)
			batch := otBatch{names: []string{"x"}}
			for _, x := range tc.xs {
				batch.rows = append(batch.rows, []value.Value{otN(x)})
			}
			rows, err := otAggregate(t, env, nil, []expr.Aggregate{otAgg("sum", otCol("x"), false)}, batch)
			if err != nil {
				t.Fatal(err)
			}
			otWantRow(t, "SUM", rows[0], tc.sum)
			if tc.avg == "" {
				return
			}
			rows, err = otAggregate(t, env, nil, []expr.Aggregate{otAgg("avg", otCol("x"), false)}, batch)
			if err != nil {
				t.Fatal(err)
			}
			otWantRow(t, "AVG", rows[0], tc.avg)
		})
	}
}

// SUM and AVG of a value that is not a number fail, naming the aggregate;
// a NULL is skipped. SUM(DISTINCT) adds each distinct number once.
func TestAggregateSumErrors(t *testing.T) {
	for _, bad := range []value.Value{otS("12"), value.BoolOf(true), value.ListOf(nil), value.Bin([]byte("1"))} {
		for _, fn := range []string{"sum", "avg"} {
			env := otEnv(t)
			batch := otBatch{names: []string{"x"}, rows: [][]value.Value{{otN("1")}, {value.NullValue()}, {bad}, {otN("2")}}}
			_, err := otAggregate(t, env, nil, []expr.Aggregate{otAgg(fn, otCol("x"), false)}, batch)
			name := strings.ToUpper(fn) + "(x)"
			if err == nil || otCode(err) != diag.CodeEval || !strings.Contains(err.Error(), name) {
				t.Errorf("%s over %s: %v (code %q), want an eval error naming %s", fn, otShow(bad), err, otCode(err), name)
			}
		}
	}
	env := otEnv(t)
	batch := otBatch{names: []string{"x"}, rows: [][]value.Value{{otN("1")}, {otN("1.0")}, {otN("2")}, {value.NullValue()}, {otN("2")}}}
	rows, err := otAggregate(t, env, nil, []expr.Aggregate{otAgg("sum", otCol("x"), true), otAgg("avg", otCol("x"), true), otAgg("count", otCol("x"), true)}, batch)
	if err != nil {
		t.Fatal(err)
	}
	otWantRow(t, "DISTINCT aggregates", rows[0], "3", "1.5", "2")
}

// Aggregate arguments are expressions; their errors are eval errors.
func TestAggregateExpressions(t *testing.T) {
	env := otEnv(t)
	batch := otBatch{names: []string{"g", "x"}, rows: [][]value.Value{{otS("a"), otN("2")}, {otS("A"), otN("3")}, {otS("b"), otS("x")}}}
	lower := expr.Func{Name: "lower", Args: []expr.Expr{otCol("g")}}
	double := expr.Binary{Op: expr.OpMul, L: otCol("x"), R: otLit(otN("2"))}
	rows, err := otAggregate(t, env, []expr.Expr{lower}, []expr.Aggregate{otAgg("count", nil, false)}, batch)
	if err != nil || len(rows) != 2 {
		t.Fatalf("GROUP BY lower(g): %v, %v", rows, err)
	}
	otWantRow(t, "group a", rows[0], "a", "2")
	if _, err := otAggregate(t, env, nil, []expr.Aggregate{otAgg("sum", double, false)}, batch); otCode(err) != diag.CodeEval {
		t.Errorf("SUM(x * 2) over a string: %v, want an eval error", err)
	}
	bad := expr.Binary{Op: expr.OpAdd, L: otCol("g"), R: otLit(otN("1"))}
	if _, err := otAggregate(t, env, []expr.Expr{bad}, []expr.Aggregate{otAgg("count", nil, false)}, batch); otCode(err) != diag.CodeEval {
		t.Errorf("GROUP BY g + 1 over strings: %v, want an eval error", err)
	}
}

func TestAggregateEarlyCloseAndInputError(t *testing.T) {
	mk := func() []otBatch {
		var out []otBatch
		for b := 0; b < 6; b++ {
			batch := otBatch{names: []string{"g", "x"}}
			for i := 0; i < 50; i++ {
				batch.rows = append(batch.rows, []value.Value{otN(strconv.Itoa((b*50 + i) % 37)), otN(strconv.Itoa(i))})
			}
			out = append(out, batch)
		}
		return out
	}
	groups := []expr.Expr{otCol("g")}
	t.Run("close_before_next", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, mk()...)
		op := otMustBuild(t, env, &planner.Aggregate{Input: &otLeaf{op: src}, Groups: groups, Aggs: otAllAggs})
		op.Close()
		src.check(t)
	})
	t.Run("limit1", func(t *testing.T) {
		env := otEnv(t)
		env.BatchRows = 5
		src := otSrc(env, mk()...)
		op := otMustBuild(t, env, &planner.Limit{Count: 1, Input: &planner.Aggregate{Input: &otLeaf{op: src}, Groups: groups, Aggs: otAllAggs}})
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 1 {
			t.Fatalf("%d rows, %v", len(rows), err)
		}
		op.Close()
		src.check(t)
	})
	t.Run("input_error", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, mk()...)
		src.failAt = 3
		op := otMustBuild(t, env, &planner.Aggregate{Input: &otLeaf{op: src}, Groups: groups, Aggs: otAllAggs})
		if _, err := op.Next(context.Background()); !errors.Is(err, otErrInput) {
			t.Fatalf("error %v, want the input's", err)
		}
		op.Close()
		src.check(t)
	})
	t.Run("all_groups", func(t *testing.T) {
		env := otEnv(t)
		env.BatchRows = 4
		src := otSrc(env, mk()...)
		op := otMustBuild(t, env, &planner.Aggregate{Input: &otLeaf{op: src}, Groups: groups, Aggs: []expr.Aggregate{otAgg("count", nil, false)}})
		rows, batches, err := otDrain(op)
		if err != nil || len(rows) != 37 || batches != 10 {
			t.Fatalf("%d groups in %d batches, %v; want 37 in 10", len(rows), batches, err)
		}
		total := 0
		for i, r := range rows {
			if r.vals[0].Text() != strconv.Itoa(i) {
				t.Fatalf("group %d is %s: groups must come in order of first appearance", i, r.vals[0].Text())
			}
			n, _ := strconv.Atoi(r.vals[1].Text())
			total += n
		}
		if total != 300 {
			t.Errorf("counts add up to %d, want 300", total)
		}
		if _, err := op.Next(context.Background()); err != io.EOF {
			t.Errorf("Next after the end: %v", err)
		}
		op.Close()
		src.check(t)
	})
}
