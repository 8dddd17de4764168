package engine

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/planner"
)

// Set operations over two inputs of 100k rows (grp, id, amount, name),
// half of their rows shared: a scan of both (UNION ALL) is the floor the
// others are compared with; plain DISTINCT over one input is the existing
// operator UNION reuses.

const setopBenchRows = 100_000

func setopBenchInputs() (left, right []arrow.RecordBatch) {
	all := benchRows(setopBenchRows*3/2, 1000)
	// Rows are batches of 4096: left is the first two thirds, right the
	// last two thirds, so the middle third is in both.
	n := len(all)
	return all[:n*2/3], all[n/3:]
}

func benchSetOp(b *testing.B, op planner.SetOpKind, all bool) {
	left, right := setopBenchInputs()
	env := &Env{Mem: memory.DefaultAllocator}
	node := &planner.SetOp{Op: op, All: all, Columns: []string{"grp", "id", "amount", "name"}}
	runBench(b, 2*setopBenchRows, nil, func(Operator) Operator {
		node.Left = &otLeaf{op: &batchesOp{batches: left}}
		node.Right = &otLeaf{op: &batchesOp{batches: right}}
		op, err := otBuild(env, node)
		if err != nil {
			b.Fatal(err)
		}
		return op
	})
}

func BenchmarkSetOpUnionAll(b *testing.B)     { benchSetOp(b, planner.SetUnion, true) }
func BenchmarkSetOpUnion(b *testing.B)        { benchSetOp(b, planner.SetUnion, false) }
func BenchmarkSetOpIntersect(b *testing.B)    { benchSetOp(b, planner.SetIntersect, false) }
func BenchmarkSetOpExcept(b *testing.B)       { benchSetOp(b, planner.SetExcept, false) }
func BenchmarkSetOpIntersectAll(b *testing.B) { benchSetOp(b, planner.SetIntersect, true) }

// BenchmarkSetOpDistinctBaseline is DISTINCT over the same 200k rows,
// concatenated: what UNION costs beyond it is the concatenation.
func BenchmarkSetOpDistinctBaseline(b *testing.B) {
	left, right := setopBenchInputs()
	env := &Env{Mem: memory.DefaultAllocator}
	both := append(append([]arrow.RecordBatch(nil), left...), right...)
	runBench(b, 2*setopBenchRows, both, func(in Operator) Operator {
		return &distinctOp{env: env, input: in}
	})
}

// BenchmarkCTEReplay materializes 100k rows once and replays them twice
// (two references), against reading them twice (BenchmarkSetOpUnionAll
// reads as many rows from prepared batches).
func BenchmarkCTEReplay(b *testing.B) {
	left, _ := setopBenchInputs()
	env := &Env{Mem: memory.DefaultAllocator}
	runBench(b, 2*setopBenchRows, nil, func(Operator) Operator {
		w := otCTE(nil, []string{"grp", "id", "amount", "name"})
		w.CTEs[0].(*planner.Materialize).Input = &otLeaf{op: &batchesOp{batches: left}}
		op, err := otBuild(env, w)
		if err != nil {
			b.Fatal(err)
		}
		return op
	})
}
