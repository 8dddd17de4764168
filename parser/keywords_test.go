package parser

import (
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// dynamoNames are DynamoDB reserved words that are common attribute names.
var dynamoNames = []string{
	"status", "name", "size", "count", "data", "date", "year", "type", "timestamp",
	"value", "values", "key", "keys", "comment", "level", "position", "source",
	"state", "time", "user", "index", "end", "left", "right", "full", "next",
	"default", "desc", "asc", "schema", "table", "tables", "mode", "offset",
	"text", "start", "begin", "session", "global", "primary", "view", "year",
	// keywords sqlparser reserves without using them (lowercased as names)
	"range", "get", "long", "option", "usage", "leading", "precision",
}

func TestReservedWordsAsNames(t *testing.T) {
	for _, w := range dynamoNames {
		for _, spelled := range []string{w, strings.ToUpper(w), strings.ToUpper(w[:1]) + w[1:]} {
			in := "SELECT " + spelled + ", t." + spelled + ", COUNT(" + spelled + ") AS " + spelled +
				" FROM " + spelled + " AS t WHERE " + spelled + " = 1 AND size(" + spelled + ") > 0 AND NOT " + spelled +
				" GROUP BY " + spelled + " ORDER BY " + spelled + " DESC, " + spelled
			sel := parseSelect1(t, in)
			cols := columns(sel)
			if len(cols) != 9 {
				t.Errorf("%s: %d columns %v\n%s", spelled, len(cols), cols, sqlparser.String(sel.AST))
				continue
			}
			for _, c := range cols {
				if c.name != spelled {
					t.Errorf("%s: column %q: case or name lost\n%s", spelled, c.name, sqlparser.String(sel.AST))
				}
			}
			alias := sel.AST.SelectExprs[2].(*sqlparser.AliasedExpr).As.String()
			table := sel.AST.From[0].(*sqlparser.AliasedTableExpr).Expr.(sqlparser.TableName).Name.String()
			if alias != spelled || table != spelled {
				t.Errorf("%s: alias %q table %q", spelled, alias, table)
			}
		}
	}
}

// Every keyword sqlparser knows, other than the hard ones, must work as a
// name in the common positions, keeping its case.
func TestEveryKeywordAsName(t *testing.T) {
	seen := 0
	for id := 0; id < 70000; id++ {
		w := sqlparser.KeywordString(id)
		if w == "" || hardKeywords[w] || !isIdentText(w) {
			continue
		}
		seen++
		spelled := strings.ToUpper(w[:1]) + w[1:]
		in := "SELECT " + spelled + " FROM t WHERE " + spelled + " = 1 ORDER BY " + spelled
		stmts, err := Parse(in)
		if err != nil {
			t.Errorf("%s: %v", w, err)
			continue
		}
		for _, c := range columns(stmts[0].(*Select)) {
			if c.name != spelled {
				t.Errorf("%s: column %q", w, c.name)
			}
		}
	}
	if seen < 100 {
		t.Fatalf("only %d keywords found; KeywordString enumeration broke", seen)
	}
}

func TestHardKeywordsNeedBackticks(t *testing.T) {
	for _, w := range []string{"from", "select", "order", "group", "where", "limit", "in", "is", "like"} {
		e := parseError(t, "SELECT * FROM t WHERE "+w+" = 1")
		if e.Code != diag.CodeSyntax || !strings.Contains(e.Hint, "`"+w+"`") {
			t.Errorf("%s: %v", w, e)
		}
		sel := parseSelect1(t, "SELECT * FROM t WHERE `"+w+"` = 1")
		if !hasColumn(sel, w) {
			t.Errorf("`%s`: %v", w, columns(sel))
		}
	}
}

// The keywords' own uses must survive the rewriting.
func TestKeywordsStillWork(t *testing.T) {
	for _, in := range []string{
		"SELECT COUNT(*), count(DISTINCT status) FROM t",
		"SELECT CAST(a AS DATE), CAST(b AS DECIMAL(10, 2)), CAST(c AS CHAR CHARACTER SET utf8), CAST(d AS SIGNED INTEGER) FROM t",
		"SELECT CONVERT(a, DATE), CONVERT(b, TIME), CONVERT(c USING utf8) FROM t",
		"SELECT * FROM t USE INDEX (GSI1) WHERE x = 1",
		"SELECT * FROM t FORCE INDEX (GSI1)",
		"SELECT * FROM t AS x IGNORE INDEX (GSI1, `index`)",
		"SELECT a FROM t LIMIT 5 OFFSET 10",
		"SELECT a FROM t LIMIT 10, 5",
		"SELECT CASE WHEN a > 1 THEN 'x' ELSE 'y' END, CASE status WHEN 1 THEN 2 END AS s FROM t",
		"SELECT a FROM t LEFT JOIN u ON t.id = u.id RIGHT OUTER JOIN v USING (id)",
		"SELECT LEFT(name, 2), RIGHT(name, 2), VALUES(x), IF(a, b, c), REPLACE(a, 'b', 'c'), MOD(a, 2) FROM t",
		"SELECT DATE(ts), YEAR(ts), TIMESTAMP(ts) FROM t",
		"SELECT a FROM t ORDER BY a DESC, b ASC",
		"SELECT a FROM t WHERE a IS NOT NULL AND b IS NULL AND c IS TRUE",
		"SELECT a FROM t WHERE a NOT IN (1, 2) AND b NOT LIKE 'x%' AND c NOT BETWEEN 1 AND 2",
		"SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.id)",
		"SELECT a FROM t WHERE a = CURRENT_TIMESTAMP",
		"SELECT DISTINCT a FROM t",
		"SELECT a + INTERVAL 1 YEAR FROM t",
		"SELECT a FROM t FOR UPDATE",
		"SELECT a FROM t LOCK IN SHARE MODE",
		"SELECT SUBSTR(a FROM 2 FOR 3), SUBSTRING(b, 1, 2) FROM t",
		"SELECT GROUP_CONCAT(DISTINCT a ORDER BY a SEPARATOR ',') FROM t",
		"SELECT a FROM t WHERE a LIKE 'x!%' ESCAPE '!'",
		"SELECT a FROM t WHERE MATCH(a) AGAINST ('x' IN BOOLEAN MODE)",
		"SELECT a FROM t WHERE MATCH(a) AGAINST ('x' WITH QUERY EXPANSION)",
		"SELECT a FROM t WHERE a = b COLLATE utf8_bin",
		"SELECT a DIV 2, a MOD 2 FROM t",
		"SELECT STRAIGHT_JOIN a FROM t STRAIGHT_JOIN u ON t.x = u.x",
		"SELECT SQL_NO_CACHE a FROM t",
	} {
		if _, err := ParseOne(in); err != nil {
			t.Errorf("%s\n%v", in, err)
		}
	}
}

// Implicit aliases that are keywords keep their case too.
func TestImplicitKeywordAlias(t *testing.T) {
	sel := parseSelect1(t, "SELECT a Status, b Date FROM t")
	for i, want := range []string{"Status", "Date"} {
		if got := sel.AST.SelectExprs[i].(*sqlparser.AliasedExpr).As.String(); got != want {
			t.Errorf("alias %d = %q, want %q", i, got, want)
		}
	}
}

func TestEndAsNameInsideCase(t *testing.T) {
	sel := parseSelect1(t, "SELECT CASE WHEN end > 1 THEN end ELSE start END FROM t WHERE end = 2")
	var names []string
	for _, c := range columns(sel) {
		names = append(names, c.name)
	}
	if strings.Join(names, ",") != "end,end,start,end" {
		t.Errorf("columns %v", names)
	}
}
