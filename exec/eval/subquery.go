package eval

import (
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// SubqueryRows are the rows of one subquery, collected once and then
// looked up by the expressions that use it (expr.Subquery): grouped by the
// correlation values that lead each row (one group for an uncorrelated
// subquery). It holds copies, never values of a batch.
type SubqueryRows struct {
	keys   int
	groups map[string]*subqueryGroup
	// empty is the group of outer values no row has: nil (no rows), or the
	// one row a correlated aggregate yields over none.
	empty *subqueryGroup
	bytes int64 // an estimate of what the rows retain (Bytes)
}

// Bytes estimates the memory the rows retain: the keys and values copied,
// and an allowance per group and member for the maps holding them.
func (s *SubqueryRows) Bytes() int64 { return s.bytes }

// entryOverhead is what a map entry and its string header cost, rounded up.
const entryOverhead = 64

// subqueryGroup summarizes the rows of one correlation key.
type subqueryGroup struct {
	rows    int
	first   value.Value     // the first row's value (a scalar subquery's)
	members map[string]bool // the non-NULL values, by value.AppendBinary
	hasNull bool            // some row's value is NULL
}

// NewSubqueryRows starts the rows of a subquery whose rows lead with keys
// correlation values; empty, when not nil, is the row a correlated
// aggregate yields for outer values that no row has.
func NewSubqueryRows(keys int, empty *value.Value) *SubqueryRows {
	s := &SubqueryRows{keys: keys, groups: map[string]*subqueryGroup{}}
	if empty != nil {
		s.empty = &subqueryGroup{members: map[string]bool{}}
		s.empty.add(*empty)
	}
	return s
}

// Add adds one row: its correlation values, then the subquery's value (if
// it has one). A row whose correlation values hold a NULL matches no outer
// row (SQL =) and is dropped.
func (s *SubqueryRows) Add(row []value.Value) {
	key, ok := correlationKey(row[:s.keys])
	if !ok {
		return
	}
	g := s.groups[key]
	if g == nil {
		g = &subqueryGroup{members: map[string]bool{}}
		s.groups[key] = g
		s.bytes += int64(len(key)) + 2*entryOverhead
	}
	v := value.MissingValue()
	if len(row) > s.keys {
		v = row[s.keys]
	}
	s.bytes += g.add(v)
}

// add counts one row of value v and returns the bytes it added.
func (g *subqueryGroup) add(v value.Value) int64 {
	g.rows++
	var added int64
	if g.rows == 1 {
		g.first = v.Clone()
		added += int64(len(g.first.Text())) + entryOverhead
	}
	if sqlNull(v) {
		g.hasNull = true
		return added
	}
	k := string(value.AppendBinary(nil, v))
	if !g.members[k] {
		g.members[k] = true
		added += int64(len(k)) + entryOverhead
	}
	return added
}

// correlationKey encodes correlation values; false when one is NULL.
func correlationKey(vals []value.Value) (string, bool) {
	var b []byte
	for _, v := range vals {
		if sqlNull(v) {
			return "", false
		}
		b = value.AppendBinary(b, v)
	}
	return string(b), true
}

func sqlNull(v value.Value) bool { return v.Kind() == value.Missing || v.Kind() == value.Null }

// subqueryGroupOf finds the rows of t for row's outer values.
func subqueryGroupOf(t expr.Subquery, row Row) (*subqueryGroup, error) {
	var rows *SubqueryRows
	if t.Result != nil {
		rows, _ = t.Result.Load().(*SubqueryRows)
	}
	if rows == nil {
		return nil, errorf(diag.CodeInternal, "subquery %d was not read before its first use", t.Number)
	}
	if len(t.Outer) != rows.keys {
		return nil, errorf(diag.CodeInternal, "subquery %d has %d correlation values, its rows %d", t.Number, len(t.Outer), rows.keys)
	}
	vals := make([]value.Value, len(t.Outer))
	for i, o := range t.Outer {
		v, err := Eval(o, row)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	key, ok := correlationKey(vals)
	if !ok {
		return rows.empty, nil
	}
	if g := rows.groups[key]; g != nil {
		return g, nil
	}
	return rows.empty, nil
}

// subqueryValue is a scalar subquery's value: NULL without a row, an error
// with more than one.
func subqueryValue(t expr.Subquery, row Row) (value.Value, error) {
	if t.Kind != expr.SubqueryScalar {
		return truthValue(subqueryTruth(t, row))
	}
	g, err := subqueryGroupOf(t, row)
	if err != nil || g == nil {
		return value.NullValue(), err
	}
	if g.rows > 1 {
		return value.Value{}, errorf(diag.CodeSubqueryRows, "scalar subquery returned more than one row (subquery %d)", t.Number).
			Hintf("make it return at most one row (a condition on a key, an aggregate, or LIMIT 1), or compare with IN (SELECT …)")
	}
	return g.first, nil
}

// subqueryTruth is EXISTS, or IN with SQL's three-valued logic: TRUE when
// x equals a value of the rows; else UNKNOWN when x is NULL and there are
// rows, or a row's value is NULL; else FALSE (no rows: FALSE even for a
// NULL x). NOT negates, UNKNOWN stays.
func subqueryTruth(t expr.Subquery, row Row) (Truth, error) {
	g, err := subqueryGroupOf(t, row)
	if err != nil {
		return Unknown, err
	}
	var r Truth
	switch t.Kind {
	case expr.SubqueryExists:
		r = truthOf(g != nil && g.rows > 0)
	case expr.SubqueryIn:
		r, err = inRows(t, row, g)
		if err != nil {
			return Unknown, err
		}
	default:
		v, err := subqueryValue(t, row)
		if err != nil {
			return Unknown, err
		}
		return TruthOf(v), nil
	}
	if t.Not {
		r = not(r)
	}
	return r, nil
}

func inRows(t expr.Subquery, row Row, g *subqueryGroup) (Truth, error) {
	if g == nil || g.rows == 0 {
		return False, nil
	}
	x, err := Eval(t.X, row)
	if err != nil {
		return Unknown, err
	}
	if sqlNull(x) {
		return Unknown, nil
	}
	if g.members[string(value.AppendBinary(nil, x))] {
		return True, nil
	}
	if g.hasNull {
		return Unknown, nil
	}
	return False, nil
}
