package engine

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// A LIMIT that stops a spilling operator early closes it mid-run: what it
// reserved goes back, every batch is released and the runs are gone.
func TestSpillingOperatorsClosedEarly(t *testing.T) {
	groupIn := stGroupInput(t, 3000, 2000)
	joinProbe, joinBuild := stJoinSide(t, 0, 1500, 3000, "p", true), stJoinSide(t, 1, 3000, 3000, "b", true)
	for _, tc := range []struct {
		name  string
		limit int64
		node  func(env *Env) (planner.Node, []*otSource)
	}{
		{"GROUP BY", 8 << 10, func(env *Env) (planner.Node, []*otSource) {
			src := otSrc(env, groupIn...)
			return &planner.Aggregate{Input: &otLeaf{op: src}, Groups: []expr.Expr{otCol("k")},
				Aggs: stGroupAggs(false)}, []*otSource{src}
		}},
		{"DISTINCT", 4 << 10, func(env *Env) (planner.Node, []*otSource) {
			src := otSrc(env, groupIn...)
			return &planner.Distinct{Input: &otLeaf{op: src}}, []*otSource{src}
		}},
		{"JOIN", 4 << 10, func(env *Env) (planner.Node, []*otSource) {
			probe, build := otSrc(env, joinProbe...), otSrc(env, joinBuild...)
			return &planner.HashJoin{Probe: &otLeaf{op: probe}, Build: &otLeaf{op: build}, Kind: planner.JoinLeft,
				ProbeKeys: []expr.Expr{otQCol(0, "k")}, BuildKeys: []expr.Expr{otQCol(1, "k")}}, []*otSource{probe, build}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, rows := range []int{1, 700} { // in the first level's output, and in a later level's
				env := stSpillEnv(t, tc.limit, true)
				env.BatchRows = 50
				n, srcs := tc.node(env)
				op := otMustBuild(t, env, &planner.Limit{Count: int64(rows), Input: n})
				got, _, err := otDrain(op)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != rows {
					t.Fatalf("%d rows, want %d", len(got), rows)
				}
				if err := op.Close(); err != nil {
					t.Fatal(err)
				}
				for _, s := range srcs {
					s.check(t)
				}
				if rows > 1 && env.Spill.Files() == 0 {
					t.Fatal("nothing spilled") // one row may come before the budget is full
				}
				stFinish(t, env)
			}
		})
	}
}
