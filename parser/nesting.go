package parser

import (
	"fmt"

	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// MaxNesting bounds how deeply a statement's expressions nest. Everything
// that reads a statement after the parser (binding, normal forms, the
// expression builders, EXPLAIN) recurses over its expression trees, and a
// Go stack overflow cannot be recovered: it ends the process. A chain of
// n ANDs, ORs or arithmetic operators is n levels deep (each operator
// holds the chain before it), so the bound is generous: a WHERE of ten
// thousand OR branches is fine.
const MaxNesting = 20_000

// nestingError is the error for a statement nested beyond MaxNesting.
func nestingError(at int) *diag.Error {
	return errAt(diag.CodeSyntax, at, fmt.Sprintf("expression nested too deeply (more than %d levels)", MaxNesting),
		"a chain of AND, OR or arithmetic operators nests one level per operator: "+
			"write a long list of alternatives as IN (…), or split the statement")
}

// checkNestingTokens bounds what sqlparser's parser stack would hold, before
// sqlparser runs: its stack grows with every construct still open (a
// parenthesis, a CASE, a prefix operator waiting for its operand), about
// half a kilobyte per level, so NOT NOT … or ~~~… of a few megabytes would
// take gigabytes. It over-estimates: prefix operators (NOT, !, ~, unary
// - and +, BINARY, INTERVAL) count as open until the next operator or
// separator at their level; binary operator chains hold no stack and are
// checked on the tree afterwards (checkNestingTree).
func checkNestingTokens(src string, sig []token) *diag.Error {
	type level struct {
		prefix int // prefix operators that may still be open
		cases  int // CASE without its END
	}
	levels := []level{{}}
	open := 0 // levels (beyond the first) + everything open in all of them
	afterOperand := false
	for _, t := range sig {
		cur := &levels[len(levels)-1]
		text := src[t.start:t.end]
		word := ""
		if t.kind == tkIdent {
			word = lower(text)
		}
		switch {
		case t.kind == tkPunct && text == "(":
			levels = append(levels, level{})
			open++
			afterOperand = false
		case t.kind == tkPunct && text == ")":
			if len(levels) > 1 {
				open -= 1 + cur.prefix + cur.cases
				levels = levels[:len(levels)-1]
			}
			afterOperand = true
		case word == "case":
			cur.cases++
			open++
			afterOperand = false
		case word == "end":
			if cur.cases > 0 {
				cur.cases--
				open--
			}
			open -= cur.prefix
			cur.prefix = 0
			afterOperand = true
		case isPrefixOperator(t, text, word, afterOperand):
			cur.prefix++
			open++
			afterOperand = false
		case isOperand(t, word):
			afterOperand = true
		default:
			// An infix operator, a separator or a keyword: the prefix
			// operators before it at this level have their operand.
			if afterOperand || isSeparator(word, text) {
				open -= cur.prefix
				cur.prefix = 0
			}
			afterOperand = false
		}
		if open > MaxNesting {
			return nestingError(t.start)
		}
	}
	return nil
}

// isPrefixOperator: t starts an operand of its own (the operators that
// sqlparser's grammar makes right-associative).
func isPrefixOperator(t token, text, word string, afterOperand bool) bool {
	switch word {
	case "not", "binary", "_binary", "interval":
		return true
	}
	if t.kind != tkPunct {
		return false
	}
	switch text {
	case "!", "~":
		return true
	case "-", "+":
		return !afterOperand
	}
	return false
}

// isOperand: t ends a value (a name, a literal, a parameter).
func isOperand(t token, word string) bool {
	switch t.kind {
	case tkQuoted, tkString, tkNumber, tkParam, tkDollar:
		return true
	case tkIdent:
		return !operatorWords[word]
	}
	return false
}

// isSeparator: nothing open before it continues after it.
func isSeparator(word, text string) bool {
	return separatorWords[word] || text == "," || text == ";"
}

// operatorWords are keywords that take operands rather than being one.
var operatorWords = setOf("and", "or", "xor", "not", "is", "in", "like", "regexp", "rlike", "between",
	"case", "when", "then", "else", "end", "select", "from", "where", "group", "having", "order", "by",
	"limit", "offset", "on", "using", "as", "div", "mod", "distinct", "all", "any", "some", "exists",
	"escape", "collate", "interval", "binary", "_binary", "join", "union")

// separatorWords end whatever prefix operators were open before them.
var separatorWords = setOf("and", "or", "xor", "when", "then", "else", "select", "from", "where",
	"group", "having", "order", "by", "limit", "offset", "on", "using", "as", "join")

// checkNestingTree bounds the depth of the parsed tree, measured without
// recursing more than MaxNesting levels itself, so that the planner's
// recursions stay far from the stack limit.
func checkNestingTree(node sqlparser.SQLNode, at int) *diag.Error {
	if deeperThan(node, MaxNesting) {
		return nestingError(at)
	}
	return nil
}

// deeperThan reports whether the tree under node has more than limit
// levels below node. It recurses one level per level it looks at, and
// stops at limit.
func deeperThan(node sqlparser.SQLNode, limit int) bool {
	deep, self := false, true
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if self {
			self = false
			return true, nil // Walk visits node itself first: go into it
		}
		if !deep && (limit == 0 || deeperThan(n, limit-1)) {
			deep = true
		}
		return false, nil // the recursive call walked n's subtree
	}, node)
	return deep
}
