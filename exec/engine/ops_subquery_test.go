package engine

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// otSubqueryPlan is Filter(pred) over a scripted input of rows {x}, under
// a Subqueries node whose one read yields the scripted rows of sub (one
// column v, the subquery's value).
func otSubqueryPlan(env *Env, input, sub *otSource, kind expr.SubqueryKind, not bool) (planner.Node, *planner.SubqueryRead) {
	read := &planner.SubqueryRead{Number: 1, Kind: kind, Root: &otLeaf{op: sub}, Result: &expr.SubqueryResult{}}
	x := expr.Column{Source: 0, Path: value.Path{{Name: "x"}}, ID: 1}
	var pred expr.Expr = expr.Subquery{Kind: kind, X: x, Not: not, Number: 1, Result: read.Result}
	if kind == expr.SubqueryScalar {
		pred = expr.Binary{Op: expr.OpEq, L: x, R: pred}
	}
	filter := &planner.Filter{Input: &otLeaf{op: input}, Pred: pred}
	return &planner.Subqueries{Input: filter, Reads: []planner.Node{read.Root}, Subs: []*planner.SubqueryRead{read}}, read
}

func otXRows(vals ...value.Value) otBatch {
	b := otBatch{names: []string{"x"}}
	for _, v := range vals {
		b.rows = append(b.rows, []value.Value{v})
	}
	return b
}

func otVRows(vals ...value.Value) otBatch {
	b := otBatch{names: []string{"v"}}
	for _, v := range vals {
		b.rows = append(b.rows, []value.Value{v})
	}
	return b
}

func otXs(rows []otRow) string {
	var out []string
	for _, r := range rows {
		out = append(out, otShow(r.get("x")))
	}
	return strings.Join(out, " ")
}

// The Subqueries operator reads its subquery (in two batches, with a
// duplicate and a NULL) before the first input row, and the filter tests
// IN / NOT IN with SQL's three-valued logic.
func TestSubqueriesInAndNotIn(t *testing.T) {
	null, missing := value.NullValue(), value.MissingValue()
	cases := []struct {
		name string
		not  bool
		sub  []otBatch
		want string
	}{
		{"IN: equal values only (3 is not in the set)", false, []otBatch{otVRows(otN("1"), otN("2")), otVRows(otN("2"), null)}, `N:1`},
		{"NOT IN with a NULL in the set: no row", true, []otBatch{otVRows(otN("1"), otN("2")), otVRows(otN("2"), null)}, ``},
		{"NOT IN without NULLs: NULL x is dropped", true, []otBatch{otVRows(otN("1"), otS("3"))}, `N:3`},
		{"NOT IN an empty set: every row, NULLs too", true, nil, `N:1 N:3 NULL <missing>`},
		{"IN an empty set: no row", false, nil, ``},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := otEnv(t)
			in := otSrc(env, otXRows(otN("1"), otN("3")), otXRows(null, missing))
			sub := otSrc(env, tc.sub...)
			plan, _ := otSubqueryPlan(env, in, sub, expr.SubqueryIn, tc.not)
			op := otMustBuild(t, env, plan)
			rows, _, err := otDrain(op)
			if err != nil {
				t.Fatal(err)
			}
			if sub.closes == 0 || in.nexts == 0 {
				t.Fatalf("subquery closed %d times, input asked %d times", sub.closes, in.nexts)
			}
			if err := op.Close(); err != nil {
				t.Fatal(err)
			}
			in.check(t)
			sub.check(t)
			if got := otXs(rows); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// A scalar subquery with two rows fails with subquery_rows when a row
// evaluates it; with none it is NULL (x = NULL keeps no row).
func TestSubqueriesScalarRows(t *testing.T) {
	env := otEnv(t)
	in := otSrc(env, otXRows(otN("1")))
	sub := otSrc(env, otVRows(otN("1"), otN("1")))
	plan, _ := otSubqueryPlan(env, in, sub, expr.SubqueryScalar, false)
	op := otMustBuild(t, env, plan)
	_, _, err := otDrain(op)
	var de *diag.Error
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "more than one row") {
		t.Fatalf("want the more-than-one-row error, got %v", err)
	}
	var cause *diag.Error
	if !errors.As(de.Cause, &cause) || cause.Code != diag.CodeSubqueryRows {
		t.Fatalf("want cause code %s, got %#v", diag.CodeSubqueryRows, de.Cause)
	}
	op.Close()
	in.check(t)
	sub.check(t)

	env = otEnv(t)
	in = otSrc(env, otXRows(otN("1")))
	sub = otSrc(env)
	plan, _ = otSubqueryPlan(env, in, sub, expr.SubqueryScalar, false)
	op = otMustBuild(t, env, plan)
	rows, _, err := otDrain(op)
	if err != nil || len(rows) != 0 {
		t.Fatalf("no subquery row: got %d rows, %v", len(rows), err)
	}
	op.Close()
}

// Closing before the first Next, and a subquery failing mid-stream, close
// every input and leave no Arrow memory (the checked allocator).
func TestSubqueriesEarlyCloseAndError(t *testing.T) {
	env := otEnv(t)
	in := otSrc(env, otXRows(otN("1")))
	sub := otSrc(env, otVRows(otN("1")))
	plan, _ := otSubqueryPlan(env, in, sub, expr.SubqueryExists, false)
	op := otMustBuild(t, env, plan)
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	in.check(t)
	sub.check(t)
	if sub.nexts != 0 || in.nexts != 0 {
		t.Fatalf("close before Next read: subquery %d, input %d", sub.nexts, in.nexts)
	}

	env = otEnv(t)
	in = otSrc(env, otXRows(otN("1")))
	sub = otSrc(env, otVRows(otN("1")), otVRows(otN("2")))
	sub.failAt = 1
	plan, _ = otSubqueryPlan(env, in, sub, expr.SubqueryIn, false)
	op = otMustBuild(t, env, plan)
	if _, _, err := otDrain(op); !errors.Is(err, otErrInput) {
		t.Fatalf("want the subquery's error, got %v", err)
	}
	if in.nexts != 0 {
		t.Fatal("the input was read although the subquery failed")
	}
	op.Close()
	in.check(t)
	sub.check(t)
}

// otFanout is a keyed fan-out over the ops table's partition key, fed by
// the scripted subquery sub.
func otFanout(table string, sub *otSource) *planner.KeyedFanout {
	lj := &planner.LookupJoin{Op: planner.OpQuery, Table: table, Attr: "pk", KeyType: value.String, KeyAttrs: []string{"pk", "sk"},
		ValuePlaceholder: ":v", Query: &dynamodb.QueryInput{
			TableName:                 aws.String(table),
			KeyConditionExpression:    aws.String("#pk = :v"),
			ExpressionAttributeNames:  map[string]string{"#pk": "pk"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: "?"}},
			ReturnConsumedCapacity:    types.ReturnConsumedCapacityIndexes,
		}}
	return &planner.KeyedFanout{Sub: &otLeaf{op: sub}, Lookup: lj, Number: 1}
}

// A keyed fan-out reads each distinct value once (duplicates, NULLs, a
// number and "" never add items), over several pages; LIMIT 0 and an
// error in the subquery end it with nothing left behind.
func TestKeyedFanoutOverDynalite(t *testing.T) {
	env, table := otLoadTable(t)
	otQuery(env, table, 25) // pages of 25 items
	sub := otSrc(env, otVRows(otS("P"), otS("nope")), otVRows(value.NullValue(), otS("P"), otN("5"), otS("")))
	op := otMustBuild(t, env, otFanout(table, sub))
	rows, _, err := otDrain(op)
	if err != nil {
		t.Fatal(err)
	}
	op.Close()
	sub.check(t)
	if len(rows) != otItems {
		t.Fatalf("got %d rows, want %d (each item once)", len(rows), otItems)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		k := otShow(r.get("sk"))
		if seen[k] || !otSame(r.get("pk"), otS("P")) {
			t.Fatalf("row %s repeated or of another partition", r.key())
		}
		seen[k] = true
	}
	if q := env.Stats.Snapshot().Requests["Query"]; q < otItems/25 {
		t.Fatalf("%d Query requests recorded, want one per page", q)
	}

	sub = otSrc(env, otVRows(otS("P")))
	op = otMustBuild(t, env, &planner.Limit{Input: otFanout(table, sub), Count: 0})
	if rows, _, err := otDrain(op); err != nil || len(rows) != 0 {
		t.Fatalf("LIMIT 0: %d rows, %v", len(rows), err)
	}
	op.Close()
	sub.check(t)

	sub = otSrc(env, otVRows(otS("P")), otVRows(otS("Q")))
	sub.failAt = 1
	op = otMustBuild(t, env, otFanout(table, sub))
	if _, _, err := otDrain(op); !errors.Is(err, otErrInput) {
		t.Fatalf("want the subquery's error, got %v", err)
	}
	op.Close()
	sub.check(t)
}

// otSemiJoin is Filter(EXISTS …) over a keyed semi-join that looks up the
// input's x in the ops table's partition key, keeping items with sk < 3.
func otSemiJoin(table string, input *otSource, not bool) planner.Node {
	fan := otFanout(table, nil)
	read := &planner.SubqueryRead{Number: 1, Kind: expr.SubqueryExists, Keys: 1, Result: &expr.SubqueryResult{}}
	pk := expr.Column{Source: 0, Path: value.Path{{Name: "pk"}}, ID: 1}
	sk := expr.Column{Source: 0, Path: value.Path{{Name: "sk"}}, ID: 2}
	x := expr.Column{Source: 0, Path: value.Path{{Name: "x"}}, ID: 1}
	sj := &planner.KeyedSemiJoin{Input: &otLeaf{op: input}, Lookup: fan.Lookup, Probe: x, Sub: read,
		Filter: expr.Binary{Op: expr.OpLt, L: sk, R: expr.Literal{Value: otN("3")}},
		Items:  []expr.Expr{pk, expr.Literal{Value: otN("1")}}}
	var pred expr.Expr = expr.Subquery{Kind: expr.SubqueryExists, Outer: []expr.Expr{x}, Number: 1, Result: read.Result}
	if not {
		pred = expr.Unary{Op: expr.OpNot, X: pred}
	}
	return &planner.Filter{Input: sj, Pred: pred}
}

// A keyed semi-join looks each distinct outer value up once and keeps the
// rows that have a matching item; NOT EXISTS keeps the others (NULL too).
// LIMIT 0 and an input error end it with no Arrow memory left.
func TestKeyedSemiJoinOverDynalite(t *testing.T) {
	env, table := otLoadTable(t)
	for _, not := range []bool{false, true} {
		in := otSrc(env, otXRows(otS("P"), otS("Q"), value.NullValue()), otXRows(otS("P"), otN("7")))
		op := otMustBuild(t, env, otSemiJoin(table, in, not))
		before := env.Stats.Snapshot().Requests["Query"]
		rows, _, err := otDrain(op)
		if err != nil {
			t.Fatal(err)
		}
		op.Close()
		in.check(t)
		want := `S:"P" S:"P"`
		if not {
			want = `S:"Q" NULL N:7`
		}
		if got := otXs(rows); got != want {
			t.Fatalf("NOT %v: got %s, want %s", not, got, want)
		}
		if q := env.Stats.Snapshot().Requests["Query"] - before; q != 2 {
			t.Fatalf("%d Queries, want 2 (P and Q once each)", q)
		}
	}

	in := otSrc(env, otXRows(otS("P")))
	op := otMustBuild(t, env, &planner.Limit{Input: otSemiJoin(table, in, false), Count: 0})
	if rows, _, err := otDrain(op); err != nil || len(rows) != 0 {
		t.Fatalf("LIMIT 0: %d rows, %v", len(rows), err)
	}
	op.Close()
	in.check(t)

	in = otSrc(env, otXRows(otS("P")), otXRows(otS("Q")))
	in.failAt = 1
	op = otMustBuild(t, env, otSemiJoin(table, in, false))
	if _, _, err := otDrain(op); !errors.Is(err, otErrInput) {
		t.Fatalf("want the input's error, got %v", err)
	}
	op.Close()
	in.check(t)
}

// A subquery's rows count against --memory-limit: past it the statement
// fails with memory_limit naming the subquery, and Close gives the
// reservation back.
func TestSubqueriesMemoryLimit(t *testing.T) {
	env := otEnv(t)
	env.Memory = spill.NewBudget(4 << 10)
	var vals []value.Value
	for i := 0; i < 500; i++ {
		vals = append(vals, otS(strings.Repeat("v", 20)+strconv.Itoa(i)))
	}
	in := otSrc(env, otXRows(otS("v1")))
	sub := otSrc(env, otVRows(vals...))
	plan, _ := otSubqueryPlan(env, in, sub, expr.SubqueryIn, false)
	op := otMustBuild(t, env, plan)
	_, _, err := otDrain(op)
	var de *diag.Error
	if !errors.As(err, &de) || de.Code != diag.CodeMemoryLimit || !strings.Contains(err.Error(), "subquery 1") {
		t.Fatalf("want memory_limit naming subquery 1, got %v", err)
	}
	op.Close()
	if used := env.Memory.Used(); used != 0 {
		t.Fatalf("%d bytes still reserved after Close", used)
	}
	in.check(t)
	sub.check(t)

	env.Memory = spill.NewBudget(1 << 20)
	in = otSrc(env, otXRows(otS("v1")))
	sub = otSrc(env, otVRows(vals...))
	plan, _ = otSubqueryPlan(env, in, sub, expr.SubqueryIn, false)
	op = otMustBuild(t, env, plan)
	if _, _, err := otDrain(op); err != nil {
		t.Fatal(err)
	}
	if env.Memory.Used() == 0 {
		t.Fatal("the subquery's rows reserved nothing")
	}
	op.Close()
	if used := env.Memory.Used(); used != 0 {
		t.Fatalf("%d bytes still reserved after Close", used)
	}
}
