package planner

import (
	"slices"

	"github.com/ddbsql/ddbsql/planner/expr"
)

// columnKey is a column of a statement: a top-level attribute of one FROM
// item.
type columnKey struct {
	source int
	attr   string
}

// columnIDs numbers a statement's columns as the binder meets them: the
// first reference to an attribute of a FROM item gets the next ID, every
// later one the same. Items are schemaless, so only the attributes the
// statement names have IDs; SELECT * passes the others through unnamed.
type columnIDs struct {
	ids map[columnKey]expr.ColumnID
}

// columnID numbers attribute attr of FROM item source.
func (b *binder) columnID(source int, attr string) expr.ColumnID {
	if b.columns == nil {
		b.columns = &columnIDs{}
	}
	return b.columns.of(source, attr)
}

func (c *columnIDs) of(source int, attr string) expr.ColumnID {
	k := columnKey{source: source, attr: attr}
	if id, ok := c.ids[k]; ok {
		return id
	}
	if c.ids == nil {
		c.ids = map[columnKey]expr.ColumnID{}
	}
	id := expr.ColumnID(len(c.ids) + 1)
	c.ids[k] = id
	return id
}

// FromItems lists the FROM items whose attributes are the columns of n's
// rows, in the order their columns come: a read yields its FROM item's
// attributes, a join its input's followed by the joined item's. It is nil
// for a node whose columns are positions (a projection, an aggregation, a
// COUNT read, a row without FROM).
func FromItems(n Node) []int {
	switch t := n.(type) {
	case *Access:
		if t.Count {
			return nil
		}
		return []int{t.Source}
	case *Fetch:
		return []int{t.Source}
	case *KeyedFanout:
		return []int{t.Lookup.Source}
	case *Union:
		return []int{t.Source}
	case *Derived:
		return []int{t.Source}
	case *CTEScan:
		return []int{t.Source}
	case *LookupJoin:
		return append(append([]int(nil), FromItems(t.Input)...), t.Source)
	case *HashJoin:
		return append(append([]int(nil), FromItems(t.Probe)...), FromItems(t.Build)...)
	case *Unnest:
		return append(append([]int(nil), FromItems(t.Input)...), t.Source)
	case *Subqueries:
		return FromItems(t.Input)
	case *KeyedSemiJoin:
		return FromItems(t.Input)
	case *Filter, *Sort, *Limit, *Distinct:
		return FromItems(n.Inputs()[0])
	}
	return nil
}

// ClientExprs are the expressions exec evaluates for node n itself, on the
// client, over its input rows: a filter's predicate, a select list, group
// keys and aggregate arguments, sort keys, join keys and residuals (not
// the conditions DynamoDB evaluates, nor those of n's inputs).
func ClientExprs(n Node) []expr.Expr {
	var out []expr.Expr
	add := func(es ...expr.Expr) {
		for _, e := range es {
			if e != nil {
				out = append(out, e)
			}
		}
	}
	switch t := n.(type) {
	case *Filter:
		add(t.Pred)
	case *Project:
		add(t.Exprs...)
	case *Aggregate:
		add(t.Groups...)
		for _, a := range t.Aggs {
			add(a.Arg)
		}
	case *Sort:
		for _, k := range t.Keys {
			add(k.Expr)
		}
	case *HashJoin:
		add(t.ProbeKeys...)
		add(t.BuildKeys...)
		add(t.Residual)
	case *LookupJoin:
		add(t.Probe, t.Residual)
	case *Unnest:
		add(t.X)
	case *Window:
		add(t.Partition...)
		for _, k := range t.Order {
			add(k.Expr)
		}
		for _, f := range t.Funcs {
			add(f.Args...)
		}
	case *KeyedSemiJoin:
		add(t.Probe) // Filter and Items are the subquery's, in its own columns
	}
	return out
}

// Uses lists the columns node n's client-side expressions read
// (ClientExprs), one per column ID, in ID order.
func Uses(n Node) []expr.Column {
	seen := map[expr.ColumnID]expr.Column{}
	for _, e := range ClientExprs(n) {
		for _, c := range expr.Columns(e) {
			if _, ok := seen[c.ID]; !ok {
				seen[c.ID] = c
			}
		}
	}
	out := make([]expr.Column, 0, len(seen))
	for _, c := range seen {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b expr.Column) int { return int(a.ID) - int(b.ID) })
	return out
}
