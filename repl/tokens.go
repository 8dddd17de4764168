package repl

import "strings"

// tokKind classifies the tokens completion looks at.
type tokKind int

const (
	tIdent   tokKind = iota // a word: keyword or plain name
	tQuoted                 // `name` or "name"
	tString                 // 'text'
	tNumber                 // 12, 1.5
	tComment                // -- …, # …, /* … */
	tPunct                  // operators and punctuation
	tSpace                  // blanks
)

// token is one lexical token of (part of) a statement.
type token struct {
	kind       tokKind
	start, end int
	text       string
	open       bool // an unterminated quote or block comment (runs to the end)
}

// word is the token's name: lower-cased for identifiers, unquoted for
// quoted names.
func (t token) word() string {
	switch t.kind {
	case tIdent:
		return strings.ToLower(t.text)
	case tQuoted:
		return unquoteName(t.text)
	}
	return ""
}

// name is the token as a DynamoDB name: case kept, quotes removed.
func (t token) name() string {
	if t.kind == tQuoted {
		return unquoteName(t.text)
	}
	return t.text
}

func (t token) is(words ...string) bool {
	if t.kind != tIdent {
		return false
	}
	w := strings.ToLower(t.text)
	for _, x := range words {
		if w == x {
			return true
		}
	}
	return false
}

func (t token) punct(p string) bool { return t.kind == tPunct && t.text == p }

// lexSQL tokenizes the SQL ddbsql accepts, closely enough for completion
// and for history: names, quoted names ("…" and `…`), strings ('…'),
// comments (--, #, /* */) and punctuation. It never fails.
func lexSQL(s string) []token {
	var toks []token
	for i := 0; i < len(s); {
		start := i
		kind, end, open := scanToken(s, i)
		toks = append(toks, token{kind: kind, start: start, end: end, text: s[start:end], open: open})
		i = end
	}
	return toks
}

func scanToken(s string, i int) (tokKind, int, bool) {
	c := s[i]
	switch {
	case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		j := i
		for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
			j++
		}
		return tSpace, j, false
	case c == '`' || c == '\'' || c == '"':
		end, open := scanQuoted(s, i)
		if c == '\'' {
			return tString, end, open
		}
		return tQuoted, end, open
	case c == '#' || (c == '-' && strings.HasPrefix(s[i:], "--") && (i+2 == len(s) || strings.IndexByte(" \t\r\n", s[i+2]) >= 0)):
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return tComment, len(s), false
		}
		return tComment, i + j, false
	case c == '/' && strings.HasPrefix(s[i:], "/*"):
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return tComment, len(s), true
		}
		return tComment, i + 2 + j + 2, false
	case isNameByte(c) && !(c >= '0' && c <= '9'):
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		return tIdent, j, false
	case c >= '0' && c <= '9':
		j := i
		for j < len(s) && (isNameByte(s[j]) || s[j] == '.') {
			j++
		}
		return tNumber, j, false
	}
	for _, op := range []string{"<=>", "<=", ">=", "<>", "!=", "||", "&&"} {
		if strings.HasPrefix(s[i:], op) {
			return tPunct, i + len(op), false
		}
	}
	return tPunct, i + 1, false
}

// scanQuoted finds the end of a quoted token starting at s[i]; a doubled
// quote and (in strings only, as in the parser) a backslash escape stay
// inside.
func scanQuoted(s string, i int) (int, bool) {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\' && q == '\'':
			j++
		case s[j] == q:
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1, false
		}
	}
	return len(s), true
}

func isNameByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// significant drops blanks and comments.
func significant(toks []token) []token {
	out := toks[:0:0]
	for _, t := range toks {
		if t.kind != tSpace && t.kind != tComment {
			out = append(out, t)
		}
	}
	return out
}

// unquoteName strips the quotes from `name` or "name" (a doubled quote is
// one).
func unquoteName(s string) string {
	if len(s) >= 1 && (s[0] == '`' || s[0] == '"') {
		q := s[:1]
		s = s[1:]
		if strings.HasSuffix(s, q) {
			s = s[:len(s)-1]
		}
		return strings.ReplaceAll(s, q+q, q)
	}
	return s
}

// endsOpen reports whether s ends inside a quote or a block comment (a line
// typed next continues it).
func endsOpen(s string) bool {
	toks := lexSQL(s)
	return len(toks) > 0 && toks[len(toks)-1].open
}
