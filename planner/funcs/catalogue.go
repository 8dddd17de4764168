package funcs

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// Variadic is the MaxArgs of a function without an upper bound.
const Variadic = math.MaxInt

// Func is one catalogue entry.
type Func struct {
	// Name is the lower-case SQL name.
	Name string
	// MinArgs and MaxArgs bound the number of arguments; MaxArgs is
	// Variadic when there is no upper bound.
	MinArgs, MaxArgs int
	// Params is each argument's type, up to MaxArgs; a variadic function's
	// last entry stands for every argument from there on.
	Params []Type
	// Result is the type of a non-NULL result.
	Result Type
	// Aggregate marks the aggregates, folded over a group's rows by the
	// aggregation operator; the others are scalar, evaluated per row.
	Aggregate bool
	// Pushdown says whether DynamoDB can evaluate a call itself.
	Pushdown Pushdown
	// ReadsItem marks a function of the whole item rather than of the
	// attributes named in its arguments (item_size), so a read must return
	// every attribute.
	ReadsItem bool
}

// Param is the type of argument i (0-based) of a call.
func (f Func) Param(i int) Type {
	if i < len(f.Params) {
		return f.Params[i]
	}
	if f.MaxArgs == Variadic && len(f.Params) > 0 {
		return f.Params[len(f.Params)-1]
	}
	return Any
}

func scalar(name string, minArgs, maxArgs int, result Type, params ...Type) Func {
	return Func{Name: name, MinArgs: minArgs, MaxArgs: maxArgs, Params: params, Result: result}
}

func pushed(f Func, p Pushdown) Func {
	f.Pushdown = p
	return f
}

func aggregate(name string, result Type, param Type) Func {
	return Func{Name: name, MinArgs: 1, MaxArgs: 1, Params: []Type{param}, Result: result, Aggregate: true}
}

// catalogue lists every function. exec/eval's doc states each one's meaning.
var catalogue = []Func{
	// SQL string functions.
	scalar("lower", 1, 1, String, Text),
	scalar("upper", 1, 1, String, Text),
	scalar("length", 1, 1, Number, Text),
	scalar("char_length", 1, 1, Number, Text),
	scalar("character_length", 1, 1, Number, Text),
	scalar("substring", 2, 3, String, Text, Number, Number),
	scalar("substr", 2, 3, String, Text, Number, Number),
	scalar("concat", 1, Variadic, String, Text),
	scalar("split_part", 3, 3, String, Text, Text, Number),
	scalar("replace", 3, 3, String, Text, Text, Text),
	scalar("trim", 1, 2, String, Text, Text),
	scalar("ltrim", 1, 2, String, Text, Text),
	scalar("rtrim", 1, 2, String, Text, Text),
	scalar("lpad", 2, 3, String, Text, Number, Text),
	scalar("rpad", 2, 3, String, Text, Number, Text),
	scalar("regexp_like", 2, 2, Bool, Text, String),
	scalar("regexp_extract", 2, 3, String, Text, String, Number),
	// Date and time, UTC (datetime.go: inputs, units and formats).
	scalar("date_trunc", 2, 2, String, TimeUnit, Any),
	scalar("date_part", 2, 2, Number, TimeUnit, Any),
	scalar("date_add", 3, 3, String, TimeUnit, Number, Any),
	scalar("date_diff", 3, 3, Number, TimeUnit, Any, Any),
	scalar("from_unixtime", 1, 1, String, Any),
	scalar("to_unixtime", 1, 1, Number, Any),
	scalar("date_format", 2, 2, String, Any, String),
	scalar("now", 0, 0, String),
	scalar("current_timestamp", 0, 0, String),
	scalar("current_date", 0, 0, String),
	// SQL numeric functions.
	scalar("abs", 1, 1, Number, Number),
	scalar("round", 1, 2, Number, Number, Number),
	// SQL NULL handling and conditionals.
	scalar("coalesce", 1, Variadic, Any, Any),
	scalar("ifnull", 2, 2, Any, Any, Any),
	scalar("nullif", 2, 2, Any, Any, Any),
	scalar("if", 3, 3, Any, Any, Any, Any),
	scalar("greatest", 1, Variadic, Any, Any),
	scalar("least", 1, Variadic, Any, Any),
	// DynamoDB's condition-expression functions, two-valued.
	pushed(scalar("begins_with", 2, 2, Bool, Any, Any), Condition),
	pushed(scalar("contains", 2, 2, Bool, Any, Any), Condition),
	pushed(scalar("size", 1, 1, Number, Any), Operand),
	pushed(scalar("attribute_exists", 1, 1, Bool, Any), Condition),
	pushed(scalar("attribute_not_exists", 1, 1, Bool, Any), Condition),
	pushed(scalar("attribute_type", 2, 2, Bool, Any, TypeName), Condition),
	// ddbsql's own.
	{Name: "item_size", Result: Number, ReadsItem: true},
	// ddb_null() is DynamoDB's NULL type ({"NULL": true}), which SQL's NULL
	// is not: an UPDATE or INSERT of NULL removes or omits the attribute.
	scalar("ddb_null", 0, 0, Any),
	// Aggregates.
	aggregate("count", Number, Any),
	aggregate("sum", Number, Number),
	aggregate("avg", Number, Number),
	aggregate("min", Any, Any),
	aggregate("max", Any, Any),
}

var byName = func() map[string]Func {
	m := make(map[string]Func, len(catalogue))
	for _, f := range catalogue {
		m[f.Name] = f
	}
	return m
}()

// Lookup finds a function by name, in any case.
func Lookup(name string) (Func, bool) {
	f, ok := byName[strings.ToLower(name)]
	return f, ok
}

// All returns every entry, sorted by name.
func All() []Func {
	out := append([]Func(nil), catalogue...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ScalarNames lists the scalar functions' names, sorted, for error hints
// and completion.
func ScalarNames() []string { return names(false) }

// AggregateNames lists the aggregates' names, sorted.
func AggregateNames() []string { return names(true) }

func names(aggregates bool) []string {
	var out []string
	for _, f := range All() {
		if f.Aggregate == aggregates {
			out = append(out, f.Name)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
