package parser

import (
	"testing"

	"github.com/xwb1989/sqlparser"
)

// DynamoDB-flavoured SQL that must parse, with what sqlparser makes of it.
func TestDynamoDBFlavouredSQL(t *testing.T) {
	tests := []struct{ input, want string }{
		{"SELECT * FROM app WHERE PK = 'USER#1' AND begins_with(SK, 'DOC#')",
			"select * from app where PK = 'USER#1' and begins_with(SK, 'DOC#')"},
		{"SELECT * FROM app WHERE contains(tags, 'x') AND size(info) > 3",
			"select * from app where contains(tags, 'x') and size(info) > 3"},
		{"SELECT * FROM app WHERE attribute_exists(x) AND attribute_not_exists(y) AND attribute_type(z, 'S')",
			"select * from app where attribute_exists(x) and attribute_not_exists(y) and attribute_type(z, 'S')"},
		{"SELECT * FROM app WHERE SK LIKE 'abc%'", "select * from app where SK like 'abc%'"},
		{"SELECT * FROM app WHERE PK IN ('a', 'b') AND n BETWEEN 1 AND 10",
			"select * from app where PK in ('a', 'b') and n between 1 and 10"},
		{"SELECT * FROM app WHERE a IS NULL AND b IS NOT NULL", "select * from app where a is null and b is not null"},
		{"SELECT * FROM app USE INDEX (GSI1) WHERE GSI1PK = 'x'", "select * from app use index (GSI1) where GSI1PK = 'x'"},
		{"SELECT * FROM app FORCE INDEX (GSI1)", "select * from app force index (GSI1)"},
		{"SELECT * FROM `app`.`GSI1` WHERE GSI1PK = 'x'", "select * from app.GSI1 where GSI1PK = 'x'"},
		{"SELECT * FROM app LIMIT 10", "select * from app limit 10"},
		{"SELECT * FROM app LIMIT 10 OFFSET 20", "select * from app limit 20, 10"},
		{"SELECT * FROM app LIMIT 20, 10", "select * from app limit 20, 10"},
		{"SELECT COUNT(*) FROM app", "select COUNT(*) from app"},
		{"SELECT CASE WHEN a > 1 THEN 'big' ELSE 'small' END AS size_class FROM app",
			"select case when a > 1 then 'big' else 'small' end as size_class from app"},
		{"SELECT CAST(n AS DECIMAL) FROM app", "select convert(n, decimal) from app"},
		{"SELECT status, COUNT(*) AS n FROM app GROUP BY status HAVING COUNT(*) > 1",
			"select `status`, COUNT(*) as n from app group by `status` having COUNT(*) > 1"},
		{"SELECT o.id, c.name FROM orders o JOIN customers c ON o.cid = c.id",
			"select o.id, c.name from orders as o join customers as c on o.cid = c.id"},
		{"SELECT * FROM orders JOIN customers USING (cid)", "select * from orders join customers using (cid)"},
		{"SELECT * FROM a LEFT JOIN b ON a.k = b.k", "select * from a left join b on a.k = b.k"},
		{"SELECT item_size() FROM app", "select item_size() from app"},
		{"SELECT PK, item_size() AS bytes FROM app ORDER BY bytes DESC", "select PK, item_size() as bytes from app order by bytes desc"},
		{"SELECT \"double\" FROM app", "select `double` from app"},
	}
	for _, tt := range tests {
		sel := parseSelect1(t, tt.input)
		if got := sqlparser.String(sel.AST); got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.input, got, tt.want)
		}
	}
}

func TestNumbersStayExact(t *testing.T) {
	sel := parseSelect1(t, "SELECT 12345678901234567890123456789012345678, -0.000001, 1.5e3, -5, - 7, +2.50, - -3, -1E-130, .5, 0.10 FROM t")
	want := []string{"12345678901234567890123456789012345678", "-0.000001", "1.5e3", "-5", "-7", "2.50", "3", "-1E-130", ".5", "0.10"}
	if len(sel.AST.SelectExprs) != len(want) {
		t.Fatalf("%d expressions", len(sel.AST.SelectExprs))
	}
	for i, w := range want {
		e := sel.AST.SelectExprs[i].(*sqlparser.AliasedExpr).Expr
		got, ok := NumberText(e)
		if !ok || got != w {
			t.Errorf("expression %d (%s): NumberText = %q, %v; want %q", i, sqlparser.String(e), got, ok, w)
		}
	}
	// The raw AST keeps the digits too: no float64 on the way.
	v := sel.AST.SelectExprs[0].(*sqlparser.AliasedExpr).Expr.(*sqlparser.SQLVal)
	if v.Type != sqlparser.IntVal || string(v.Val) != want[0] {
		t.Errorf("big integer: %v %q", v.Type, v.Val)
	}
	f := sel.AST.SelectExprs[1].(*sqlparser.AliasedExpr).Expr.(*sqlparser.UnaryExpr).Expr.(*sqlparser.SQLVal)
	if f.Type != sqlparser.FloatVal || string(f.Val) != "0.000001" {
		t.Errorf("small decimal: %v %q", f.Type, f.Val)
	}
	for _, e := range []sqlparser.Expr{sqlparser.NewStrVal([]byte("1")), &sqlparser.ColName{}, sqlparser.NewHexNum([]byte("0x1"))} {
		if s, ok := NumberText(e); ok {
			t.Errorf("NumberText(%s) = %q, want not a number", sqlparser.String(e), s)
		}
	}
}
