package memdb

import (
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Evaluation of condition expressions against an item, with DynamoDB's
// rules: comparisons are false across types and for absent attributes
// (except <>, which is true); size() of an unsized type has no value.

func (c *cond) eval(attrs attrs) bool {
	switch c.kind {
	case cAnd:
		return c.sub[0].eval(attrs) && c.sub[1].eval(attrs)
	case cOr:
		return c.sub[0].eval(attrs) || c.sub[1].eval(attrs)
	case cNot:
		return !c.sub[0].eval(attrs)
	case cCompare:
		return compare(c.op, c.args[0].eval(attrs), c.args[1].eval(attrs))
	case cBetween:
		x, lo, hi := c.args[0].eval(attrs), c.args[1].eval(attrs), c.args[2].eval(attrs)
		return between(x, lo, hi)
	case cIn:
		x := c.args[0].eval(attrs)
		if x.Kind() == value.Missing {
			return false
		}
		for _, a := range c.args[1:] {
			if equal(x, a.eval(attrs)) {
				return true
			}
		}
		return false
	case cFunc:
		return callFunction(c.op, c.args, attrs)
	}
	return false
}

func (o *operand) eval(attrs attrs) value.Value {
	switch o.kind {
	case opPath:
		return resolvePath(attrs, o.path)
	case opValue:
		return o.val
	case opFunc:
		if o.fn == "size" {
			return sizeOf(o.args[0].eval(attrs))
		}
	}
	return value.MissingValue()
}

// equal is DynamoDB equality: same type and value; NULL equals NULL.
func equal(a, b value.Value) bool {
	if a.Kind() == value.Null && b.Kind() == value.Null {
		return true
	}
	return value.Equal(a, b)
}

func compare(op string, a, b value.Value) bool {
	switch op {
	case "=":
		return equal(a, b)
	case "<>":
		return !equal(a, b)
	}
	if !value.Ordered(a, b) {
		return false
	}
	c := value.CompareScalars(a, b)
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

func between(x, lo, hi value.Value) bool {
	return value.Ordered(x, lo) && value.Ordered(x, hi) &&
		value.CompareScalars(x, lo) >= 0 && value.CompareScalars(x, hi) <= 0
}

func sizeOf(v value.Value) value.Value {
	n := -1
	switch v.Kind() {
	case value.String, value.Binary:
		n = len(v.Text())
	case value.List, value.StringSet, value.NumberSet, value.BinarySet:
		n = len(v.Elems())
	case value.Map:
		n = len(v.Attrs())
	}
	if n < 0 {
		return value.MissingValue()
	}
	return value.NumTrusted(strconv.Itoa(n))
}

func callFunction(name string, args []*operand, attrs attrs) bool {
	a := args[0].eval(attrs)
	switch name {
	case "attribute_exists":
		return a.Kind() != value.Missing
	case "attribute_not_exists":
		return a.Kind() == value.Missing
	}
	b := args[1].eval(attrs)
	switch name {
	case "attribute_type":
		return a.Kind() != value.Missing && b.Kind() == value.String && typeName(a) == b.Text()
	case "begins_with":
		return a.Kind() == b.Kind() && (a.Kind() == value.String || a.Kind() == value.Binary) &&
			strings.HasPrefix(a.Text(), b.Text())
	case "contains":
		return contains(a, b)
	}
	return false
}

// contains: a substring of a string (or binary), a member of a set, or an
// element of a list.
func contains(a, b value.Value) bool {
	switch a.Kind() {
	case value.String, value.Binary:
		return b.Kind() == a.Kind() && strings.Contains(a.Text(), b.Text())
	case value.StringSet, value.NumberSet, value.BinarySet:
		return b.Kind() == value.MemberKind(a.Kind()) && value.SetContains(a, b)
	case value.List:
		for _, e := range a.Elems() {
			if equal(e, b) {
				return true
			}
		}
	}
	return false
}
