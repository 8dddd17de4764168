package eval

import (
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// Error codes. They are stable: callers and tests match on them.
const (
	CodeOverflow        = "overflow"         // a number result does not fit DynamoDB's N type
	CodeType            = "type"             // an operand has a type the operation does not accept
	CodeArgument        = "argument"         // an argument is invalid (arity, type name, missing item)
	CodeUnknownFunction = "unknown_function" // no scalar function by that name
	CodeInternal        = "internal"         // a node that must not reach the evaluator
)

// Error is an evaluation error with a stable code. The message is what the
// user reads, so it never carries the code: callers and tests that need the
// kind of failure match on Code.
type Error struct{ Code, Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// sqlText renders an expression for an error message, without the outer
// parentheses Binary.String adds.
func sqlText(e expr.Expr) string {
	s := e.String()
	if _, ok := e.(expr.Binary); ok && strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = s[1 : len(s)-1]
	}
	return s
}

// typeNames lists the DynamoDB types of values for an error message.
func typeNames(vs ...value.Value) string {
	s := ""
	for i, v := range vs {
		if i > 0 {
			s += " and "
		}
		s += v.Kind().String()
	}
	return s
}
