package funcs

import (
	"sort"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		name      string
		min, max  int
		aggregate bool
		ok        bool
	}{
		{"lower", 1, 1, false, true}, {"upper", 1, 1, false, true}, {"length", 1, 1, false, true},
		{"char_length", 1, 1, false, true}, {"character_length", 1, 1, false, true},
		{"substring", 2, 3, false, true}, {"substr", 2, 3, false, true},
		{"concat", 1, Variadic, false, true}, {"CONCAT", 1, Variadic, false, true},
		{"abs", 1, 1, false, true}, {"round", 1, 2, false, true},
		{"coalesce", 1, Variadic, false, true}, {"ifnull", 2, 2, false, true}, {"nullif", 2, 2, false, true},
		{"if", 3, 3, false, true},
		{"begins_with", 2, 2, false, true}, {"contains", 2, 2, false, true}, {"size", 1, 1, false, true},
		{"attribute_exists", 1, 1, false, true}, {"attribute_not_exists", 1, 1, false, true},
		{"attribute_type", 2, 2, false, true}, {"item_size", 0, 0, false, true},
		{"sum", 1, 1, true, true}, {"COUNT", 1, 1, true, true}, {"avg", 1, 1, true, true},
		{"min", 1, 1, true, true}, {"max", 1, 1, true, true},
		{"nosuch", 0, 0, false, false}, {"", 0, 0, false, false},
	}
	for _, tc := range tests {
		f, ok := Lookup(tc.name)
		if f.MinArgs != tc.min || f.MaxArgs != tc.max || f.Aggregate != tc.aggregate || ok != tc.ok {
			t.Errorf("Lookup(%q) = %d, %d, aggregate %v, %v; want %d, %d, %v, %v",
				tc.name, f.MinArgs, f.MaxArgs, f.Aggregate, ok, tc.min, tc.max, tc.aggregate, tc.ok)
		}
		if ok && f.Name != strings.ToLower(tc.name) {
			t.Errorf("Lookup(%q).Name = %q", tc.name, f.Name)
		}
	}
}

// TestEntriesAreConsistent checks each entry against the rules the planner
// and exec rely on.
func TestEntriesAreConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range catalogue {
		if f.Name == "" || f.Name != strings.ToLower(f.Name) || seen[f.Name] {
			t.Errorf("%q: names must be lower-case, non-empty and unique", f.Name)
		}
		seen[f.Name] = true
		if f.MinArgs < 0 || f.MinArgs > f.MaxArgs {
			t.Errorf("%s: arity %d..%d", f.Name, f.MinArgs, f.MaxArgs)
		}
		switch {
		case f.MaxArgs == Variadic && len(f.Params) == 0:
			t.Errorf("%s: a variadic function needs the type of its repeated argument", f.Name)
		case f.MaxArgs != Variadic && len(f.Params) != f.MaxArgs:
			t.Errorf("%s: %d parameter types for at most %d arguments", f.Name, len(f.Params), f.MaxArgs)
		}
		if f.Pushdown != ClientOnly && (f.Aggregate || f.ReadsItem) {
			t.Errorf("%s: DynamoDB evaluates neither aggregates nor functions of the whole item", f.Name)
		}
		if f.Pushdown == Condition && f.Result != Bool {
			t.Errorf("%s: a condition function is a predicate, so its result is BOOL, not %s", f.Name, f.Result)
		}
		if f.Aggregate && f.MinArgs != 1 {
			t.Errorf("%s: aggregates take one argument", f.Name)
		}
	}
}

func TestNamesAreSortedAndPartitioned(t *testing.T) {
	scalars, aggregates := ScalarNames(), AggregateNames()
	if !sort.StringsAreSorted(scalars) || !sort.StringsAreSorted(aggregates) {
		t.Fatalf("names not sorted: %v %v", scalars, aggregates)
	}
	if got, want := strings.Join(aggregates, " "), "avg count max min sum"; got != want {
		t.Errorf("AggregateNames() = %s; want %s", got, want)
	}
	if len(scalars)+len(aggregates) != len(catalogue) {
		t.Errorf("%d scalars + %d aggregates; catalogue has %d entries", len(scalars), len(aggregates), len(catalogue))
	}
	for _, n := range scalars {
		if f, _ := Lookup(n); f.Aggregate {
			t.Errorf("ScalarNames() lists aggregate %s", n)
		}
	}
}

func TestParam(t *testing.T) {
	concat, _ := Lookup("concat")
	substring, _ := Lookup("substring")
	for _, tc := range []struct {
		f    Func
		i    int
		want Type
	}{
		{concat, 0, Text}, {concat, 5, Text},
		{substring, 0, Text}, {substring, 2, Number}, {substring, 3, Any},
	} {
		if got := tc.f.Param(tc.i); got != tc.want {
			t.Errorf("%s.Param(%d) = %s; want %s", tc.f.Name, tc.i, got, tc.want)
		}
	}
}
