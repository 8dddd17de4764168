package ddbexpr_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/funcs"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestTranslatedFunctionsAreTheCatalogues proves that ddbexpr translates
// exactly the catalogue's condition functions, no more and no fewer.
func TestTranslatedFunctionsAreTheCatalogues(t *testing.T) {
	var want []string
	for _, f := range funcs.All() {
		if f.Pushdown == funcs.Condition {
			want = append(want, f.Name)
		}
	}
	got := ddbexpr.TranslatedConditionFuncs()
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("ddbexpr translates %v; the catalogue's condition functions are %v", got, want)
	}
}

// pushdownSample is an argument of the given type in the form DynamoDB
// accepts: the first argument an attribute, the others literals.
func pushdownSample(i int, typ funcs.Type) expr.Expr {
	if i == 0 {
		return col("a")
	}
	switch typ {
	case funcs.Number:
		return n("2")
	case funcs.Bool:
		return lit(value.BoolOf(true))
	case funcs.TypeName:
		return s("S")
	}
	return s("x")
}

// TestPushdownFollowsTheCatalogue calls every scalar function of the
// catalogue with arguments DynamoDB could take and checks that Condition
// pushes it down exactly as the catalogue says: a condition function as a
// predicate of its own, an operand function inside a comparison, any other
// function never.
func TestPushdownFollowsTheCatalogue(t *testing.T) {
	for _, f := range funcs.All() {
		if f.Aggregate {
			continue
		}
		args := make([]expr.Expr, f.MinArgs)
		for i := range args {
			args[i] = pushdownSample(i, f.Param(i))
		}
		call := fn(f.Name, args...)
		if _, ok := ddbexpr.Condition(call, 0); ok != (f.Pushdown == funcs.Condition) {
			t.Errorf("Condition(%s) pushed = %v; the catalogue says %s", call, ok, f.Pushdown)
		}
		if _, ok := ddbexpr.Condition(not(call), 0); ok != (f.Pushdown == funcs.Condition) {
			t.Errorf("Condition(NOT %s) pushed = %v; the catalogue says %s", call, ok, f.Pushdown)
		}
		compared := cmp(expr.OpEq, call, n("1"))
		if _, ok := ddbexpr.Condition(compared, 0); ok != (f.Pushdown == funcs.Operand) {
			t.Errorf("Condition(%s) pushed = %v; the catalogue says %s", compared, ok, f.Pushdown)
		}
	}
}
