package engine

import (
	"errors"
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// DISTINCT keeps the first of equal rows, in input order, across batches;
// a missing attribute and a DynamoDB NULL are the same value; equal numbers
// are equal whatever column encoding carries them.
func TestDistinct(t *testing.T) {
	env := otEnv(t)
	names := []string{"a", "b"}
	batches := []otBatch{
		{names: names, rows: [][]value.Value{
			{otN("1"), otS("x")},             // kept
			{otN("1"), otS("x")},             // duplicate in the same batch
			{value.MissingValue(), otS("y")}, // kept: (NULL, y)
			{value.NullValue(), otS("y")},    // (NULL, y) again
			{otN("2"), value.NullValue()},    // kept: (2, NULL)
		}},
		{names: names, rows: [][]value.Value{ // all duplicates: the batch disappears
			{otN("2"), value.MissingValue()},
			{value.NullValue(), otS("y")},
		}},
		{names: names, rows: [][]value.Value{ // a mixed column: encoded values, same numbers
			{otS("1"), otS("x")},                              // kept: the string '1' is not the number 1
			{otN("1.0"), otS("x")},                            // the number 1 again
			{value.ListOf([]value.Value{otN("1")}), otS("x")}, // kept
			{value.ListOf([]value.Value{otN("1")}), otS("x")},
			{value.BoolOf(false), value.MapOf(map[string]value.Value{"k": otN("1")})}, // kept
		}},
		{names: names, rows: [][]value.Value{ // all new: the batch passes through
			{value.BoolOf(true), otS("z")},
			{value.BoolOf(false), value.MapOf(map[string]value.Value{"k": otN("2")})},
		}},
		{names: names}, // empty
	}
	src := otSrc(env, batches...)
	op := otMustBuild(t, env, &planner.Distinct{Input: &otLeaf{op: src}})
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	op.Close()
	src.check(t)
	all := otRowsOf(batches...)
	want := []otRow{all[0], all[2], all[4], all[7], all[9], all[11], all[12], all[13]}
	otSameRows(t, "DISTINCT", rows, want)
}

func TestDistinctEarlyCloseAndInputError(t *testing.T) {
	mk := func() []otBatch {
		var out []otBatch
		for b := 0; b < 10; b++ {
			batch := otBatch{names: []string{"v"}}
			for i := 0; i < 40; i++ {
				batch.rows = append(batch.rows, []value.Value{otN(strconv.Itoa((b*40 + i) % 150))})
			}
			out = append(out, batch)
		}
		return out
	}
	t.Run("limit1", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, mk()...)
		op := otMustBuild(t, env, &planner.Limit{Count: 1, Input: &planner.Distinct{Input: &otLeaf{op: src}}})
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 1 {
			t.Fatalf("%d rows, %v", len(rows), err)
		}
		if src.nexts != 1 {
			t.Errorf("read %d batches for one row", src.nexts)
		}
		op.Close()
		src.check(t)
	})
	t.Run("all", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, mk()...)
		op := otMustBuild(t, env, &planner.Distinct{Input: &otLeaf{op: src}})
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 150 {
			t.Fatalf("%d rows, %v; want 150", len(rows), err)
		}
		op.Close()
	})
	t.Run("close_before_next", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, mk()...)
		op := otMustBuild(t, env, &planner.Distinct{Input: &otLeaf{op: src}})
		op.Close()
		src.check(t)
	})
	t.Run("input_error", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, mk()...)
		src.failAt = 2
		op := otMustBuild(t, env, &planner.Distinct{Input: &otLeaf{op: src}})
		rows, _, err := otDrain(op)
		if !errors.Is(err, otErrInput) || len(rows) != 80 {
			t.Fatalf("%d rows, %v", len(rows), err)
		}
		op.Close()
		src.check(t)
	})
}

// The filter keeps exactly the rows the evaluator calls TRUE (not FALSE,
// not UNKNOWN), in order, over batches of varying layouts.
func TestFilter(t *testing.T) {
	r := otRand(t)
	input := otSortInput(r, 8)
	preds := []expr.Expr{
		expr.Binary{Op: expr.OpGt, L: otCol("k1"), R: otLit(otN("0"))},
		expr.Binary{Op: expr.OpNe, L: otCol("k1"), R: otCol("k2")},
		expr.IsNull{X: otCol("k2")},
		expr.Unary{Op: expr.OpNot, X: expr.Binary{Op: expr.OpEq, L: otCol("k1"), R: otLit(otS("a"))}},
		expr.In{X: otCol("k1"), List: []expr.Expr{otLit(otN("2")), otLit(otS("b")), otLit(value.NullValue())}},
		expr.Binary{Op: expr.OpOr, L: expr.Like{X: otCol("k1"), Pattern: otLit(otS("%"))}, R: expr.Binary{Op: expr.OpLt, L: otCol("seq"), R: otLit(otN("10"))}},
		otLit(value.BoolOf(true)),
		otLit(value.BoolOf(false)),
	}
	for _, pred := range preds {
		env := otEnv(t)
		src := otSrc(env, input...)
		op := otMustBuild(t, env, &planner.Filter{Input: &otLeaf{op: src}, Pred: pred})
		rows, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		op.Close()
		src.check(t)
		var want []otRow
		for _, row := range otRowsOf(input...) {
			if tr, err := eval.Test(pred, otEvalRow{row}); err != nil {
				t.Fatal(err)
			} else if tr == eval.True {
				want = append(want, row)
			}
		}
		otSameRows(t, "WHERE "+pred.String(), rows, want)
	}
}

// otEvalRow shows an otRow to the evaluator.
type otEvalRow struct{ r otRow }

func (o otEvalRow) Attr(id expr.ColumnID) value.Value { return o.r.get(otColumnOf(id).attr) }
func (o otEvalRow) Item(int) (value.Value, bool)      { return value.MissingValue(), false }
func (o otEvalRow) Ref(i int) value.Value {
	if i < len(o.r.vals) {
		return o.r.vals[i]
	}
	return value.MissingValue()
}

func TestFilterErrorsAndEarlyClose(t *testing.T) {
	batches := otNumbered(10, 10, 10, 10)
	// i + 'x' fails for the first row.
	bad := expr.Binary{Op: expr.OpGt, L: expr.Binary{Op: expr.OpAdd, L: otCol("i"), R: otLit(otS("x"))}, R: otLit(otN("0"))}
	env := otEnv(t)
	src := otSrc(env, batches...)
	op := otMustBuild(t, env, &planner.Filter{Input: &otLeaf{op: src}, Pred: bad})
	if _, _, err := otDrain(op); otCode(err) != diag.CodeEval {
		t.Fatalf("error %v, want an eval error", err)
	}
	op.Close()
	src.check(t)

	src = otSrc(env, batches...)
	src.failAt = 2
	op = otMustBuild(t, env, &planner.Filter{Input: &otLeaf{op: src}, Pred: expr.Binary{Op: expr.OpGe, L: otCol("i"), R: otLit(otN("5"))}})
	rows, _, err := otDrain(op)
	if !errors.Is(err, otErrInput) || len(rows) != 15 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	op.Close()
	src.check(t)

	src = otSrc(env, batches...)
	op = otMustBuild(t, env, &planner.Limit{Count: 1, Input: &planner.Filter{Input: &otLeaf{op: src}, Pred: expr.Binary{Op: expr.OpGe, L: otCol("i"), R: otLit(otN("25"))}}})
	rows, _, err = otDrain(op)
	if err != nil || len(rows) != 1 || rows[0].get("i").Text() != "25" || src.nexts != 3 {
		t.Fatalf("%v, %v after %d batches", rows, err, src.nexts)
	}
	op.Close()
	src.check(t)

	src = otSrc(env, batches...)
	op = otMustBuild(t, env, &planner.Filter{Input: &otLeaf{op: src}, Pred: otLit(value.BoolOf(true))})
	op.Close()
	src.check(t)
}

func TestProject(t *testing.T) {
	env := otEnv(t)
	batches := []otBatch{
		{names: []string{"a", "b"}, rows: [][]value.Value{{otN("1"), otS("x")}, {otN("2"), value.NullValue()}}},
		{names: []string{"b"}, rows: [][]value.Value{{otS("y")}}},
	}
	exprs := []expr.Expr{
		otCol("b"),
		expr.Binary{Op: expr.OpMul, L: otCol("a"), R: otLit(otN("10"))},
		expr.Func{Name: "upper", Args: []expr.Expr{otCol("b")}},
		expr.Ref{Index: 0},
		otLit(otS("k")),
	}
	names := []string{"b", "a10", "ub", "first", "k"}
	src := otSrc(env, batches...)
	op := otMustBuild(t, env, &planner.Project{Input: &otLeaf{op: src}, Exprs: exprs, Names: names})
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	op.Close()
	src.check(t)
	want := [][]string{
		{"x", "10", "X", "1", "k"},
		{"NULL", "20", "NULL", "2", "k"},
		{"y", "NULL", "Y", "y", "k"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, w := range want {
		otWantRow(t, "project row "+strconv.Itoa(i), rows[i], w...)
		for c, n := range names {
			if rows[i].names[c] != n {
				t.Errorf("column %d named %q, want %q", c, rows[i].names[c], n)
			}
		}
	}

	// An evaluation error mid-stream leaks nothing.
	src = otSrc(env, otNumbered(5, 5, 5)...)
	bad := expr.Binary{Op: expr.OpDiv, L: otLit(otN("1")), R: expr.Binary{Op: expr.OpSub, L: otCol("s"), R: otLit(otN("1"))}}
	op = otMustBuild(t, env, &planner.Project{Input: &otLeaf{op: src}, Exprs: []expr.Expr{otCol("i"), bad}, Names: []string{"i", "bad"}})
	rows, _, err = otDrain(op)
	if otCode(err) != diag.CodeEval || len(rows) != 5 {
		t.Fatalf("%d rows, %v; want 5 then an eval error", len(rows), err)
	}
	op.Close()
	src.check(t)

	src = otSrc(env, otNumbered(5, 5)...)
	src.failAt = 1
	op = otMustBuild(t, env, &planner.Project{Input: &otLeaf{op: src}, Exprs: []expr.Expr{otCol("i")}, Names: []string{"i"}})
	if rows, _, err := otDrain(op); !errors.Is(err, otErrInput) || len(rows) != 5 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	op.Close()
	src.check(t)
}

// SELECT * names joined columns by their attributes and passes plain
// batches through.
func TestStarNamesJoinedColumnsByAttribute(t *testing.T) {
	env := otEnv(t)
	src := otSrc(env,
		otBatch{names: []string{"a", "b"}, from: []int{0, 1}, rows: [][]value.Value{{otN("1"), otS("x")}}},
		otBatch{names: []string{"a"}, rows: [][]value.Value{{otN("2")}}},
	)
	op := otMustBuild(t, env, &planner.Project{Input: &otLeaf{op: src}, Star: true})
	rows, _, err := otDrain(op)
	if err != nil || len(rows) != 2 {
		t.Fatalf("%v, %v", rows, err)
	}
	if rows[0].names[0] != "a" || rows[0].names[1] != "b" || rows[0].get("b").Text() != "x" || rows[1].get("a").Text() != "2" {
		t.Errorf("rows %v / %v", rows[0].names, rows[1].names)
	}
	if rows[0].from[0] != -1 || rows[0].from[1] != -1 {
		t.Errorf("SELECT * rows keep FROM items %v, want none", rows[0].from)
	}
	op.Close()
	src.check(t)
}

// Operators read columns by the IDs the planner gives them: a reference
// without one is a planning bug, reported before anything runs.
func TestUnnumberedColumnIsInternalError(t *testing.T) {
	env := otEnv(t)
	src := otSrc(env, otBatch{names: []string{"a"}, rows: [][]value.Value{{otN("1")}}})
	pred := expr.Binary{Op: expr.OpEq, L: expr.Column{Path: value.Path{{Name: "a"}}}, R: otLit(otN("1"))}
	if _, err := otBuild(env, &planner.Filter{Input: &otLeaf{op: src}, Pred: pred}); otCode(err) != diag.CodeInternal {
		t.Fatalf("build error %v, want an internal error", err)
	}
}
