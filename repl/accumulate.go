package repl

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser"
)

// accumulator gathers input lines until statements end with ';' outside
// quotes and comments (parser.Split decides, so the REPL agrees with the
// parser). Lines after the last complete statement stay pending.
type accumulator struct {
	pending string
}

// chunk is what one line completed: the statements to run, in order, and
// the source text they came from (for history).
type chunk struct {
	Statements []string
	Source     string
}

// Add appends a line. It returns the statements the line completed, if any.
func (a *accumulator) Add(line string) chunk {
	text := line
	if a.pending != "" {
		text = a.pending + "\n" + line
	}
	stmts, cut := complete(text)
	rest := text[cut:]
	if len(parser.Split(rest)) == 0 {
		// Only blanks, ';' or comments remain: nothing to continue.
		rest = ""
	}
	a.pending = strings.TrimLeft(rest, " \t\r\n")
	return chunk{Statements: stmts, Source: strings.TrimSpace(text[:cut])}
}

// complete splits text into the statements that are terminated by ';' and
// the offset just past the last such ';'.
func complete(text string) (stmts []string, cut int) {
	for _, p := range parser.Split(text) {
		end := p.Start + len(p.Text)
		after := strings.TrimLeft(text[end:], " \t\r\n")
		if !strings.HasPrefix(after, ";") {
			break // the last statement runs on; the rest stays pending
		}
		stmts = append(stmts, p.Text)
		cut = len(text) - len(after) + 1
	}
	return stmts, cut
}

// Pending is the text of the unfinished statement ("" when none).
func (a *accumulator) Pending() string { return a.pending }

// Empty reports whether no statement is being continued.
func (a *accumulator) Empty() bool { return a.pending == "" }

// Reset drops the unfinished statement (Ctrl-C).
func (a *accumulator) Reset() { a.pending = "" }
