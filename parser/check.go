package parser

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// checkTokens reports the first lexical problem of a statement, in source
// order: unterminated quotes and comments, the '#' trap, bytes sqlparser
// cannot read, and query parameters (ddbsql has no way to bind them). Doing
// this ourselves gives a precise message where sqlparser would say only
// "syntax error" — or, for '#', say nothing and drop the rest of the line.
func checkTokens(src string, toks []token) *diag.Error {
	for _, t := range toks {
		text := src[t.start:t.end]
		switch {
		case t.open:
			return unterminated(src, t)
		case t.glued && text[0] == '#':
			return hashTrap(src, t.start)
		case t.glued:
			return dashTrap(src, t.start)
		case t.kind == tkQuoted && len(text) == 2:
			return errAt(diag.CodeSyntax, t.start, "empty name "+text, "a quoted name needs at least one character; strings take single quotes: ''")
		case t.kind == tkBad:
			return badToken(src, t)
		case t.kind == tkDollar:
			return errAt(diag.CodeUnsupported, t.start,
				"positional parameters such as "+text+" are not supported", "write the value into the statement")
		case t.kind == tkParam:
			return errAt(diag.CodeUnsupported, t.start,
				"query parameters such as "+text+" are not supported", "write the value into the statement")
		}
	}
	return nil
}

func unterminated(src string, t token) *diag.Error {
	switch t.kind {
	case tkQuoted:
		if src[t.start] == '"' {
			return errAt(diag.CodeSyntax, t.start, "unterminated quoted name",
				`close the name with a double quote ("); write "" for a double quote inside it. A string takes single quotes: 'text'`)
		}
		return errAt(diag.CodeSyntax, t.start, "unterminated quoted name", "close the name with a backtick (`); write `` for a backtick inside it")
	case tkComment:
		return errAt(diag.CodeSyntax, t.start, "unterminated comment", "close the comment with */")
	}
	return errAt(diag.CodeSyntax, t.start, "unterminated string", "close the string with a matching quote; write '' for a quote inside it")
}

// hashTrap reports a '#' glued to what precedes it, e.g. GSI1#PK. MySQL
// syntax (and so sqlparser) starts a comment at '#', which would silently
// turn WHERE GSI1#PK = 'x' into WHERE GSI1. The error points at the whole
// name or value.
func hashTrap(src string, hash int) *diag.Error {
	end := hash + 1
	for end < len(src) && (isNameChar(src[end]) || src[end] == '#') {
		end++
	}
	rest := src[hash:end]
	if q := src[hash-1]; q == '`' || q == '\'' || q == '"' {
		// `GSI1`#PK or 'DOC'#1: the '#' belongs inside the quotes.
		lineStart := strings.LastIndexByte(src[:hash-1], '\n') + 1
		if open := strings.LastIndexByte(src[lineStart:hash-1], q); open >= 0 {
			open += lineStart
			whole := src[open+1:hash-1] + rest
			return errAt(diag.CodeUnquotedHash, open,
				"'#' after "+src[open:hash]+" starts a comment, so the rest of the line would be ignored",
				"put the '#' inside the quotes: "+string(q)+whole+string(q))
		}
	}
	start := hash
	for start > 0 && isNameChar(src[start-1]) {
		start--
	}
	name := src[start:end]
	return errAt(diag.CodeUnquotedHash, start,
		"'#' starts a comment, so "+name+" would be cut at '#' and the rest of the line ignored",
		"write \""+name+"\" or `"+name+"` if it is a name, or '"+name+"' in single quotes if it is a value")
}

// dashTrap reports "--" glued between name characters, e.g. ORDER--2024:
// sqlparser starts a comment there (MySQL would not) and drops the rest.
func dashTrap(src string, dash int) *diag.Error {
	start := dash
	for start > 0 && isNameChar(src[start-1]) {
		start--
	}
	end := dash + 2
	for end < len(src) && (isNameChar(src[end]) || src[end] == '-') {
		end++
	}
	text := src[start:end]
	return errAt(diag.CodeSyntax, start,
		"'--' starts a comment, so "+text+" would be cut at '--' and the rest of the line ignored",
		"write `"+text+"` in backticks if it is a name, '"+text+"' in single quotes if it is a value, or put a blank before -- for a comment")
}

// badToken explains a byte sqlparser cannot tokenize.
func badToken(src string, t token) *diag.Error {
	text := src[t.start:t.end]
	r, _ := utf8.DecodeRuneInString(text)
	switch {
	case isDigit(text[0]) || text[0] == '.':
		return errAt(diag.CodeSyntax, t.start, "unexpected "+quoteSnippet(text)+": a name cannot start with a digit",
			"write `"+text+"` in backticks if it is a name")
	case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsNumber(r)):
		word := wordAround(src, t.start)
		return errAt(diag.CodeSyntax, t.start, "unexpected character "+quoteSnippet(string(r)),
			"names with characters other than ASCII letters, digits and _ must be written in backticks: `"+word+"`")
	case text[0] == '$':
		return errAt(diag.CodeSyntax, t.start, "unexpected character '$'", "write a name containing $ in backticks")
	}
	return errAt(diag.CodeSyntax, t.start, "unexpected character "+describeRune(text), "")
}

// wordAround is the run of name characters (ASCII or not) around offset i.
func wordAround(src string, i int) string {
	isWord := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }
	start := i
	for start > 0 {
		r, n := utf8.DecodeLastRuneInString(src[:start])
		if !isWord(r) {
			break
		}
		start -= n
	}
	end := i
	for end < len(src) {
		r, n := utf8.DecodeRuneInString(src[end:])
		if !isWord(r) {
			break
		}
		end += n
	}
	return src[start:end]
}

// describeRune names a character readably, also when it is invisible.
func describeRune(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && n <= 1:
		return fmt.Sprintf("byte 0x%02X (not UTF-8)", s[0])
	case !unicode.IsPrint(r):
		return fmt.Sprintf("U+%04X", r)
	}
	return quoteSnippet(string(r))
}
