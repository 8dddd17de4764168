package parser

import (
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// || joins strings (standard SQL, PartiQL, SQLite); sqlparser read it as
// MySQL's logical OR, so SELECT name || 'x' returned true or false and
// WHERE a || b matched rows by truthiness, silently. Found by reviewing
// what an SQLite-targeted generator writes.
func TestConcatOperator(t *testing.T) {
	sel := parseSelect1(t, "SELECT a || 'x' || b, (c || d) = 'cd' FROM t WHERE e || f = 'ef' OR g = 1")
	var concats, ors int
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.BinaryExpr:
			if x.Operator == sqlparser.BitOrStr {
				concats++
			}
		case *sqlparser.OrExpr:
			ors++
		}
		return true, nil
	}, sel.AST)
	if concats != 4 || ors != 1 {
		t.Errorf("%s: %d concatenations and %d ORs, want 4 and 1", sqlparser.String(sel.AST), concats, ors)
	}
	// It binds tighter than comparisons, as in standard SQL.
	where := sel.AST.Where.Expr.(*sqlparser.OrExpr)
	if cmp, ok := where.Left.(*sqlparser.ComparisonExpr); !ok || cmp.Operator != "=" {
		t.Errorf("e || f = 'ef' parsed as %s", sqlparser.String(where.Left))
	}
	if got := sel.ItemTexts[0]; got != "a || 'x' || b" {
		t.Errorf("output name %q", got)
	}
}

func TestConcatOperatorErrors(t *testing.T) {
	for _, c := range []errCase{
		{name: "bitwise or", input: "SELECT a | 1 FROM t", code: diag.CodeUnsupported, line: 1, col: 10,
			msg: []string{"| operator (bitwise OR) is not supported"}, hint: "a || b or CONCAT(a, b)"},
		{name: "MySQL's OR", input: "SELECT a FROM t WHERE a = 1 || a = 2", code: diag.CodeSyntax, line: 1, col: 34,
			hint: "for a logical OR write OR"},
	} {
		checkErr(t, c)
	}
}
