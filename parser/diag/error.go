package diag

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Error is a failure as ddbsql reports it: in which phase, of what kind
// (a stable Code), the message the user reads, optional advice, where in
// the input it is, and the underlying cause.
type Error struct {
	Phase Phase
	Code  Code
	Msg   string // what went wrong; never carries the code
	Hint  string // what to do about it; "" for none; several lines are several hints
	Pos   Pos
	Cause error // the underlying failure, if any (Unwrap)
}

// Pos locates an error in its input. The zero Pos is "nowhere".
//
// Two kinds of input are located differently:
//   - statement text (Source is ""): Line, Column and Offset point into
//     the whole text given to the parser, Column counts characters, and
//     LineText is the source line, shown under the message with a caret;
//   - a named source (Source is a file, or a command-line argument such as
//     `--key "a,b"`): Line and Column (bytes) are 0 when not known.
type Pos struct {
	Source   string
	Line     int // 1-based, 0 when not known
	Column   int // 1-based, 0 when not known
	Offset   int // byte offset into the statement text
	LineText string
}

// inText reports whether p is a position in statement text.
func (p Pos) inText() bool { return p.Source == "" && p.Line > 0 }

// Error renders the error in one of three ways, by its position:
//
//	statement text: "syntax error at line 1, column 8: msg", the line and a
//	                caret below it, then "hint: …"
//	named source:   "orders.jsonl:3: msg", then the hint on its own line
//	no position:    "msg", then the hint on its own line
//
// These are the texts each phase has always had (golden files and callers
// that embed an error's text pin them); a printer that labels hints itself
// uses Text and Hint instead.
func (e *Error) Error() string {
	text := e.Text()
	switch {
	case e.Hint == "":
		return text
	case e.Pos.inText():
		return text + "\nhint: " + e.Hint
	}
	return text + "\n" + e.Hint
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// Text is the error without its hint: the position, the message and, in
// statement text, the source line with a caret.
func (e *Error) Text() string { return e.text(true) }

// TextAtColumn is Text with a statement position reduced to its column
// ("syntax error at column 8: …"), for a caller that names the line
// itself (a script: "report.sql:12: "). Other positions are kept whole.
func (e *Error) TextAtColumn() string { return e.text(false) }

func (e *Error) text(withLine bool) string {
	p := e.Pos
	if p.inText() {
		var sb strings.Builder
		sb.WriteString(e.title())
		if withLine {
			sb.WriteString(" at line " + strconv.Itoa(p.Line) + ", column " + strconv.Itoa(p.Column) + ": ")
		} else {
			sb.WriteString(" at column " + strconv.Itoa(p.Column) + ": ")
		}
		sb.WriteString(e.Msg)
		writeExcerpt(&sb, p.LineText, p.Column)
		return sb.String()
	}
	loc := p.Source
	if loc != "" && p.Line > 0 {
		loc += ":" + strconv.Itoa(p.Line)
		if p.Column > 0 {
			loc += ":" + strconv.Itoa(p.Column)
		}
	}
	if loc == "" {
		return e.Msg
	}
	return loc + ": " + e.Msg
}

// title names a failure in statement text: a syntax error, or an error
// (valid SQL that ddbsql does not run, an empty statement).
func (e *Error) title() string {
	switch e.Code {
	case CodeSyntax, CodeUnquotedHash:
		return "syntax error"
	}
	return "error"
}

// Hintf sets e's hint from a format and returns e, so that the place that
// makes an error can add the advice: errorf(…).Hintf("qualify it, e.g. %s", x).
func (e *Error) Hintf(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// New returns an error of phase and code with message msg.
func New(phase Phase, code Code, msg string) *Error {
	return &Error{Phase: phase, Code: code, Msg: msg}
}

// As returns the outermost *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// CodeOf is the code of the outermost *Error in err's chain, "" if none.
func CodeOf(err error) Code {
	if e, ok := As(err); ok {
		return e.Code
	}
	return ""
}

// Has reports whether any *Error in err's chain has code: an execute
// error wraps the evaluate error that caused it (eval around set_index).
func Has(err error, code Code) bool {
	_, ok := Find(err, code)
	return ok
}

// Find returns the first *Error in err's chain with code.
func Find(err error, code Code) (*Error, bool) {
	for err != nil {
		e, ok := As(err)
		if !ok {
			return nil, false
		}
		if e.Code == code {
			return e, true
		}
		err = e.Cause
	}
	return nil, false
}
