package parser

import (
	"strings"
	"unicode/utf8"
)

// tokKind classifies what the lexer saw. The lexer mirrors the token
// boundaries of sqlparser's tokenizer, so that the rewrites made on our tokens
// land on the same tokens sqlparser will see; it never fails, it marks.
type tokKind uint8

const (
	tkIdent   tokKind = iota // plain name or keyword: [A-Za-z_@][A-Za-z0-9_@]*
	tkQuoted                 // `name` or "name", a doubled delimiter standing for itself
	tkString                 // '…', x'…', b'…' (only single quotes make strings)
	tkNumber                 // 12, 1.5e3, .5, 0x1F
	tkParam                  // ?, :name, ::name (bind variables)
	tkDollar                 // $1 (PostgreSQL-style positional parameter)
	tkPunct                  // operators and punctuation, including ; [ ]
	tkComment                // -- …, # …, // …, /* … */ (including /*! … */)
	tkBad                    // a byte sqlparser cannot tokenize, or a number run into a letter
)

type token struct {
	kind       tokKind
	start, end int  // byte offsets into the lexed source
	open       bool // string, quoted name or block comment without its closing delimiter
	glued      bool // a '#' or '--' comment glued to the name or value before it
}

// lex tokenizes src[from:to]. Offsets in the tokens are offsets into src, so
// that a piece of a larger script keeps its absolute positions.
func lex(src string, from, to int) []token {
	toks, _ := lexAtMost(src, from, to, -1)
	return toks
}

// lexAtMost is lex that stops after limit tokens (no limit when negative);
// complete says whether it reached the end.
func lexAtMost(src string, from, to, limit int) (toks []token, complete bool) {
	complete = eachToken(src, from, to, func(t token) bool {
		if len(toks) == limit {
			return false
		}
		toks = append(toks, t)
		return true
	})
	return toks, complete
}

// eachToken calls fn on each token of src[from:to] in order until fn
// returns false, and reports whether it went through them all. It keeps no
// tokens itself, so a pass over a whole script costs no memory.
func eachToken(src string, from, to int, fn func(token) bool) bool {
	i := from
	for i < to {
		c := src[i]
		if isBlank(c) {
			i++
			continue
		}
		t := scanToken(src, i, to)
		if !fn(t) {
			return false
		}
		i = t.end
	}
	return true
}

// scanToken scans the token that starts at src[i] (not a blank).
func scanToken(src string, i, to int) token {
	c := src[i]
	next := byte(0)
	if i+1 < to {
		next = src[i+1]
	}
	switch {
	case (c == 'x' || c == 'X' || c == 'b' || c == 'B') && next == '\'':
		// sqlparser's hex and bit literals; an unterminated one is a string
		// that runs to the end, like any other.
		t := scanQuoted(src, i+1, to, '\'', tkString)
		t.start = i
		return t
	case isNameStart(c):
		// sqlparser lets a system variable (@@x) run on through . ' " and `.
		sysVar := c == '@' && next == '@'
		j := i + 1
		for j < to && (isNameChar(src[j]) || sysVar && strings.IndexByte(".'\"`", src[j]) >= 0 || isInnerDollar(src, j, to)) {
			j++
		}
		return token{kind: tkIdent, start: i, end: j}
	case isDigit(c) || c == '.' && isDigit(next):
		return scanNumber(src, i, to)
	case c == '\'':
		return scanQuoted(src, i, to, c, tkString)
	case c == '`' || c == '"':
		// PartiQL and standard SQL read "x" as a name, MySQL as a string;
		// ddbsql follows PartiQL, so both delimiters make quoted names.
		return scanQuoted(src, i, to, c, tkQuoted)
	case c == '#':
		// After a name character, a closing quote or ']', a '#' is far more
		// likely part of a key (GSI1#PK, `GSI1`#PK) than a comment.
		t := lineComment(src, i, to)
		t.glued = i > 0 && (isNameChar(src[i-1]) || strings.IndexByte("`'\"]", src[i-1]) >= 0)
		return t
	case c == '-' && next == '-':
		// MySQL wants a blank after "--"; sqlparser does not, so a--b
		// silently loses "--b…" there. Glued on both sides it is a trap.
		t := lineComment(src, i, to)
		t.glued = i > 0 && isNameChar(src[i-1]) && i+2 < to && !isBlank(src[i+2]) && src[i+2] != '-'
		return t
	case c == '/' && next == '/':
		return lineComment(src, i, to)
	case c == '/' && next == '*':
		return blockComment(src, i, to)
	case c == '?':
		return token{kind: tkParam, start: i, end: i + 1}
	case c == ':':
		return scanBindVar(src, i, to)
	case c == '$' && isDigit(next):
		j := i + 1
		for j < to && isDigit(src[j]) {
			j++
		}
		return token{kind: tkDollar, start: i, end: j}
	case c >= utf8.RuneSelf:
		_, n := utf8.DecodeRuneInString(src[i:to])
		return token{kind: tkBad, start: i, end: i + n}
	}
	if n := punctLen(src, i, to); n > 0 {
		return token{kind: tkPunct, start: i, end: i + n}
	}
	return token{kind: tkBad, start: i, end: i + 1}
}

// punctLen is the length of the operator at src[i], longest match first, or 0.
func punctLen(src string, i, to int) int {
	for _, op := range [...]string{"<=>", "->>", "<=", ">=", "<>", "!=", "<<", ">>", "&&", "||", "->"} {
		if i+len(op) <= to && src[i:i+len(op)] == op {
			return len(op)
		}
	}
	switch src[i] {
	case '=', ',', ';', '(', ')', '+', '*', '%', '^', '~', '&', '|', '.', '/', '-', '<', '>', '!', '[', ']':
		return 1
	}
	return 0
}

// scanQuoted scans a delimited token starting at the opening delimiter.
// A doubled delimiter stands for itself; in strings a backslash escapes the
// next byte (sqlparser's rule), in quoted names it does not (standard SQL).
func scanQuoted(src string, i, to int, delim byte, kind tokKind) token {
	j := i + 1
	for j < to {
		c := src[j]
		switch {
		case c == '\\' && kind == tkString:
			j += 2
			continue
		case c == delim:
			if j+1 < to && src[j+1] == delim {
				j += 2
				continue
			}
			return token{kind: kind, start: i, end: j + 1}
		}
		j++
	}
	return token{kind: kind, start: i, end: to, open: true}
}

// scanNumber follows sqlparser's scanNumber: hex 0x…, digits, fraction,
// exponent. A letter right after the number is a lexical error there, so the
// whole run becomes one bad token here.
func scanNumber(src string, i, to int) token {
	j := i
	digits := func(hex bool) {
		for j < to && (isDigit(src[j]) || hex && isHexDigit(src[j])) {
			j++
		}
	}
	switch {
	case src[j] == '.':
		j++
		digits(false)
	case src[j] == '0' && j+1 < to && (src[j+1] == 'x' || src[j+1] == 'X'):
		j += 2
		digits(true)
		return finishNumber(src, i, j, to)
	default:
		digits(false)
		if j < to && src[j] == '.' {
			j++
			digits(false)
		}
	}
	if j < to && (src[j] == 'e' || src[j] == 'E') {
		j++
		if j < to && (src[j] == '+' || src[j] == '-') {
			j++
		}
		digits(false)
	}
	return finishNumber(src, i, j, to)
}

func finishNumber(src string, i, j, to int) token {
	if j < to && isNameStart(src[j]) {
		for j < to && isNameChar(src[j]) {
			j++
		}
		return token{kind: tkBad, start: i, end: j}
	}
	return token{kind: tkNumber, start: i, end: j}
}

// scanBindVar scans :name or ::name (sqlparser allows dots in the name).
func scanBindVar(src string, i, to int) token {
	j := i + 1
	if j < to && src[j] == ':' {
		j++
	}
	if j >= to || !isNameStart(src[j]) {
		return token{kind: tkBad, start: i, end: j}
	}
	for j < to && (isNameChar(src[j]) || src[j] == '.') {
		j++
	}
	return token{kind: tkParam, start: i, end: j}
}

// lineComment runs to the end of the line; the newline is not part of it.
func lineComment(src string, i, to int) token {
	j := i
	for j < to && src[j] != '\n' {
		j++
	}
	return token{kind: tkComment, start: i, end: j}
}

func blockComment(src string, i, to int) token {
	for j := i + 2; j+1 < to; j++ {
		if src[j] == '*' && src[j+1] == '/' {
			return token{kind: tkComment, start: i, end: j + 2}
		}
	}
	return token{kind: tkComment, start: i, end: to, open: true}
}

// isBlank is sqlparser's notion of whitespace; anything else is a token.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isNameStart and isNameChar follow sqlparser: '@' counts as a letter.
func isNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '@'
}

func isNameChar(c byte) bool { return isNameStart(c) || isDigit(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isInnerDollar reports whether src[j] is a '$' inside a name, between name
// characters and before a letter or _ (orders$changes, as MySQL lexes it);
// sqlparser cannot lex it, so such a name is handed over in backticks
// (nameRewriter.name). A '$' before a digit stays a $1 parameter.
func isInnerDollar(src string, j, to int) bool {
	return src[j] == '$' && j > 0 && isNameChar(src[j-1]) && j+1 < to && isNameStart(src[j+1]) && src[j+1] != '@'
}
