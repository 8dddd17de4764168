package eval

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// DynamoDB's condition-expression functions keep DynamoDB's two-valued
// meaning: a missing attribute or an operand of the wrong type makes them
// false, never NULL (size alone returns NULL for types without a size).

// fnBeginsWith: an S with an S prefix, or a B with a B prefix.
func fnBeginsWith(f expr.Func, row Row) (value.Value, error) {
	v, p, err := args2(f, row)
	if err != nil {
		return value.Value{}, err
	}
	ok := v.Kind() == p.Kind() && (v.Kind() == value.String || v.Kind() == value.Binary) &&
		strings.HasPrefix(v.Text(), p.Text())
	return value.BoolOf(ok), nil
}

// fnContains: a substring of an S (or byte run of a B), a member of a set
// of the operand's type, or an element of a list.
func fnContains(f expr.Func, row Row) (value.Value, error) {
	v, x, err := args2(f, row)
	if err != nil {
		return value.Value{}, err
	}
	return value.BoolOf(contains(v, x)), nil
}

func contains(v, x value.Value) bool {
	if x.IsNull() {
		return false
	}
	switch v.Kind() {
	case value.String, value.Binary:
		return x.Kind() == v.Kind() && strings.Contains(v.Text(), x.Text())
	case value.StringSet, value.NumberSet, value.BinarySet:
		return x.Kind() == value.MemberKind(v.Kind()) && value.SetContains(v, x)
	case value.List:
		for _, e := range v.Elems() {
			if value.Equal(e, x) {
				return true
			}
		}
	}
	return false
}

// fnSize: bytes of an S or B, members of a set, elements of an L or M; NULL
// for other types and for a missing attribute.
func fnSize(f expr.Func, row Row) (value.Value, error) {
	v, err := arg(f, row, 0)
	if err != nil {
		return value.Value{}, err
	}
	switch v.Kind() {
	case value.String, value.Binary:
		return intValue(int64(len(v.Text()))), nil
	case value.StringSet, value.NumberSet, value.BinarySet, value.List:
		return intValue(int64(len(v.Elems()))), nil
	case value.Map:
		return intValue(int64(len(v.Attrs()))), nil
	}
	return value.MissingValue(), nil
}

// fnAttributeExists: any present value, DynamoDB NULL included.
func fnAttributeExists(f expr.Func, row Row) (value.Value, error) {
	v, err := arg(f, row, 0)
	return value.BoolOf(v.Kind() != value.Missing), err
}

func fnAttributeNotExists(f expr.Func, row Row) (value.Value, error) {
	v, err := arg(f, row, 0)
	return value.BoolOf(v.Kind() == value.Missing), err
}

// attributeTypes are the type descriptors attribute_type accepts.
var attributeTypes = map[string]value.Kind{
	"S": value.String, "N": value.Number, "B": value.Binary, "BOOL": value.Bool,
	"NULL": value.Null, "M": value.Map, "L": value.List,
	"SS": value.StringSet, "NS": value.NumberSet, "BS": value.BinarySet,
}

// fnAttributeType: whether the attribute has the named DynamoDB type; the
// type must be one of S N B BOOL NULL M L SS NS BS.
func fnAttributeType(f expr.Func, row Row) (value.Value, error) {
	v, t, err := args2(f, row)
	if err != nil {
		return value.Value{}, err
	}
	kind, ok := attributeTypes[t.Text()]
	if t.Kind() != value.String || !ok {
		return value.Value{}, errorf(diag.CodeArgument, "%s: attribute_type() needs one of 'S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS' as its type, got %s", f.String(), describe(t))
	}
	return value.BoolOf(v.Kind() == kind), nil
}

func describe(v value.Value) string {
	switch v.Kind() {
	case value.String:
		return "'" + v.Text() + "'"
	case value.Missing, value.Null:
		return "NULL"
	}
	return "a value of type " + v.Kind().String()
}

// fnItemSize: the DynamoDB size of the row's item (FROM item 0).
func fnItemSize(f expr.Func, row Row) (value.Value, error) {
	item, ok := row.Item(0)
	if !ok {
		return value.Value{}, errorf(diag.CodeArgument, "item_size() needs the whole item, but this row carries only some of its attributes (e.g. an index projection or a join's output)")
	}
	return intValue(ItemSize(item)), nil
}
