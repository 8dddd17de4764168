package planner

import "github.com/ddbsql/ddbsql/planner/expr"

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
	case *Union:
		return []int{t.Source}
	case *LookupJoin:
		return append(append([]int(nil), FromItems(t.Input)...), t.Source)
	case *HashJoin:
		return append(append([]int(nil), FromItems(t.Probe)...), FromItems(t.Build)...)
	case *Filter, *Sort, *Limit, *Distinct:
		return FromItems(n.Inputs()[0])
	}
	return nil
}
