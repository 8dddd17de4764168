package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// unnestInput is a table's rows whose attribute x holds every kind of
// value UNNEST meets, over two batches and an empty one between them.
func unnestInput() []otBatch {
	l := func(vs ...value.Value) value.Value { return value.ListOf(vs) }
	return []otBatch{
		{names: []string{"id", "x"}, rows: [][]value.Value{
			{otN("1"), l(otS("a"), otN("2"), value.NullValue(), value.MapOf(map[string]value.Value{"k": otS("v")}))},
			{otN("2"), value.SetOf(value.StringSet, []value.Value{otS("red"), otS("blue")})},
			{otN("3"), l()},
			{otN("4"), value.MissingValue()},
		}},
		{names: []string{"id"}},
		{names: []string{"id", "x"}, rows: [][]value.Value{
			{otN("5"), value.SetOf(value.NumberSet, []value.Value{otN("10"), otN("-1.5")})},
			{otN("6"), value.SetOf(value.BinarySet, []value.Value{value.Bin([]byte{1, 2})})},
			{otN("7"), otS("not a list")},
			{otN("8"), value.NullValue()},
			{otN("9"), value.MapOf(map[string]value.Value{"a": otN("1")})},
		}},
	}
}

// unnestRows renders the output as "id:value#position" in order.
func unnestRows(rows []otRow, src int, ord bool) string {
	var out []string
	for _, r := range rows {
		s := otShow(r.get("id")) + ":" + otShow(r.getFrom(src, "v"))
		if ord {
			s += "#" + otShow(r.getFrom(src, "n"))
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestUnnestOperator(t *testing.T) {
	const all = `N:1:S:"a" N:1:N:2 N:1:NULL N:1:M:{"k":"v"} N:2:S:"red" N:2:S:"blue" N:5:N:10 N:5:N:-1.5 N:6:B:"AQI="`
	for _, tc := range []struct {
		left, ord bool
		want      string
	}{
		{want: all},
		{ord: true, want: `N:1:S:"a"#N:1 N:1:N:2#N:2 N:1:NULL#N:3 N:1:M:{"k":"v"}#N:4 N:2:S:"red"#N:1 N:2:S:"blue"#N:2 N:5:N:10#N:1 N:5:N:-1.5#N:2 N:6:B:"AQI="#N:1`},
		{left: true, want: `N:1:S:"a" N:1:N:2 N:1:NULL N:1:M:{"k":"v"} N:2:S:"red" N:2:S:"blue" N:3:<missing> N:4:<missing> N:5:N:10 N:5:N:-1.5 N:6:B:"AQI=" N:7:<missing> N:8:<missing> N:9:<missing>`},
		{left: true, ord: true, want: `N:1:S:"a"#N:1 N:1:N:2#N:2 N:1:NULL#N:3 N:1:M:{"k":"v"}#N:4 N:2:S:"red"#N:1 N:2:S:"blue"#N:2 N:3:<missing>#<missing> N:4:<missing>#<missing> N:5:N:10#N:1 N:5:N:-1.5#N:2 N:6:B:"AQI="#N:1 N:7:<missing>#<missing> N:8:<missing>#<missing> N:9:<missing>#<missing>`},
	} {
		t.Run(fmt.Sprintf("left=%v,ordinality=%v", tc.left, tc.ord), func(t *testing.T) {
			env := otEnv(t)
			src := otSrc(env, unnestInput()...)
			n := &planner.Unnest{Input: &otLeaf{op: src}, Source: 1, Alias: "u", X: otCol("x"), Value: "v", Left: tc.left}
			if tc.ord {
				n.Ordinality = "n"
			}
			op := otMustBuild(t, env, n)
			rows, _, err := otDrain(op)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.Close(); err != nil {
				t.Fatal(err)
			}
			src.check(t)
			if got := unnestRows(rows, 1, tc.ord); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			// The repeated input columns keep the table's values.
			for _, r := range rows {
				if r.get("id").Kind() != value.Number {
					t.Fatalf("row without its id: %s", r.key())
				}
			}
		})
	}
}

// TestUnnestOperatorEarlyClose: closing after the first batch releases
// everything (the checked allocator fails the test otherwise).
func TestUnnestOperatorEarlyClose(t *testing.T) {
	env := otEnv(t)
	src := otSrc(env, unnestInput()...)
	op := otMustBuild(t, env, &planner.Unnest{Input: &otLeaf{op: src}, Source: 1, Alias: "u", X: otCol("x"), Value: "v"})
	b, err := op.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if b.NumRows() != 6 {
		t.Errorf("first batch: %d rows, want 6", b.NumRows())
	}
	b.Release()
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	src.check(t)
}

// TestUnnestOperatorErrors: an input failure and an evaluation error reach
// the caller, with nothing leaked.
func TestUnnestOperatorErrors(t *testing.T) {
	env := otEnv(t)
	src := otSrc(env, unnestInput()...)
	src.failAt = 2
	op := otMustBuild(t, env, &planner.Unnest{Input: &otLeaf{op: src}, Source: 1, Alias: "u", X: otCol("x"), Value: "v"})
	if _, _, err := otDrain(op); !errors.Is(err, otErrInput) {
		t.Errorf("input failure: got %v", err)
	}
	op.Close()

	env = otEnv(t)
	src = otSrc(env, unnestInput()...)
	bad := expr.Func{Name: "substring", Args: []expr.Expr{otLit(otS("abc")), otLit(otS("x"))}} // a type error
	op = otMustBuild(t, env, &planner.Unnest{Input: &otLeaf{op: src}, Source: 1, Alias: "u", X: bad, Value: "v"})
	if _, _, err := otDrain(op); otCode(err) != diag.CodeEval {
		t.Errorf("evaluation error: got %v", err)
	}
	op.Close()
}

// TestUnnestOperatorSplitsLongLists: output batches stay within BatchRows,
// a list longer than that spreads over several, and the rows come out in
// order.
func TestUnnestOperatorSplitsLongLists(t *testing.T) {
	for _, rows := range []int{1, 2, 3, 7} {
		t.Run(fmt.Sprint(rows), func(t *testing.T) {
			env := otEnv(t)
			env.BatchRows = rows
			src := otSrc(env, unnestInput()...)
			op := otMustBuild(t, env, &planner.Unnest{Input: &otLeaf{op: src}, Source: 1, Alias: "u", X: otCol("x"), Value: "v", Left: true})
			var got []otRow
			for {
				b, err := op.Next(context.Background())
				if err != nil {
					if !errors.Is(err, io.EOF) {
						t.Fatal(err)
					}
					break
				}
				if int(b.NumRows()) > rows || b.NumRows() == 0 {
					t.Errorf("a batch of %d rows; BatchRows is %d", b.NumRows(), rows)
				}
				got = append(got, otBatchRows(b)...)
				b.Release()
			}
			if err := op.Close(); err != nil {
				t.Fatal(err)
			}
			src.check(t)
			want := `N:1:S:"a" N:1:N:2 N:1:NULL N:1:M:{"k":"v"} N:2:S:"red" N:2:S:"blue" N:3:<missing> N:4:<missing> N:5:N:10 N:5:N:-1.5 N:6:B:"AQI=" N:7:<missing> N:8:<missing> N:9:<missing>`
			if s := unnestRows(got, 1, false); s != want {
				t.Errorf("got  %s\nwant %s", s, want)
			}
		})
	}
}

// TestUnnestOperatorOverJoinedRows: above a join the input's columns carry
// their FROM items already; two UNNESTs, of either side, flatten in turn,
// keep those marks and add their own, and nothing leaks when the consumer
// stops after the first batch.
func TestUnnestOperatorOverJoinedRows(t *testing.T) {
	l := func(vs ...value.Value) value.Value { return value.ListOf(vs) }
	input := func() []otBatch {
		return []otBatch{{names: []string{"id", "x", "id", "tags"}, from: []int{0, 0, 1, 1}, rows: [][]value.Value{
			{otN("1"), l(otS("a"), otS("b")), otS("p1"), l(otS("red"))},
			{otN("2"), l(otS("c")), otS("p2"), l(otS("blue"), otS("green"))},
			{otN("3"), l(), otS("p3"), l(otS("x"))},
		}}}
	}
	plan := func(src Operator) planner.Node {
		first := &planner.Unnest{Input: &otLeaf{op: src}, Source: 2, Alias: "u", X: otQCol(0, "x"), Value: "v"}
		return &planner.Unnest{Input: first, Source: 3, Alias: "w", X: otQCol(1, "tags"), Value: "v", Ordinality: "n"}
	}
	env := otEnv(t)
	src := otSrc(env, input()...)
	op := otMustBuild(t, env, plan(src))
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	src.check(t)
	var got []string
	for _, r := range rows {
		got = append(got, otShow(r.getFrom(0, "id"))+"/"+otShow(r.getFrom(1, "id"))+":"+otShow(r.getFrom(2, "v"))+","+otShow(r.getFrom(3, "v"))+"#"+otShow(r.getFrom(3, "n")))
	}
	want := `N:1/S:"p1":S:"a",S:"red"#N:1 N:1/S:"p1":S:"b",S:"red"#N:1 N:2/S:"p2":S:"c",S:"blue"#N:1 N:2/S:"p2":S:"c",S:"green"#N:2`
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}

	env = otEnv(t)
	env.BatchRows = 1
	src = otSrc(env, input()...)
	op = otMustBuild(t, env, plan(src))
	b, err := op.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b.Release()
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	src.check(t)
}
