package parser

import (
	"reflect"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"
)

// A '$' between name characters is part of the name, as MySQL lexes it
// (orders$changes); a '$' before a digit is still a parameter, and a name
// cannot start with '$'.
func TestDollarInNames(t *testing.T) {
	sel := parseSelect1(t, `SELECT c.new$x, old$y FROM orders$changes c WHERE c.operation = 'MODIFY'`)
	tn := sel.AST.From[0].(*sqlparser.AliasedTableExpr).Expr.(sqlparser.TableName)
	if table, index := TableRef(tn); table != "orders$changes" || index != "" {
		t.Errorf("TableRef = %q, %q", table, index)
	}
	want := []col{{"c", "new$x"}, {"", "old$y"}, {"c", "operation"}}
	if got := columns(sel); !reflect.DeepEqual(got, want) {
		t.Errorf("columns %v, want %v", got, want)
	}
	if _, err := Parse("SELECT * FROM t WHERE a = $1"); err == nil || !strings.Contains(err.Error(), "positional parameters such as $1") {
		t.Errorf("$1: %v", err)
	}
	for _, q := range []string{"SELECT * FROM $changes", "SELECT a$ FROM t", "SELECT a$1 FROM t"} {
		if _, err := Parse(q); err == nil {
			t.Errorf("%s parsed", q)
		}
	}
}
