package parser

import (
	"fmt"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// MaxStatementTokens bounds the tokens (names, literals, operators) of one
// statement, and so the memory parsing it takes: a statement is held as
// tokens of some 32 bytes each, and megabytes of single-character operators
// would take gigabytes. One literal is one token, however long: a 10 MB
// string is fine, as is an IN list of half a million values.
const MaxStatementTokens = 1_000_000

// Parse parses every statement of input. On the first bad statement it
// returns the statements before it and a *diag.Error positioned in input.
// Empty input, or input holding only blanks, ';' and comments, gives no
// statements and no error.
func Parse(input string) (stmts []Statement, err error) {
	for _, p := range Split(input) {
		st, perr := parsePiece(input, p)
		if perr != nil {
			return stmts, locate(perr, input)
		}
		stmts = append(stmts, st)
	}
	return stmts, nil
}

// ParseOne parses input that must hold exactly one statement (a trailing
// ';' is fine). No statement is an error with code "empty".
func ParseOne(input string) (Statement, error) {
	stmts, err := Parse(input)
	switch {
	case err != nil:
		return nil, err
	case len(stmts) == 0:
		return nil, locate(errAt(diag.CodeEmpty, len(input), "no statement to run", ""), input)
	case len(stmts) > 1:
		return nil, locate(errAt(diag.CodeSyntax, stmts[1].Span().Start, "expected one statement, found another",
			"run one statement at a time here"), input)
	}
	return stmts[0], nil
}

// parsePiece parses one statement cut out by Split (never blank). A panic
// in here is a bug; it becomes an error rather than taking the caller down.
func parsePiece(src string, p Piece) (st Statement, err *diag.Error) {
	defer func() {
		if r := recover(); r != nil {
			st, err = nil, errAt(diag.CodeSyntax, p.Start, fmt.Sprint("internal parser error: ", r), "please report this statement")
		}
	}()
	toks, complete := lexAtMost(src, p.Start, p.Start+len(p.Text), MaxStatementTokens)
	if !complete {
		return nil, errAt(diag.CodeSyntax, toks[len(toks)-1].end, fmt.Sprintf("statement too long (more than %d tokens)", MaxStatementTokens),
			"split it into several statements; a long IN list can be several shorter ones")
	}
	s := newStmt(src, toks)
	if len(s.sig) == 0 {
		return nil, errAt(diag.CodeEmpty, p.Start, "empty statement", "")
	}
	// A statement ddbsql does not run is reported as such even if its
	// text has other problems: that is the more useful message.
	if err := s.kindError(0); err != nil {
		return nil, err
	}
	if err := checkTokens(src, toks); err != nil {
		return nil, err
	}
	switch w := s.word(0); {
	case w == "select" || w == "with" || s.isPunct(0, "("):
		return parseQuery(src, toks)
	case w == "explain":
		return s.explain()
	case w == "describe" || w == "desc":
		return s.describe()
	case w == "show":
		return s.show()
	case writeVerbs[w]:
		return s.write(0)
	}
	return nil, s.unexpected(0, "a statement starts with SELECT, INSERT, REPLACE, UPDATE, DELETE, EXPLAIN, DESCRIBE or SHOW")
}

// stmt is one statement's tokens: all of them, and the significant ones.
type stmt struct {
	src  string
	toks []token
	sig  []token
}

func newStmt(src string, toks []token) *stmt {
	return &stmt{src: src, toks: toks, sig: significant(toks)}
}

func significant(toks []token) []token {
	var out []token
	for _, t := range toks {
		if t.kind != tkComment {
			out = append(out, t)
		}
	}
	return out
}

func (s *stmt) text(i int) string { return s.src[s.sig[i].start:s.sig[i].end] }

func (s *stmt) word(i int) string {
	if i < 0 || i >= len(s.sig) || s.sig[i].kind != tkIdent {
		return ""
	}
	return lower(s.text(i))
}

func (s *stmt) isPunct(i int, p string) bool {
	return i >= 0 && i < len(s.sig) && s.sig[i].kind == tkPunct && s.text(i) == p
}

// span is the source range from significant token i to the last one.
func (s *stmt) span(i int) Span { return Span{s.sig[i].start, s.sig[len(s.sig)-1].end} }

// from returns all tokens (comments included) from significant token i on.
func (s *stmt) from(i int) []token {
	for k, t := range s.toks {
		if t.start >= s.sig[i].start {
			return s.toks[k:]
		}
	}
	return nil
}

// unexpected reports significant token i as out of place.
func (s *stmt) unexpected(i int, hint string) *diag.Error {
	t := s.sig[i]
	if h := tokenHint(s.src, t.start, t.end); h != "" {
		hint = h
	}
	return errAt(diag.CodeSyntax, t.start, "unexpected "+quoteSnippet(s.text(i)), hint)
}

// missing reports that the statement ended where more was needed.
func (s *stmt) missing(what string) *diag.Error {
	return errAt(diag.CodeSyntax, s.sig[len(s.sig)-1].end, "unexpected end of statement: "+what, "")
}
