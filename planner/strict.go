package planner

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// CheckStrict applies the single-table design rule: every access pattern is
// one Query or GetItem (BatchGetItem for a list of keys; lookups by key in
// joins). It reports the first part of the plan that breaks the rule.
func CheckStrict(p *Plan) error {
	var err error
	// aggregated[n]: n's rows are groups, not items read (n is an
	// Aggregate or above one); below an aggregate, items are read.
	aggregated := map[Node]bool{p.Root: hasAggregate(p.Root)}
	Walk(p.Root, func(n Node, _ int) bool {
		if err != nil {
			return false
		}
		agg := aggregated[n]
		switch t := n.(type) {
		case *Access:
			switch {
			case t.Op == OpScan:
				err = strictError("it reads %s with a Scan", target(t))
			case len(t.Filters) > 0:
				err = strictError("its %s on %s has a FilterExpression (%s): DynamoDB reads, and bills, items that the filter then drops", t.Op, target(t), sqlList(t.Filters))
			}
		case *Fetch:
			err = strictError("index reads fetch the full items of %s again with BatchGetItem: project the needed attributes into the index", t.Table)
		case *Filter:
			if !t.Having {
				err = strictError("it filters the items it reads on the client (%s)", t.Pred)
			}
		case *Sort:
			if !agg {
				err = strictError("it sorts the items it reads on the client (ORDER BY %s): order by the sort key of the table or index instead", sortKeys(t.Keys))
			}
		case *HashJoin:
			err = strictError("it joins on the client with a hash join (%s)", t.Reason)
		case *Union:
			err = strictError("its WHERE is an OR of %d branches with key conditions of their own, read with separate requests and combined on the client: %s", len(t.Branches), sqlOr(t.Conditions))
		case *SetOp:
			err = strictError("it combines two queries with %s on the client", t.Name())
		case *Aggregate:
			agg = false
		}
		for _, in := range n.Inputs() {
			aggregated[in] = agg
		}
		return true
	})
	return err
}

func hasAggregate(n Node) bool {
	return Find(n, func(m Node) bool {
		_, ok := m.(*Aggregate)
		return ok
	}) != nil
}

func strictError(format string, args ...any) *diag.Error {
	e := errorf(diag.CodeStrict, "--strict: this statement is not a single Query or GetItem: "+format, args...)
	return e.Hintf("every access pattern should be answered by the keys of the table or an index; add a key or a GSI, or drop --strict")
}

func sqlOr(es []expr.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = "(" + e.String() + ")"
	}
	return strings.Join(parts, " OR ")
}

func target(a *Access) string {
	if a.Index != "" {
		return "index " + a.Index + " of " + a.Table
	}
	return "table " + a.Table
}

func sortKeys(keys []SortKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.Expr.String()
		if k.Desc {
			parts[i] += " DESC"
		}
	}
	return strings.Join(parts, ", ")
}
