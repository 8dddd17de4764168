package parser

import (
	"github.com/xwb1989/sqlparser"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// parseSelect parses a SELECT whose tokens (comments included) are toks.
// The text handed to sqlparser is the statement with comments blanked,
// wrapping parentheses blanked, document paths replaced by synthetic names
// and soft keywords used as names backticked; every position sqlparser
// reports is mapped back through those edits.
func parseSelect(src string, toks []token) (*Select, *diag.Error) {
	ast, rw, sig, err := parseSQL(src, toks)
	if err != nil {
		return nil, err
	}
	sel, err := asSelect(ast, sig[0].start)
	if err != nil {
		return nil, err
	}
	if err := checkNestingTree(sel, sig[0].start); err != nil {
		return nil, err
	}
	start, end := sig[0].start, sig[len(sig)-1].end
	return &Select{AST: sel, Paths: rw.paths, QuotedValues: quotedValues(sel, rw.loneQuoted),
		ItemTexts: selectItemTexts(src, sig, sel, rw.windowWords()), Windows: rw.windows, Text: src[start:end], Loc: Span{start, end}}, nil
}

// parseSQL hands one statement to sqlparser through the rewrite the SELECT
// path needs (comments blanked, wrapping parentheses blanked, document
// paths and keyword names rewritten) and returns what sqlparser made of
// it, the rewriter (its paths and quoted names) and the significant
// tokens sqlparser saw. INSERT, UPDATE and DELETE come through here too.
func parseSQL(src string, toks []token) (sqlparser.Statement, *nameRewriter, []token, *diag.Error) {
	sig := significant(toks)
	if err := checkSelectFeatures(src, sig); err != nil {
		return nil, nil, nil, err
	}
	if err := checkNestingTokens(src, sig); err != nil {
		return nil, nil, nil, err
	}
	start, end := sig[0].start, sig[len(sig)-1].end
	buf := []byte(src[start:end])
	for _, t := range toks {
		if t.kind == tkComment && t.start >= start && t.start < end {
			// sqlparser would execute /*! … */ and panics on some of them;
			// blanking every comment keeps its view and ours the same.
			blank(buf, t.start-start, min(t.end, end)-start)
		}
	}
	sig = stripParens(src, buf, start, sig)
	rw := newNameRewriter(src, sig, src[start:end])
	if err := rw.run(); err != nil {
		return nil, nil, nil, err
	}
	text := splice(buf, start, rw.edits)
	ast, fail := callSQLParser(text.text)
	if fail != nil {
		return nil, nil, nil, sqlError(src, text, fail, sig)
	}
	return ast, rw, sig, nil
}

// blank overwrites buf[a:b] with spaces, keeping line breaks.
func blank(buf []byte, a, b int) {
	for i := a; i < b; i++ {
		if buf[i] != '\n' {
			buf[i] = ' '
		}
	}
}

// stripParens blanks parentheses that wrap the whole statement, as in
// (SELECT …), which sqlparser rejects at the top level, and returns the
// tokens inside them.
func stripParens(src string, buf []byte, base int, sig []token) []token {
	match := matchParens(src, sig)
	lo, hi := 0, len(sig)-1
	for hi-lo >= 2 && match[lo] == hi {
		first := sig[lo+1]
		if !isPunctTok(src, first, "(") && lower(src[first.start:first.end]) != "select" {
			break
		}
		blank(buf, sig[lo].start-base, sig[lo].end-base)
		blank(buf, sig[hi].start-base, sig[hi].end-base)
		lo, hi = lo+1, hi-1
	}
	return sig[lo : hi+1]
}

// matchParens maps the index of each '(' to the index of its ')', or -1.
func matchParens(src string, sig []token) []int {
	match := make([]int, len(sig))
	var open []int
	for i, t := range sig {
		match[i] = -1
		switch {
		case isPunctTok(src, t, "("):
			open = append(open, i)
		case isPunctTok(src, t, ")") && len(open) > 0:
			match[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	return match
}

func isPunctTok(src string, t token, p string) bool {
	return t.kind == tkPunct && src[t.start:t.end] == p
}

// asSelect accepts the statement kinds sqlparser can return for our text.
func asSelect(ast sqlparser.Statement, at int) (*sqlparser.Select, *diag.Error) {
	switch st := ast.(type) {
	case *sqlparser.Select:
		return st, nil
	case *sqlparser.ParenSelect:
		return asSelect(st.Select, at)
	case *sqlparser.Union:
		return nil, errAt(diag.CodeUnsupported, at, "UNION is not supported", "run the SELECT statements one by one")
	}
	return nil, errAt(diag.CodeUnsupported, at, "only SELECT statements can be run here", "")
}

// sqlError turns a sqlparser failure into an Error on the original text.
func sqlError(src string, text rewritten, fail *sqlFailure, sig []token) *diag.Error {
	what := fail.what
	if what == "max nesting level reached" {
		what = "too many nested parentheses"
	}
	if fail.start >= len(text.text) {
		msg := "unexpected end of statement"
		if what != "syntax error" {
			msg = what
		}
		return errAt(diag.CodeSyntax, sig[len(sig)-1].end, msg, "")
	}
	a, b := text.origStart(fail.start), text.origEnd(fail.end)
	if b < a {
		b = a
	}
	msg := "unexpected " + quoteSnippet(src[a:b])
	if what != "syntax error" {
		msg = what + " at " + quoteSnippet(src[a:b])
	}
	hint := tokenHint(src, a, b)
	if hint == "" && hasConcat(src, sig) {
		// a = 1 || b = 2 written for MySQL's OR reads as a chain of
		// comparisons, which the grammar rejects.
		hint = "|| joins strings, as in standard SQL; for a logical OR write OR"
	}
	return errAt(diag.CodeSyntax, a, msg, hint)
}

// hasConcat reports whether the statement uses the || operator.
func hasConcat(src string, sig []token) bool {
	for _, t := range sig {
		if isPunctTok(src, t, "||") {
			return true
		}
	}
	return false
}
