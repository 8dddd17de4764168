package planner

import (
	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

// add records the document paths e reads from FROM item src. A function of
// the whole item (item_size, ReadsItem in the catalogue) reads them all.
func (n needs) add(e expr.Expr, src int) needs {
	expr.Walk(e, func(x expr.Expr) bool {
		switch c := x.(type) {
		case expr.Column:
			if c.Source == src {
				n.paths = append(n.paths, projectable(c.Path))
			}
		case expr.Func:
			if f, _ := funcs.Lookup(c.Name); f.ReadsItem {
				n.star = true
			}
		}
		return true
	})
	return n
}

// with adds the columns of several expressions.
func (n needs) with(es []expr.Expr, src int) needs {
	out := needs{star: n.star, paths: append([]value.Path(nil), n.paths...)}
	for _, e := range es {
		out = out.add(e, src)
	}
	out.paths = ddbexpr.ReducePaths(out.paths)
	return out
}

// projectable cuts a path before its first list index: DynamoDB returns
// projected list elements compacted (tags[2] alone comes back as tags[0]),
// so ddbsql asks for the whole list and indexes it on the client.
func projectable(p value.Path) value.Path {
	for i, e := range p {
		if e.IsIndex {
			return p[:i]
		}
	}
	return p
}

// projection is the ProjectionExpression paths for a read whose rows must
// also feed the client-side conjuncts; nil means all attributes. An empty
// list becomes the partition key (DynamoDB needs something to return).
func (n needs) projection(client []expr.Expr, t *TableDef, src int) []value.Path {
	all := n.with(client, src)
	if all.star {
		return nil
	}
	if len(all.paths) == 0 {
		return []value.Path{{{Name: t.PK.Name}}}
	}
	return all.paths
}
