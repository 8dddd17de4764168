package parser

import (
	"strings"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// errAt makes a parse error at a byte offset of the input; locate fills in
// the rest of its position.
func errAt(code diag.Code, offset int, msg, hint string) *diag.Error {
	return &diag.Error{Phase: diag.Parse, Code: code, Msg: msg, Hint: hint, Pos: diag.Pos{Offset: offset}}
}

// locate fills in e's Line, Column and LineText from its Offset. An offset
// outside input is clamped: positions must always be usable by the caller.
func locate(e *diag.Error, input string) *diag.Error {
	offset := max(0, min(e.Pos.Offset, len(input)))
	lineStart := strings.LastIndexByte(input[:offset], '\n') + 1
	lineEnd := strings.IndexByte(input[offset:], '\n')
	if lineEnd < 0 {
		lineEnd = len(input)
	} else {
		lineEnd += offset
	}
	e.Pos = diag.Pos{
		Offset:   offset,
		Line:     strings.Count(input[:lineStart], "\n") + 1,
		Column:   utf8.RuneCountInString(input[lineStart:offset]) + 1,
		LineText: strings.TrimSuffix(input[lineStart:lineEnd], "\r"),
	}
	return e
}

// quoteSnippet renders source text for a message: 'FORM'. Long text is cut so
// a message stays one line.
func quoteSnippet(s string) string {
	const maxLen = 40
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i] + "…"
	}
	if utf8.RuneCountInString(s) > maxLen {
		s = string([]rune(s)[:maxLen]) + "…"
	}
	return "'" + s + "'"
}
