package eval

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestCatalogueMatchesImplementations proves that no function is missing on
// either side: every scalar function of the planner's catalogue has an
// implementation here, and every implementation is a catalogued scalar.
func TestCatalogueMatchesImplementations(t *testing.T) {
	for _, f := range funcs.All() {
		if _, ok := impls[f.Name]; ok == f.Aggregate {
			if f.Aggregate {
				t.Errorf("aggregate %s() has a scalar implementation; aggregates are folded by the aggregation operator", f.Name)
			} else {
				t.Errorf("catalogued function %s() has no implementation", f.Name)
			}
		}
	}
	for name := range impls {
		if f, ok := funcs.Lookup(name); !ok || f.Name != name {
			t.Errorf("%s() is implemented but not in the catalogue (planner/funcs)", name)
		}
	}
}

// typeSamples are arguments of each catalogue type, NULL and a missing
// attribute included where the type admits them.
var typeSamples = map[funcs.Type][]expr.Expr{
	funcs.String:   {litS("Kyoto"), col("name"), litS(""), litNull(), col("nope")},
	funcs.Number:   {litN("2"), litN("-1"), col("zero"), col("big"), col("tiny"), litNull(), col("nope")},
	funcs.Bool:     {lit(boolv(true)), col("off"), litNull()},
	funcs.Text:     {litS("Kyoto"), col("name"), litN("-12.5"), col("total"), litNull(), col("nope")},
	funcs.TypeName: {litS("S"), litS("N"), litS("BOOL"), litS("NULL"), litS("SS"), litS("M")},
	funcs.TimeUnit: {litS("day"), litS("SECONDS"), litS("Week"), litS("month"), litS("quarters"), litS("year"), litNull()},
	funcs.Any: {col("status"), col("total"), col("flag"), col("nul"), col("nope"), col("bin"),
		col("tags"), col("nums"), col("list"), col("info"), litNull()},
}

// TestCatalogueTypes proves the catalogue's types true of the
// implementations: arguments of the declared types never give a "type" or
// "argument" error, and the result is NULL or of the declared Result type.
// Each argument runs through its samples while the others keep their first.
func TestCatalogueTypes(t *testing.T) {
	row := fixture()
	for _, f := range funcs.All() {
		if f.Aggregate {
			continue
		}
		upTo := f.MaxArgs
		if upTo == funcs.Variadic {
			upTo = f.MinArgs + 2
		}
		for n := f.MinArgs; n <= upTo; n++ {
			if n == 0 {
				check(t, f, fn(f.Name), row)
			}
			for i := 0; i < n; i++ {
				for _, sample := range typeSamples[f.Param(i)] {
					args := make([]expr.Expr, n)
					for j := range args {
						args[j] = typeSamples[f.Param(j)][0]
					}
					args[i] = sample
					check(t, f, fn(f.Name, args...), row)
				}
			}
		}
	}
}

func check(t *testing.T, f funcs.Func, call expr.Func, row Row) {
	t.Helper()
	got, err := Eval(call, row)
	if err != nil {
		t.Errorf("%s: arguments of the catalogue's types gave %v", call, err)
		return
	}
	if !got.IsNull() && !hasType(got, f.Result) {
		t.Errorf("%s = %s of type %s; the catalogue says %s", call, got.JSON(), got.Kind(), f.Result)
	}
}

func hasType(v value.Value, t funcs.Type) bool {
	switch t {
	case funcs.String, funcs.TypeName, funcs.TimeUnit:
		return v.Kind() == value.String
	case funcs.Number:
		return v.Kind() == value.Number
	case funcs.Bool:
		return v.Kind() == value.Bool
	case funcs.Text:
		return v.Kind() == value.String || v.Kind() == value.Number
	}
	return true
}
