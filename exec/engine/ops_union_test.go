package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// otUnion is a Union over scripted branches of a table keyed by PK, SK.
func otUnion(branches ...*otSource) *planner.Union {
	u := &planner.Union{Table: "t", KeyAttrs: []string{"PK", "SK"}}
	for _, b := range branches {
		u.Branches = append(u.Branches, &otLeaf{op: b})
	}
	return u
}

func otItem(pk, sk string, rest ...value.Value) []value.Value {
	return append([]value.Value{otS(pk), otS(sk)}, rest...)
}

// An item returned by several branches comes out once, where the first
// branch returned it; batch layouts differ between and within branches.
func TestUnionDeduplicatesByPrimaryKey(t *testing.T) {
	env := otEnv(t)
	a := otSrc(env,
		otBatch{names: []string{"PK", "SK", "x"}, rows: [][]value.Value{
			otItem("p1", "a", otN("1")), otItem("p1", "b", otN("2"))}},
		otBatch{names: []string{"SK", "PK"}, rows: [][]value.Value{
			{otS("c"), otS("p1")}}},
	)
	b := otSrc(env,
		otBatch{names: []string{"PK", "SK", "y"}, rows: [][]value.Value{
			otItem("p1", "b", otS("again")), otItem("p2", "b", otS("new")), otItem("p1", "c", otS("again"))}},
		otBatch{names: []string{"PK", "SK"}, rows: [][]value.Value{
			otItem("p1", "a"), otItem("p1", "c")}}, // all duplicates: no batch
		otBatch{names: []string{"PK", "SK"}, rows: [][]value.Value{
			otItem("p2", "b"), otItem("p3", "a")}},
	)
	c := otSrc(env) // an empty branch
	op := otMustBuild(t, env, otUnion(a, c, b))
	rows, batches, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*otSource{a, b, c} {
		s.check(t)
	}
	want := otRowsOf(
		otBatch{names: []string{"PK", "SK", "x"}, rows: [][]value.Value{
			otItem("p1", "a", otN("1")), otItem("p1", "b", otN("2"))}},
		otBatch{names: []string{"PK", "SK"}, rows: [][]value.Value{otItem("p1", "c")}},
		otBatch{names: []string{"PK", "SK", "y"}, rows: [][]value.Value{otItem("p2", "b", otS("new"))}},
		otBatch{names: []string{"PK", "SK"}, rows: [][]value.Value{otItem("p3", "a")}},
	)
	otSameRows(t, "union", rows, want)
	if batches != 4 {
		t.Errorf("%d batches, want 4 (a batch of only duplicates is skipped)", batches)
	}
}

// Keys compare by value whatever the batch's column encoding: a number key
// stored as int64 in one batch and as decimal text in another is one key;
// a string "1" is not the number 1.
func TestUnionKeysCompareByValue(t *testing.T) {
	env := otEnv(t)
	u := &planner.Union{Table: "metrics", KeyAttrs: []string{"device", "seq"}}
	a := otSrc(env, otBatch{names: []string{"device", "seq"}, rows: [][]value.Value{
		{otN("1"), otN("7")}, {otN("2"), otN("7")}}})
	b := otSrc(env, otBatch{names: []string{"device", "seq"}, rows: [][]value.Value{
		{otN("1.5"), otN("7")}, {otN("1"), otN("7")}, {otS("2"), otN("7")}, {otN("2"), otN("7.0")}}})
	u.Branches = []planner.Node{&otLeaf{op: a}, &otLeaf{op: b}}
	op := otMustBuild(t, env, u)
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	op.Close()
	var got []string
	for _, r := range rows {
		got = append(got, otShow(r.get("device"))+"/"+otShow(r.get("seq")))
	}
	want := []string{"N:1/N:7", "N:2/N:7", "N:1.5/N:7", `S:"2"/N:7`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}

// Columns marked with FROM items are told apart by them: the union reads
// the keys of its own FROM item.
func TestUnionQualifiedKeys(t *testing.T) {
	env := otEnv(t)
	names, from := []string{"PK", "SK", "PK"}, []int{2, 2, 0}
	u := &planner.Union{Table: "t", KeyAttrs: []string{"PK", "SK"}, Source: 2}
	a := otSrc(env, otBatch{names: names, from: from, rows: [][]value.Value{
		{otS("p"), otS("a"), otS("x")}}})
	b := otSrc(env, otBatch{names: names, from: from, rows: [][]value.Value{
		{otS("p"), otS("a"), otS("y")}, {otS("p"), otS("b"), otS("x")}}})
	u.Branches = []planner.Node{&otLeaf{op: a}, &otLeaf{op: b}}
	op := otMustBuild(t, env, u)
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	op.Close()
	if len(rows) != 2 || rows[1].getFrom(2, "SK").Text() != "b" {
		t.Errorf("rows %v, want p/a from the first branch and p/b", rows)
	}
}

// Branches are read one after another: a LIMIT met in the first branch
// closes it and never builds or asks the second for anything.
func TestUnionLimitStopsBeforeLaterBranches(t *testing.T) {
	env := otEnv(t)
	many := func(pk string) []otBatch {
		var out []otBatch
		for b := 0; b < 20; b++ {
			batch := otBatch{names: []string{"PK", "SK"}}
			for i := 0; i < 50; i++ {
				batch.rows = append(batch.rows, otItem(pk, fmt.Sprintf("%04d", b*50+i)))
			}
			out = append(out, batch)
		}
		return out
	}
	a, b := otSrc(env, many("a")...), otSrc(env, many("b")...)
	op := otMustBuild(t, env, &planner.Limit{Input: otUnion(a, b), Count: 60})
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 60 {
		t.Errorf("%d rows, want 60", len(rows))
	}
	if a.nexts != 2 || b.nexts != 0 {
		t.Errorf("branches asked for %d and %d batches, want 2 and 0", a.nexts, b.nexts)
	}
	if a.closes != 1 {
		t.Errorf("the first branch was closed %d times when the LIMIT was met, want 1", a.closes)
	}
	op.Close()
	a.check(t)
	otNeverBuilt(t, b)

	// LIMIT 0 reads nothing at all.
	c, d := otSrc(env, many("c")...), otSrc(env, many("d")...)
	op = otMustBuild(t, env, &planner.Limit{Input: otUnion(c, d), Count: 0})
	if _, err := op.Next(context.Background()); err != io.EOF {
		t.Fatalf("LIMIT 0: %v, want EOF", err)
	}
	op.Close()
	otNeverBuilt(t, c)
	otNeverBuilt(t, d)
}

// otNeverBuilt asserts that a branch the union never reached was never
// used (the union builds a branch's operator only when it reaches it, so
// there is nothing to close).
func otNeverBuilt(t *testing.T, s *otSource) {
	t.Helper()
	if s.nexts != 0 || s.closes != 0 {
		t.Errorf("a branch the union never reached saw %d Next and %d Close calls", s.nexts, s.closes)
	}
}

// An ended branch is closed before the next one starts, so at most one
// branch holds resources.
func TestUnionClosesEndedBranches(t *testing.T) {
	env := otEnv(t)
	a := otSrc(env, otBatch{names: []string{"PK", "SK"}, rows: [][]value.Value{otItem("a", "1")}})
	b := otSrc(env, otBatch{names: []string{"PK", "SK"}, rows: [][]value.Value{otItem("b", "1")}},
		otBatch{names: []string{"PK", "SK"}, rows: [][]value.Value{otItem("b", "2")}})
	op := otMustBuild(t, env, otUnion(a, b))
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		batch, err := op.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		batch.Release()
	}
	if a.closes != 1 || b.closes != 0 {
		t.Errorf("after the first branch ended: closes %d and %d, want 1 and 0", a.closes, b.closes)
	}
	op.Close()
	op.Close()
	a.check(t)
	b.check(t)
	if b.closes != 1 {
		t.Errorf("second branch closed %d times, want once", b.closes)
	}
}

// A branch that fails mid-stream fails the union after the rows before it;
// Close still releases everything, and Close before Next is safe.
func TestUnionErrorMidStream(t *testing.T) {
	env := otEnv(t)
	a := otSrc(env, otNumberedItems("a", 3, 4)...)
	b := otSrc(env, otNumberedItems("b", 5, 5, 5)...)
	b.failAt = 1
	c := otSrc(env, otNumberedItems("c", 2)...)
	op := otMustBuild(t, env, otUnion(a, b, c))
	rows, _, err := otDrain(op)
	if !errors.Is(err, otErrInput) {
		t.Fatalf("error %v, want the branch's", err)
	}
	if len(rows) != 12 {
		t.Errorf("%d rows before the error, want 12", len(rows))
	}
	op.Close()
	a.check(t)
	b.check(t)
	otNeverBuilt(t, c)

	d := otSrc(env, otNumberedItems("d", 2)...)
	op = otMustBuild(t, env, otUnion(d))
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	otNeverBuilt(t, d)
}

// otNumberedItems returns batches of the given sizes of items pk/0000, pk/0001, …
func otNumberedItems(pk string, sizes ...int) []otBatch {
	var out []otBatch
	i := 0
	for _, n := range sizes {
		b := otBatch{names: []string{"PK", "SK"}}
		for r := 0; r < n; r++ {
			b.rows = append(b.rows, otItem(pk, fmt.Sprintf("%04d", i)))
			i++
		}
		out = append(out, b)
	}
	return out
}

// Random branches over a small key space: the union is every key once, in
// order of first appearance.
func TestUnionRandom(t *testing.T) {
	r := otRand(t)
	for round := 0; round < 200; round++ {
		env := otEnv(t)
		var srcs []*otSource
		var want []string
		seen := map[string]bool{}
		for b := 0; b < 1+r.IntN(5); b++ {
			var batches []otBatch
			for k := 0; k < r.IntN(4); k++ {
				batch := otBatch{names: []string{"PK", "SK", "v"}}
				for i := 0; i < r.IntN(6); i++ {
					pk, sk := fmt.Sprint("p", r.IntN(3)), fmt.Sprint("s", r.IntN(4))
					batch.rows = append(batch.rows, otItem(pk, sk, otN(fmt.Sprint(b))))
					if key := pk + "/" + sk; !seen[key] {
						seen[key] = true
						want = append(want, fmt.Sprintf("%s/%d", key, b))
					}
				}
				batches = append(batches, batch)
			}
			srcs = append(srcs, otSrc(env, batches...))
		}
		op := otMustBuild(t, env, otUnion(srcs...))
		rows, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		op.Close()
		var got []string
		for _, row := range rows {
			got = append(got, row.get("PK").Text()+"/"+row.get("SK").Text()+"/"+row.get("v").Text())
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: rows %v, want %v", round, got, want)
		}
		for _, s := range srcs {
			s.check(t)
		}
	}
}
