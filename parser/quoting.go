package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Quoting, the ddbsql (and PartiQL) way: '…' is a string; "…" and `…` are
// names. sqlparser reads "…" as a string, so the rewriter hands every
// double-quoted name to it in backticks.

// unquoteName is the name a tkQuoted token stands for: the text between its
// delimiters, with a doubled delimiter read as one (so "a""b" is the name
// a"b). An unterminated token (checkTokens rejects it first) keeps its text.
func unquoteName(text string) string {
	if len(text) < 2 || text[len(text)-1] != text[0] {
		return text
	}
	q := text[:1]
	return strings.ReplaceAll(text[1:len(text)-1], q+q, q)
}

// backticked writes name as a backticked name, doubling any backtick in it.
func backticked(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// isDoubleQuoted reports whether t is a "…" name.
func isDoubleQuoted(src string, t token) bool {
	return t.kind == tkQuoted && src[t.start] == '"'
}

// quotedValues lists, once each and in AST walk order, the lone "…" names of
// a SELECT that stand where SQL usually writes a value: right of a
// comparison or LIKE, in an IN list, as a BETWEEN bound, as the second
// argument of begins_with, contains or attribute_type, after CASE x WHEN,
// and anywhere in a SELECT without FROM (which has no attributes at all).
func quotedValues(ast *sqlparser.Select, lone map[string]bool) []string {
	if len(lone) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(e sqlparser.Expr) {
		c, ok := e.(*sqlparser.ColName)
		if !ok || !c.Qualifier.IsEmpty() {
			return
		}
		if n := c.Name.String(); lone[n] && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	noFrom := isNoFrom(ast.From)
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *sqlparser.ColName:
			if noFrom {
				add(n)
			}
		case *sqlparser.ComparisonExpr:
			if tuple, ok := n.Right.(sqlparser.ValTuple); ok {
				for _, item := range tuple {
					add(item)
				}
			} else {
				add(n.Right)
			}
		case *sqlparser.RangeCond:
			add(n.From)
			add(n.To)
		case *sqlparser.FuncExpr:
			if name := lower(n.Name.String()); valueArgFuncs[name] && len(n.Exprs) == 2 {
				if ae, ok := n.Exprs[1].(*sqlparser.AliasedExpr); ok {
					add(ae.Expr)
				}
			}
		case *sqlparser.CaseExpr:
			if n.Expr != nil {
				for _, w := range n.Whens {
					add(w.Cond)
				}
			}
		}
		return true, nil
	}, ast)
	return out
}

// valueArgFuncs are the functions whose second argument is a value in
// practice: a prefix, an element, a type name.
var valueArgFuncs = setOf("begins_with", "contains", "attribute_type")

// isNoFrom reports whether sqlparser read the SELECT as having no FROM: it
// fills in MySQL's FROM dual then.
func isNoFrom(from sqlparser.TableExprs) bool {
	if len(from) != 1 {
		return false
	}
	ate, ok := from[0].(*sqlparser.AliasedTableExpr)
	if !ok {
		return false
	}
	tn, ok := ate.Expr.(sqlparser.TableName)
	return ok && tn.Qualifier.IsEmpty() && lower(tn.Name.String()) == "dual"
}
