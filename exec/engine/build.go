package engine

import (
	"fmt"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// Build turns a plan tree into operators; with env.Analysis set, every
// operator is wrapped to count its rows and time.
func Build(env *Env, n planner.Node) (Operator, error) {
	return buildWith(env, n, nil)
}

// leafFunc supplies operators for plan leaves Build does not know (tests
// feed prepared batches this way); ok is false for every other node.
type leafFunc func(n planner.Node) (op Operator, ok bool)

func buildWith(env *Env, n planner.Node, leaf leafFunc) (Operator, error) {
	if leaf != nil {
		if op, ok := leaf(n); ok {
			return op, nil
		}
	}
	if env.Analysis == nil {
		return build(env, n, leaf)
	}
	// The node reserves and spills through shares of the statement's
	// budget and spill directory, so EXPLAIN ANALYZE can say what this
	// operator spilled. Its inputs take shares of their own.
	actual := env.Analysis.get(n)
	own := *env
	own.Memory, own.Spill = env.Memory.Share(), env.Spill.Share()
	actual.memory, actual.spill = own.Memory, own.Spill
	op, err := build(&own, n, leaf)
	if err != nil {
		return op, err
	}
	return &analyzedOp{inner: op, actual: actual}, nil
}

func build(env *Env, n planner.Node, leaf leafFunc) (Operator, error) {
	if c, ok := unnumbered(planner.ClientExprs(n)...); ok {
		return nil, execErrorf(diag.CodeInternal, "column %s has no column ID", c)
	}
	switch t := n.(type) {
	case *planner.Access:
		return buildAccess(env, t), nil
	}
	if op, ok, err := buildQueryNode(env, n, leaf); ok {
		return op, err
	}
	if _, ok := n.(*planner.OneRow); ok {
		return &oneRowOp{env: env}, nil
	}
	if u, ok := n.(*planner.Union); ok {
		return buildUnion(env, u, leaf)
	}
	if sq, ok := n.(*planner.Subqueries); ok {
		return buildSubqueries(env, sq, leaf)
	}
	inputs := n.Inputs()
	want := 1
	if _, ok := n.(*planner.HashJoin); ok {
		want = 2
	}
	if len(inputs) != want {
		return nil, execErrorf(diag.CodeInternal, "plan node %T has %d inputs", n, len(inputs))
	}
	ins, err := buildInputs(env, inputs, leaf)
	if err != nil {
		return nil, err
	}
	in := ins[0]
	switch t := n.(type) {
	case *planner.HashJoin:
		return newHashJoinOp(env, t, ins[0], ins[1]), nil
	case *planner.LookupJoin:
		return newLookupJoinOp(env, t, in), nil
	case *planner.KeyedFanout:
		return newKeyedFanoutOp(env, t, in), nil
	case *planner.KeyedSemiJoin:
		return newKeyedSemiJoinOp(env, t, in), nil
	case *planner.Fetch:
		return &fetchOp{env: env, node: t, input: in}, nil
	case *planner.Filter:
		return newFilterOp(env, t.Pred, in), nil
	case *planner.Unnest:
		return newUnnestOp(env, t, in), nil
	case *planner.Aggregate:
		return newAggregateOp(env, t, in), nil
	case *planner.Project:
		if t.Star {
			return &starOp{env: env, input: in, sources: t.StarSources}, nil
		}
		return newProjectOp(env, t.Exprs, t.Names, in), nil
	case *planner.Distinct:
		return &distinctOp{env: env, input: in}, nil
	case *planner.Sort:
		return newSortOp(env, t.Keys, t.TopN, in), nil
	case *planner.Limit:
		return newLimitOp(in, t.Offset, t.Count), nil
	case *planner.Window:
		return newWindowOp(env, t, in), nil
	}
	for _, op := range ins {
		op.Close()
	}
	return nil, execErrorf(diag.CodeInternal, "%s", fmt.Sprintf("no operator for plan node %T", n))
}

// buildInputs builds the operators of a node's inputs, in order; when one
// fails, those built before it are closed.
func buildInputs(env *Env, inputs []planner.Node, leaf leafFunc) ([]Operator, error) {
	ops := make([]Operator, 0, len(inputs))
	for _, in := range inputs {
		op, err := buildWith(env, in, leaf)
		if err != nil {
			for _, built := range ops {
				built.Close()
			}
			return nil, err
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// buildUnion defers building each branch until the union reaches it.
func buildUnion(env *Env, u *planner.Union, leaf leafFunc) (Operator, error) {
	return newUnionOp(env, u, func(n planner.Node) (Operator, error) { return buildWith(env, n, leaf) }), nil
}
