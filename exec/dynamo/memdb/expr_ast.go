package memdb

import (
	"strconv"

	"github.com/ddbsql/ddbsql/planner/value"
)

// The expression tree shared by key conditions, filters and conditions.

type operandKind uint8

const (
	opPath  operandKind = iota // a document path
	opValue                    // a :placeholder's value
	opFunc                     // a function call (only size is a valid operand)
)

type operand struct {
	kind operandKind
	path value.Path
	val  value.Value
	fn   string
	args []*operand
}

type condKind uint8

const (
	cAnd condKind = iota
	cOr
	cNot
	cCompare // op is = <> < <= > >=
	cBetween // args: x, low, high
	cIn      // args: x, candidates...
	cFunc    // op is the function name
)

type cond struct {
	kind  condKind
	op    string
	sub   []*cond    // and/or/not
	args  []*operand // comparisons and functions
	paren bool       // written as ( cond )
}

// pathString renders a path the way DynamoDB's messages do: [a, b, [2]].
func pathString(p value.Path) string {
	s := "["
	for i, e := range p {
		if i > 0 {
			s += ", "
		}
		if e.IsIndex {
			s += "[" + strconv.Itoa(e.Index) + "]"
		} else {
			s += e.Name
		}
	}
	return s + "]"
}

func samePath(a, b value.Path) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
