package parser

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error codes. They are stable: callers and tests switch on them.
const (
	CodeSyntax       = "syntax"        // the text is not valid ddbsql SQL
	CodeUnquotedHash = "unquoted_hash" // a '#' inside a name would start a MySQL comment
	CodeUnsupported  = "unsupported"   // valid SQL that ddbsql does not run
	CodeEmpty        = "empty"         // no statement where one is required (ParseOne)
)

// Error is a parse error with its position in the whole input given to Parse.
type Error struct {
	Code     string
	Msg      string
	Offset   int    // byte offset into the input, 0 ≤ Offset ≤ len(input)
	Line     int    // 1-based
	Column   int    // 1-based, counted in characters (runes), not bytes
	LineText string // the source line holding Offset, without its line break
	Hint     string // optional advice, e.g. how to quote a name
}

// Error renders the message, the offending line and a caret under the column,
// then the hint on its own line when there is one.
func (e *Error) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s at line %d, column %d: %s", e.title(), e.Line, e.Column, e.Msg)
	if e.LineText != "" || e.Column > 1 {
		text, col := window(e.LineText, e.Column)
		sb.WriteString("\n  ")
		sb.WriteString(text)
		sb.WriteString("\n  ")
		sb.WriteString(caretPad(text, col))
		sb.WriteString("^")
	}
	if e.Hint != "" {
		sb.WriteString("\nhint: ")
		sb.WriteString(e.Hint)
	}
	return sb.String()
}

func (e *Error) title() string {
	switch e.Code {
	case CodeSyntax, CodeUnquotedHash:
		return "syntax error"
	}
	return "error"
}

// maxShownLine bounds the source line printed under the message, so that an
// error in a one-line, megabyte-long script stays readable.
const maxShownLine = 100

// window cuts a long line to maxShownLine characters around col and returns
// the cut text and the column within it.
func window(line string, col int) (string, int) {
	runes := []rune(line)
	if len(runes) <= maxShownLine {
		return line, col
	}
	start := col - 1 - maxShownLine/2
	if start < 0 {
		start = 0
	}
	end := start + maxShownLine
	if end > len(runes) {
		end = len(runes)
		start = max(0, end-maxShownLine)
	}
	prefix, suffix := "", ""
	if start > 0 {
		prefix = "…"
	}
	if end < len(runes) {
		suffix = "…"
	}
	shift := start - utf8.RuneCountInString(prefix)
	return prefix + string(runes[start:end]) + suffix, col - shift
}

// caretPad is the indentation that puts a caret under column col of text:
// tabs are copied so the caret lines up in a terminal, other runes become spaces.
func caretPad(text string, col int) string {
	var sb strings.Builder
	n := 0
	for _, r := range text {
		if n >= col-1 {
			break
		}
		if r == '\t' {
			sb.WriteByte('\t')
		} else {
			sb.WriteByte(' ')
		}
		n++
	}
	for ; n < col-1; n++ {
		sb.WriteByte(' ')
	}
	return sb.String()
}

// errAt makes an Error at a byte offset of the input; locate fills in the rest.
func errAt(code string, offset int, msg, hint string) *Error {
	return &Error{Code: code, Offset: offset, Msg: msg, Hint: hint}
}

// locate fills in Line, Column and LineText from Offset. An offset outside
// input is clamped: positions must always be usable by the caller.
func (e *Error) locate(input string) *Error {
	offset := max(0, min(e.Offset, len(input)))
	lineStart := strings.LastIndexByte(input[:offset], '\n') + 1
	lineEnd := strings.IndexByte(input[offset:], '\n')
	if lineEnd < 0 {
		lineEnd = len(input)
	} else {
		lineEnd += offset
	}
	e.Offset = offset
	e.Line = strings.Count(input[:lineStart], "\n") + 1
	e.Column = utf8.RuneCountInString(input[lineStart:offset]) + 1
	e.LineText = strings.TrimSuffix(input[lineStart:lineEnd], "\r")
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
