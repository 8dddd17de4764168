package repl

import (
	"strings"
	"sync"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/planner/value"
)

// quoteCache remembers, per position, which names the parser takes bare.
var quoteCache sync.Map // key: position + "\x00" + name → bool (needs quotes)

// quoteAttr writes an attribute name the way completion inserts it: bare
// when the parser reads it back as the same name (so `status`, `name`,
// `size`… stay bare: ddbsql's parser takes most reserved words as names),
// backticked otherwise (`GSI1#PK`, `my-attr`, `x.y`, `from`).
func quoteAttr(name string) string {
	return quoteFor("attr", name, func(n string) bool {
		stmts, err := parser.Parse("SELECT " + n + " FROM t WHERE " + n + " = 1")
		return err == nil && len(stmts) == 1 && readsBackAs(stmts[0], name)
	})
}

// quoteTable writes a table or index name as completion inserts it.
func quoteTable(name string) string {
	return quoteFor("table", name, func(n string) bool {
		stmts, err := parser.Parse("SELECT * FROM " + n)
		return err == nil && len(stmts) == 1
	})
}

func quoteFor(pos, name string, bareOK func(string) bool) string {
	quoted := "`" + strings.ReplaceAll(name, "`", "``") + "`"
	if !value.IsPlainIdentifier(name) {
		return quoted
	}
	key := pos + "\x00" + name
	if v, ok := quoteCache.Load(key); ok {
		if v.(bool) {
			return quoted
		}
		return name
	}
	needs := !bareOK(name)
	quoteCache.Store(key, needs)
	if needs {
		return quoted
	}
	return name
}

// readsBackAs reports whether every column reference in a parsed SELECT
// is exactly name (same case, no path rewriting).
func readsBackAs(st parser.Statement, name string) bool {
	sel, ok := st.(*parser.Select)
	if !ok || sel.AST == nil {
		return false
	}
	n := 0
	same := true
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if c, ok := node.(*sqlparser.ColName); ok {
			n++
			same = same && c.Qualifier.IsEmpty() && c.Name.String() == name
		}
		return true, nil
	}, sel.AST)
	return same && n > 0
}
