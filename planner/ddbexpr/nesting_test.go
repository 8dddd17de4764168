package ddbexpr_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/ddbsql/ddbsql/planner/ddbexpr"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// parenDepth is the deepest nesting of parentheses in s.
func parenDepth(s string) int {
	depth, deepest := 0, 0
	for _, c := range s {
		switch c {
		case '(':
			depth++
			deepest = max(deepest, depth)
		case ')':
			depth--
		}
	}
	return deepest
}

// A run of OR (or AND) becomes one flat condition, (a) OR (b) OR (c):
// built as nested binary Ors, a 12-term chain was nested 12 deep, and
// dynalite's expression parser takes time exponential in the nesting (4 s
// at depth 10, 30 s at 12, minutes beyond, answering no other request
// meanwhile). A negated comparison's guards join its AND instead of
// nesting in their own.
func TestConditionsStayFlat(t *testing.T) {
	chainOf := func(op expr.Op, n int) expr.Expr {
		var e expr.Expr = cmp(expr.OpEq, col("a"), n0(0))
		for i := 1; i < n; i++ {
			e = expr.Binary{Op: op, L: e, R: cmp(expr.OpEq, col("a"), n0(i))}
		}
		return e
	}
	right := expr.Binary{Op: expr.OpOr, L: cmp(expr.OpEq, col("a"), n0(0)),
		R: expr.Binary{Op: expr.OpOr, L: cmp(expr.OpEq, col("a"), n0(1)), R: cmp(expr.OpEq, col("a"), n0(2))}}
	for _, tc := range []struct {
		name     string
		pred     expr.Expr
		ops      string
		n, depth int
	}{
		{"OR chain", chainOf(expr.OpOr, 40), " OR ", 39, 2},
		{"AND chain", chainOf(expr.OpAnd, 40), " AND ", 39, 2},
		{"right-nested OR", right, " OR ", 2, 2},
		{"NOT of an OR chain", expr.Unary{Op: expr.OpNot, X: chainOf(expr.OpOr, 40)}, " AND ", 40*3 - 1, 4},
		{"negated comparison", cmp(expr.OpNe, col("a"), n0(1)), " AND ", 2, 3},
	} {
		c, ok := ddbexpr.Condition(tc.pred, 0)
		if !ok {
			t.Fatalf("%s: not pushable", tc.name)
		}
		b, err := expression.NewBuilder().WithFilter(c).Build()
		if err != nil {
			t.Fatal(err)
		}
		f := aws.ToString(b.Filter())
		if got := strings.Count(f, tc.ops); got != tc.n {
			t.Errorf("%s: %d %q in %s, want %d", tc.name, got, tc.ops, f, tc.n)
		}
		if d := parenDepth(f); d > tc.depth {
			t.Errorf("%s: parentheses nested %d deep, want at most %d: %s", tc.name, d, tc.depth, f)
		}
	}
}

func n0(i int) expr.Literal { return n(strconv.Itoa(i)) }
