package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// selectModifiers may follow SELECT before the first select item.
var selectModifiers = setOf("distinct", "distinctrow", "all", "straight_join", "sql_cache",
	"sql_no_cache", "sql_calc_found_rows", "high_priority")

// selectListEnds end the select list at nesting level 0.
var selectListEnds = setOf("from", "where", "group", "having", "order", "limit", "into",
	"union", "for", "lock", "procedure", "window")

// selectItemTexts returns each select item as written in the original
// text, without its alias (and AS): what SQL engines name an unaliased
// output column after (SQLite and MySQL use the text as typed, not a
// normalised rendering). sig are the statement's significant tokens,
// starting at SELECT. It returns nil when the list it finds does not line
// up with the AST's items; callers then fall back to rendering the AST.
//
// windowWords holds the start offsets of the keywords of OVER clauses
// (PARTITION, DESC, ROWS…), which are upper-cased like other keywords.
func selectItemTexts(src string, sig []token, sel *sqlparser.Select, windowWords map[int]bool) []string {
	if len(sig) == 0 || lower(src[sig[0].start:sig[0].end]) != "select" {
		return nil
	}
	i := 1
	for i < len(sig) && sig[i].kind == tkIdent && selectModifiers[lower(src[sig[i].start:sig[i].end])] {
		i++
	}
	var items [][]token
	start, depth := i, 0
	for ; i < len(sig); i++ {
		t := sig[i]
		text := src[t.start:t.end]
		if t.kind == tkPunct {
			switch text {
			case "(", "[":
				depth++
			case ")", "]":
				depth--
			case ",":
				if depth == 0 {
					items = append(items, sig[start:i])
					start = i + 1
				}
			}
			if text == ";" {
				break
			}
			continue
		}
		if depth == 0 && t.kind == tkIdent && selectListEnds[lower(text)] {
			break
		}
	}
	items = append(items, sig[start:i])
	if len(items) != len(sel.SelectExprs) {
		return nil
	}
	out := make([]string, len(items))
	for k, toks := range items {
		if ae, ok := sel.SelectExprs[k].(*sqlparser.AliasedExpr); ok && !ae.As.IsEmpty() && len(toks) > 0 {
			toks = toks[:len(toks)-1] // the alias
			if n := len(toks); n > 0 && toks[n-1].kind == tkIdent && lower(src[toks[n-1].start:toks[n-1].end]) == "as" {
				toks = toks[:n-1]
			}
		}
		if len(toks) == 0 {
			return nil
		}
		out[k] = tidyItem(src, toks, windowWords)
	}
	return out
}

// tidyItem writes a select item's tokens as an output column name: what
// the user wrote, tidied so that the same expression gets the same name
// however it was typed. Keywords and function names are upper-cased (as SQL
// keywords conventionally are), everything else keeps its case; tokens are
// separated by single spaces except inside calls, indexes and paths
// (COUNT(*), tags[0], m.sub.z), after a unary sign (-7) and before , ) ];
// a quoted name that could be written bare loses its quotes (`name` is
// name), while one that could not keeps them (`my-attr`); comments are gone.
// String and number literals keep their exact text.
func tidyItem(src string, toks []token, windowWords map[int]bool) string {
	var b strings.Builder
	caseDepth := 0
	var prev *token
	prevUnary := false
	for i := range toks {
		t := &toks[i]
		text := src[t.start:t.end]
		var next string
		if i+1 < len(toks) {
			next = src[toks[i+1].start:toks[i+1].end]
		}
		if prev != nil && spaceBefore(src, prev, t, prevUnary) {
			b.WriteByte(' ')
		}
		unary := false
		switch t.kind {
		case tkIdent:
			w := lower(text)
			afterDot := prev != nil && src[prev.start:prev.end] == "."
			switch {
			case afterDot:
			case w == "case":
				caseDepth++
				text = strings.ToUpper(text)
			case w == "end" && caseDepth > 0:
				caseDepth--
				text = strings.ToUpper(text)
			case hardKeywords[w] || next == "(" || windowWords[t.start]:
				text = strings.ToUpper(text)
			}
		case tkQuoted:
			if inner := text[1 : len(text)-1]; !t.open && isBareName(inner) {
				text = inner
			}
		case tkPunct:
			unary = isSign(text) && opensOperand(src, prev)
		}
		b.WriteString(text)
		prev, prevUnary = t, unary
	}
	return b.String()
}

// spaceBefore says whether a blank separates t from the token before it.
func spaceBefore(src string, prev, t *token, prevUnary bool) bool {
	p, c := src[prev.start:prev.end], src[t.start:t.end]
	switch {
	case prevUnary, p == "(", p == "[", p == ".", c == ")", c == "]", c == ",", c == ".":
		return false
	case c == "(":
		// A call: a name (not an operator keyword such as IN or NOT) right
		// before the parenthesis.
		return !(prev.kind == tkQuoted || prev.kind == tkIdent && !operatorKeywords[lower(p)])
	case c == "[":
		// An index on a name or path; after anything else, a list literal.
		return !(prev.kind == tkQuoted || prev.kind == tkIdent && !hardKeywords[lower(p)] || p == "]" || p == ")")
	}
	return true
}

// operatorKeywords are the keywords a parenthesis after which opens an
// operand, not a call's arguments.
var operatorKeywords = setOf("and", "or", "not", "in", "is", "like", "regexp", "rlike",
	"between", "escape", "when", "then", "else", "case", "distinct", "all", "exists",
	"div", "mod", "as", "select", "from", "on", "using", "interval", "binary", "over")

func isSign(p string) bool { return p == "-" || p == "+" || p == "!" || p == "~" }

// opensOperand says whether an operand starts after prev, so that a sign
// there is unary: at the start, after an operator, an opening bracket, a
// comma or an operator keyword.
func opensOperand(src string, prev *token) bool {
	if prev == nil {
		return true
	}
	p := src[prev.start:prev.end]
	switch prev.kind {
	case tkPunct:
		return p != ")" && p != "]"
	case tkIdent:
		return operatorKeywords[lower(p)]
	}
	return false
}

// isBareName says whether a quoted name reads the same without its quotes:
// a letter or underscore, then letters, digits and underscores.
func isBareName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
