package parser

import (
	"reflect"
	"testing"
)

// Output columns are named after the select items as written (SQLite and
// MySQL do so): sqlparser's rendering lowercases keywords (COUNT(distinct
// x)), respaces operators and shows the backticks the parser adds to names
// such as date. Found by the differential test's header check.
func TestSelectItemTexts(t *testing.T) {
	tests := []struct {
		input string
		want  []string
	}{
		{"SELECT a, COUNT(DISTINCT x) AS c, sk+1, \"status\" s, LOWER(`name`) FROM t",
			[]string{"a", "COUNT(DISTINCT x)", "sk+1", `"status"`, "LOWER(`name`)"}},
		{"SELECT DISTINCT x  +  1, COUNT(date) FROM t", []string{"x  +  1", "COUNT(date)"}},
		{"SELECT x IN ['a', 'b'], y NOT IN (1, NULL) AS `n` FROM t WHERE x = 1",
			[]string{"x IN ['a', 'b']", "y NOT IN (1, NULL)"}},
		{"SELECT CASE WHEN a > 1 THEN 'x, y' ELSE b END e, m.sub.z, tags[0] FROM t",
			[]string{"CASE WHEN a > 1 THEN 'x, y' ELSE b END", "m.sub.z", "tags[0]"}},
		{"SELECT a /* why */ + 1, SUBSTRING(s, 2, 3) 'str alias', NULL, TRUE, 'x'",
			[]string{"a /* why */ + 1", "SUBSTRING(s, 2, 3)", "NULL", "TRUE", "'x'"}},
		{"(SELECT (a), b AS \"x y\" FROM t)", []string{"(a)", "b"}},
		{"SELECT * FROM t", []string{"*"}},
		{"SELECT t.*, COUNT(*) AS n\nFROM t", []string{"t.*", "COUNT(*)"}},
		{"SELECT SUM(x) + -7 AS `as` FROM t GROUP BY 1", []string{"SUM(x) + -7"}},
	}
	for _, tt := range tests {
		sel := parseSelect1(t, tt.input)
		if !reflect.DeepEqual(sel.ItemTexts, tt.want) {
			t.Errorf("%s\n got  %q\n want %q", tt.input, sel.ItemTexts, tt.want)
		}
		if len(sel.ItemTexts) != len(sel.AST.SelectExprs) {
			t.Errorf("%s: %d texts for %d items", tt.input, len(sel.ItemTexts), len(sel.AST.SelectExprs))
		}
	}
}
