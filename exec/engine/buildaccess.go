package engine

import (
	"github.com/ddbsql/ddbsql/exec/read"
	"github.com/ddbsql/ddbsql/planner"
)

// buildAccess builds the operator of a DynamoDB read (exec/read's), whose
// columns are named by attribute; the join above marks their FROM item.
func buildAccess(env *Env, a *planner.Access) Operator {
	return readOperator(env.reader(), a)
}

// readOperator chooses how an Access is read.
func readOperator(env *read.Env, a *planner.Access) read.Operator {
	switch {
	case a.Count:
		return read.NewCount(env, a)
	case a.Op == planner.OpGetItem:
		return read.NewGetItems(env, a)
	case a.Op == planner.OpBatchGetItem:
		return read.NewBatchGets(env, a)
	case len(a.Scans) > 1:
		return read.NewSegments(env, a)
	case a.Merge != nil:
		return read.NewMerge(env, a)
	case a.ReadAhead && len(a.Queries)+len(a.Scans) == 1:
		return read.NewReadAhead(env, a)
	}
	return read.NewPages(env, a)
}
