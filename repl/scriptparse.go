package repl

import (
	"sort"
	"strings"

	"github.com/ddbsql/ddbsql/parser"
)

// scriptItem is one step of a script, in the order it runs: a statement, a
// backslash meta-command, or a line written for another tool (.tables,
// quit) that gets a hint instead of a silent parse of the next lines.
type scriptItem struct {
	Line    int    // 1-based line of the item's first line in its script
	SQL     string // a statement's text as written, without its ';'
	Meta    string // a \command line, trimmed
	Foreign string // a line for another tool, trimmed
	order   int    // byte offset at which the item runs (see parseScript)
}

// parseScript cuts a script into its items and parses every statement
// before anything runs, so a syntax error late in a file sends no request.
//
// A meta-command is a line whose first non-blank character is '\' and that
// does not continue a quote or a block comment; it may come between the
// lines of an unfinished statement, which then goes on after it (psql
// does the same). A statement runs at its ';', so a meta-command inside it
// runs first. Lines for other tools count only between statements, where
// SQL could not continue them anyway: `exit` inside a SELECT is a column.
//
// Meta-command and foreign lines are blanked (spaces, line breaks kept)
// before the parser sees the text, so parse errors and statement lines
// keep their places in the file.
func parseScript(text string) ([]scriptItem, error) {
	blanked := []byte(text)
	var items []scriptItem
	lines := newLineIndex(text)
	lex := scriptLexer{src: text}
	for lo := 0; lo < len(text); {
		hi := strings.IndexByte(text[lo:], '\n')
		if hi < 0 {
			hi = len(text)
		} else {
			hi += lo
		}
		line := strings.TrimSpace(text[lo:hi])
		if (isMetaLine(line) || foreignHint(line) != "") && !lex.advance(lo) {
			switch {
			case isMetaLine(line):
				items = append(items, scriptItem{Line: lines.lineOf(lo), Meta: line, order: lo})
				blank(blanked[lo:hi])
				lex.skip(hi)
			case !lex.code:
				items = append(items, scriptItem{Line: lines.lineOf(lo), Foreign: line, order: lo})
				blank(blanked[lo:hi])
				lex.skip(hi)
			}
		}
		lo = hi + 1
	}
	src := string(blanked)
	stmts, err := parser.Parse(src)
	if err != nil {
		return nil, err
	}
	for _, st := range stmts {
		sp := st.Span()
		items = append(items, scriptItem{Line: lines.lineOf(sp.Start), SQL: src[sp.Start:sp.End], order: runsAt(src, sp.End)})
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].order < items[j].order })
	return items, nil
}

// runsAt is where a statement ending at end runs: at its ';' (blanks
// before it skipped), or at the end of the script when it has none.
func runsAt(src string, end int) int {
	i := end
	for i < len(src) && strings.IndexByte(" \t\r\n", src[i]) >= 0 {
		i++
	}
	if i < len(src) && src[i] == ';' {
		return i
	}
	return len(src)
}

// scriptLexer walks a script's tokens once, front to back, as far as the
// line being looked at, so that cutting a script costs the same whatever
// its lines hold (a long string full of lines starting with '\' included).
type scriptLexer struct {
	src  string
	pos  int  // tokens before pos have been seen
	code bool // SQL since the last ';' (a statement is unfinished)
	// held is a token that starts before the line looked at and ends after
	// it (a quote or block comment over several lines), kept so it is
	// scanned once.
	held *heldToken
}

type heldToken struct {
	kind tokKind
	end  int
	semi bool
}

// advance moves to offset to, a line start, and reports whether it is
// inside a token (a quoted text or a block comment), where a line is not a
// command.
func (l *scriptLexer) advance(to int) (inside bool) {
	for l.pos < to {
		if l.held == nil {
			kind, end, _ := scanToken(l.src, l.pos)
			if kind == tSpace && end > to {
				end = to // blanks run on into the line; they end at it
			}
			l.held = &heldToken{kind: kind, end: end, semi: kind == tPunct && l.src[l.pos] == ';'}
		}
		if l.held.end > to {
			return true
		}
		switch t := l.held; {
		case t.semi:
			l.code = false
		case t.kind != tSpace && t.kind != tComment:
			l.code = true
		}
		l.pos, l.held = l.held.end, nil
	}
	return false
}

// skip passes over a command line (blanked for the parser).
func (l *scriptLexer) skip(to int) { l.pos, l.held = to, nil }

func blank(b []byte) {
	for i := range b {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
}

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int // offsets at which lines start

func newLineIndex(text string) lineIndex {
	idx := lineIndex{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (l lineIndex) lineOf(offset int) int {
	return sort.Search(len(l), func(i int) bool { return l[i] > offset })
}
