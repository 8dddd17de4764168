package eval

import (
	"errors"
	"testing"

	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// A list index into a set is an error that says why and what to do, not a
// NULL: sets are unordered, so no element has a position. Lists, maps and
// missing attributes keep their NULL-on-absent behaviour.
func TestSetIndexIsAnError(t *testing.T) {
	deep := mapv("doc", mapv("l", list(str("x"), fixture().items[0].Attr("nums"))))
	for _, tc := range []struct {
		row       testRow
		e         expr.Expr
		msg, hint string
	}{
		{fixture(), col("tags", 0),
			"tags is a string set; sets are unordered, so tags[0] has no element 0",
			"test membership with contains(tags, 'x'), or read the whole set"},
		{fixture(), col("nums", 3),
			"nums is a number set; sets are unordered, so nums[3] has no element 3",
			"test membership with contains(nums, 1), or read the whole set"},
		{fixture(), col("bins", 1),
			"bins is a binary set; sets are unordered, so bins[1] has no element 1",
			"test membership with contains(bins, x'01'), or read the whole set"},
		{testRow{items: []value.Value{deep}}, col("doc", "l", 1, 0),
			"doc.l[1] is a number set; sets are unordered, so doc.l[1][0] has no element 0",
			"test membership with contains(doc.l[1], 1), or read the whole set"},
		// In a predicate and inside a function the error is the same.
		{fixture(), bop(expr.OpEq, col("tags", 0), litS("a")),
			"tags is a string set; sets are unordered, so tags[0] has no element 0", ""},
		{fixture(), fn("coalesce", col("tags", 1), litS("none")),
			"tags is a string set; sets are unordered, so tags[1] has no element 1", ""},
	} {
		_, err := Eval(tc.e, tc.row)
		var ee *diag.Error
		if !errors.As(err, &ee) || ee.Phase != diag.Evaluate || ee.Code != diag.CodeSetIndex {
			t.Errorf("%s: got %v, want a %s error", tc.e, err, diag.CodeSetIndex)
			continue
		}
		if ee.Msg != tc.msg || (tc.hint != "" && ee.Hint != tc.hint) {
			t.Errorf("%s:\n got %s / %s\nwant %s / %s", tc.e, ee.Msg, ee.Hint, tc.msg, tc.hint)
		}
	}
	runEval(t, []evalTest{
		{name: "list index", e: col("list", 1), want: num("1")},
		{name: "list index out of range", e: col("list", 7), want: missing()},
		{name: "index into a map", e: col("info", 0), want: missing()},
		{name: "index into a missing attribute", e: col("nope", 0), want: missing()},
		{name: "whole set", e: col("tags"), want: set(value.StringSet, str("a"), str("b"))},
		{name: "membership", e: fn("contains", col("tags"), litS("b")), want: boolv(true)},
	})
}
