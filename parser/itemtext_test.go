package parser

import (
	"reflect"
	"testing"
)

// Output columns are named after the select items as written, tidied:
// keywords and function names upper-cased, single spaces, no quotes around
// names that need none, no comments. sqlparser's rendering would lowercase
// keywords (COUNT(distinct x)) and show the backticks the parser adds to
// names such as date.
func TestSelectItemTexts(t *testing.T) {
	tests := []struct {
		input string
		want  []string
	}{
		{"SELECT a, COUNT(DISTINCT x) AS c, sk+1, \"status\" s, LOWER(`name`) FROM t",
			[]string{"a", "COUNT(DISTINCT x)", "sk + 1", "status", "LOWER(name)"}},
		{"SELECT DISTINCT x  +  1, COUNT(date) FROM t", []string{"x + 1", "COUNT(date)"}},
		{"SELECT x IN ['a', 'b'], y NOT IN (1, NULL) AS `n` FROM t WHERE x = 1",
			[]string{"x IN ['a', 'b']", "y NOT IN (1, NULL)"}},
		{"SELECT CASE WHEN a > 1 THEN 'x, y' ELSE b END e, m.sub.z, tags[0] FROM t",
			[]string{"CASE WHEN a > 1 THEN 'x, y' ELSE b END", "m.sub.z", "tags[0]"}},
		{"SELECT a /* why */ + 1, SUBSTRING(s, 2, 3) 'str alias', NULL, TRUE, 'x'",
			[]string{"a + 1", "SUBSTRING(s, 2, 3)", "NULL", "TRUE", "'x'"}},
		{"(SELECT (a), b AS \"x y\" FROM t)", []string{"(a)", "b"}},
		{"SELECT * FROM t", []string{"*"}},
		{"SELECT t.*, COUNT(*) AS n\nFROM t", []string{"t.*", "COUNT(*)"}},
		{"SELECT SUM(x) + -7 AS `as` FROM t GROUP BY 1", []string{"SUM(x) + -7"}},
		// Keyword case and spacing as typed do not change the name.
		{"select min(Year), count( distinct\tGenre ), Count(*), max( `Year` )from t",
			[]string{"MIN(Year)", "COUNT(DISTINCT Genre)", "COUNT(*)", "MAX(Year)"}},
		{"SELECT a+b, a*-b, -(a), 2*(a-1), not x, x is not null, x between 1 and 2 FROM t",
			[]string{"a + b", "a * -b", "-(a)", "2 * (a - 1)", "NOT x", "x IS NOT NULL", "x BETWEEN 1 AND 2"}},
		{"select case when a then -1 else 0.50 end, coalesce(a,'It''s',\"b\"), l[1].m[2] from t",
			[]string{"CASE WHEN a THEN -1 ELSE 0.50 END", "COALESCE(a, 'It''s', b)", "l[1].m[2]"}},
		// Names that need their quotes keep them; a keyword as a path
		// component stays a name.
		{"SELECT lower(`my-attr`), upper(\"x y\"), `GSI1#PK` || 'x', m.`end`, m.count FROM t",
			[]string{"LOWER(`my-attr`)", "UPPER(\"x y\")", "`GSI1#PK` || 'x'", "m.end", "m.count"}},
		{"SELECT begins_with(sk, 'A#'), contains(tags, 'x'), size(tags) > 1 FROM t",
			[]string{"BEGINS_WITH(sk, 'A#')", "CONTAINS(tags, 'x')", "SIZE(tags) > 1"}},
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
