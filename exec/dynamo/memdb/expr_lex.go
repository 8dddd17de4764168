package memdb

import (
	"fmt"
	"strings"
)

// Tokenizer for DynamoDB expressions (key condition, filter, condition,
// projection).

type tokKind uint8

const (
	tEOF     tokKind = iota
	tIdent           // attribute name, function name or keyword
	tName            // #placeholder
	tValue           // :placeholder
	tNumber          // list index digits
	tSymbol          // ( ) [ ] , . = <> < <= > >=
	tIllegal         // a character no token starts with
)

type token struct {
	kind tokKind
	text string
	pos  int // byte offset in the expression
}

// is reports whether the token is the keyword or symbol s (keywords are
// case-insensitive).
func (t token) is(s string) bool {
	switch t.kind {
	case tSymbol:
		return t.text == s
	case tIdent:
		return strings.EqualFold(t.text, s)
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isWord(c byte) bool   { return isLetter(c) || isDigit(c) || c == '_' }

func tokenize(src string) []token {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
			continue
		case isLetter(c) || c == '_':
			j := i + 1
			for j < len(src) && isWord(src[j]) {
				j++
			}
			toks = append(toks, token{tIdent, src[i:j], i})
			i = j
		case isDigit(c):
			j := i + 1
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			toks = append(toks, token{tNumber, src[i:j], i})
			i = j
		case c == '#' || c == ':':
			j := i + 1
			for j < len(src) && isWord(src[j]) {
				j++
			}
			kind := tName
			if c == ':' {
				kind = tValue
			}
			if j == i+1 {
				kind = tIllegal
			}
			toks = append(toks, token{kind, src[i:j], i})
			i = j
		case strings.ContainsRune("()[],.=", rune(c)):
			toks = append(toks, token{tSymbol, src[i : i+1], i})
			i++
		case c == '<' || c == '>':
			j := i + 1
			if j < len(src) && (src[j] == '=' || (c == '<' && src[j] == '>')) {
				j++
			}
			toks = append(toks, token{tSymbol, src[i:j], i})
			i = j
		default:
			toks = append(toks, token{tIllegal, src[i : i+1], i})
			i++
		}
	}
	return append(toks, token{tEOF, "", len(src)})
}

// syntaxError is DynamoDB's message for a token it cannot parse:
// `Syntax error; token: "x", near: "a x b"`.
func syntaxError(toks []token, i int) error {
	t := toks[i]
	tok := "<EOF>"
	if t.kind != tEOF {
		tok = t.text
	}
	var near []string
	for j := max(0, i-1); j <= i+1 && j < len(toks); j++ {
		if toks[j].kind != tEOF {
			near = append(near, toks[j].text)
		}
	}
	return fmt.Errorf("Syntax error; token: %q, near: %q", tok, strings.Join(near, " "))
}
