package eval

import (
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// errorf makes an evaluation error: the message is what the user reads,
// so it never carries the code; callers and tests that need the kind of
// failure match on Code. A Hint, when set, says what to do instead.
func errorf(code diag.Code, format string, args ...any) *diag.Error {
	return &diag.Error{Phase: diag.Evaluate, Code: code, Msg: fmt.Sprintf(format, args...)}
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

// setIndexError explains an index into a set: p[setAt] is the index step
// and p[:setAt] the set, found inside top (the path's top-level attribute).
// It is built only on failure, so the lookup itself stays allocation-free.
func setIndexError(p value.Path, setAt int, top value.Value) *diag.Error {
	set := p[:setAt]
	kind, example := "string set", "'x'"
	switch set.Get(top).Kind() {
	case value.NumberSet:
		kind, example = "number set", "1"
	case value.BinarySet:
		kind, example = "binary set", "x'01'"
	}
	name := set.String()
	return &diag.Error{Phase: diag.Evaluate, Code: diag.CodeSetIndex,
		Msg: fmt.Sprintf("%s is a %s; sets are unordered, so %s has no element %d",
			name, kind, p[:setAt+1].String(), p[setAt].Index),
		Hint: fmt.Sprintf("test membership with contains(%s, %s), or read the whole set", name, example)}
}
