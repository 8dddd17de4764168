package eval

import (
	"math"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/exec/value"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// Variadic is the maxArgs Known reports for functions without an upper bound.
const Variadic = math.MaxInt

type funcImpl func(f expr.Func, row Row) (value.Value, error)

type funcSpec struct {
	minArgs, maxArgs int
	impl             funcImpl
}

// registry maps a lower-case function name to its arity and implementation.
// It is filled in init because the implementations call Eval.
var registry map[string]funcSpec

func init() {
	registry = map[string]funcSpec{
		// SQL string functions.
		"lower":            {1, 1, fnLower},
		"upper":            {1, 1, fnUpper},
		"length":           {1, 1, fnLength},
		"char_length":      {1, 1, fnCharLength},
		"character_length": {1, 1, fnCharLength},
		"substring":        {2, 3, fnSubstring},
		"substr":           {2, 3, fnSubstring},
		"concat":           {1, Variadic, fnConcat},
		// SQL numeric functions.
		"abs":   {1, 1, fnAbs},
		"round": {1, 2, fnRound},
		// SQL NULL handling and conditionals.
		"coalesce": {1, Variadic, fnCoalesce},
		"ifnull":   {2, 2, fnCoalesce},
		"nullif":   {2, 2, fnNullif},
		"if":       {3, 3, fnIf},
		// DynamoDB condition-expression functions, two-valued.
		"begins_with":          {2, 2, fnBeginsWith},
		"contains":             {2, 2, fnContains},
		"size":                 {1, 1, fnSize},
		"attribute_exists":     {1, 1, fnAttributeExists},
		"attribute_not_exists": {1, 1, fnAttributeNotExists},
		"attribute_type":       {2, 2, fnAttributeType},
		// ddbsql's own.
		"item_size": {0, 0, fnItemSize},
	}
}

// Known reports whether name is a scalar function and how many arguments it
// takes; maxArgs is Variadic when there is no upper bound.
func Known(name string) (minArgs, maxArgs int, ok bool) {
	s, ok := registry[strings.ToLower(name)]
	return s.minArgs, s.maxArgs, ok
}

func call(f expr.Func, row Row) (value.Value, error) {
	s, ok := registry[f.Name]
	if !ok {
		return value.Value{}, errorf(CodeUnknownFunction, "unknown function %s()", f.Name)
	}
	if n := len(f.Args); n < s.minArgs || n > s.maxArgs {
		return value.Value{}, errorf(CodeArgument, "%s: %s", f.String(), arity(f.Name, s))
	}
	return s.impl(f, row)
}

func arity(name string, s funcSpec) string {
	switch {
	case s.maxArgs == Variadic:
		return name + "() takes at least " + plural.Of(s.minArgs, "argument")
	case s.minArgs == s.maxArgs:
		return name + "() takes " + plural.Of(s.minArgs, "argument")
	}
	return name + "() takes " + itoa(s.minArgs) + " to " + plural.Of(s.maxArgs, "argument")
}

func itoa(n int) string { return strconv.Itoa(n) }

// arg evaluates argument i of f.
func arg(f expr.Func, row Row, i int) (value.Value, error) { return operand(f.Args[i], row) }

// args2 evaluates both arguments of a two-argument function.
func args2(f expr.Func, row Row) (a, b value.Value, err error) {
	if a, err = operand(f.Args[0], row); err != nil {
		return a, b, err
	}
	b, err = operand(f.Args[1], row)
	return a, b, err
}

// anyNull reports whether any value is SQL NULL.
func anyNull(vs ...value.Value) bool {
	for _, v := range vs {
		if v.IsNull() {
			return true
		}
	}
	return false
}

func argTypeError(f expr.Func, want string, got value.Value) error {
	return errorf(CodeType, "%s: %s() needs %s, got %s", f.String(), f.Name, want, got.Kind())
}
