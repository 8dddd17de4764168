package eval

import (
	"strconv"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

type funcImpl func(f expr.Func, row Row) (value.Value, error)

// impls maps each scalar function of the catalogue (planner/funcs), by its
// name there, to its implementation; the catalogue holds its arity. It is
// filled in init because the implementations call Eval.
var impls map[string]funcImpl

func init() {
	impls = map[string]funcImpl{
		// SQL string functions.
		"lower":            fnLower,
		"upper":            fnUpper,
		"length":           fnLength,
		"char_length":      fnCharLength,
		"character_length": fnCharLength,
		"substring":        fnSubstring,
		"substr":           fnSubstring,
		"concat":           fnConcat,
		"split_part":       fnSplitPart,
		"replace":          fnReplace,
		"trim":             fnTrim,
		"ltrim":            fnLtrim,
		"rtrim":            fnRtrim,
		"lpad":             fnLpad,
		"rpad":             fnRpad,
		"regexp_like":      fnRegexpLike,
		"regexp_extract":   fnRegexpExtract,
		// Date and time.
		"date_trunc":        fnDateTrunc,
		"date_part":         fnDatePart,
		"date_add":          fnDateAdd,
		"date_diff":         fnDateDiff,
		"from_unixtime":     fnFromUnixtime,
		"to_unixtime":       fnToUnixtime,
		"date_format":       fnDateFormat,
		"now":               fnNow,
		"current_timestamp": fnNow,
		"current_date":      fnCurrentDate,
		// SQL numeric functions.
		"abs":   fnAbs,
		"round": fnRound,
		// SQL NULL handling and conditionals.
		"coalesce": fnCoalesce,
		"ifnull":   fnCoalesce,
		"nullif":   fnNullif,
		"if":       fnIf,
		"greatest": fnGreatest,
		"least":    fnLeast,
		// DynamoDB condition-expression functions, two-valued.
		"begins_with":          fnBeginsWith,
		"contains":             fnContains,
		"size":                 fnSize,
		"attribute_exists":     fnAttributeExists,
		"attribute_not_exists": fnAttributeNotExists,
		"attribute_type":       fnAttributeType,
		// ddbsql's own.
		"item_size": fnItemSize,
		"ddb_null":  fnDdbNull,
	}
}

func call(f expr.Func, row Row) (value.Value, error) {
	impl, ok := impls[f.Name]
	spec, known := funcs.Lookup(f.Name)
	if !ok || !known {
		return value.Value{}, errorf(diag.CodeUnknownFunction, "unknown function %s()", f.Name)
	}
	if n := len(f.Args); n < spec.MinArgs || n > spec.MaxArgs {
		return value.Value{}, errorf(diag.CodeArgument, "%s: %s", f.String(), arity(spec))
	}
	return impl(f, row)
}

func arity(s funcs.Func) string { return s.Name + "() takes " + s.ArityText() }

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
	return errorf(diag.CodeType, "%s: %s() needs %s, got %s", f.String(), f.Name, want, got.Kind())
}
