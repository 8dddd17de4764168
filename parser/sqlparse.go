package parser

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/xwb1989/sqlparser"
)

// sqlErrRE matches sqlparser's errors: "<what> at position N[ near 'x']".
// N is Tokenizer.Position when the error was raised: one past the end of the
// token the parser could not take.
var sqlErrRE = regexp.MustCompile(`(?s)^(.*) at position (\d+)`)

// sqlFailure is a sqlparser error, positioned in the rewritten text.
type sqlFailure struct {
	what       string // "syntax error", "max nesting level reached", …
	start, end int    // the offending token in the rewritten text; start == len(text) at the end
}

// callSQLParser parses text with sqlparser. It never panics: sqlparser does
// on some inputs (Parse("/*!*/")), and a panic is reported as a failure at the
// start of the text.
func callSQLParser(text string) (stmt sqlparser.Statement, fail *sqlFailure) {
	defer func() {
		if p := recover(); p != nil {
			stmt, fail = nil, &sqlFailure{what: fmt.Sprint("the SQL parser failed: ", p)}
		}
	}()
	// The trailing blank separates "error at the last token" (its end is
	// len(text)) from "error at the end of input" (the end-of-input token
	// ends one byte later), which sqlparser's positions cannot tell apart.
	padded := text + " "
	st, err := sqlparser.Parse(padded)
	if err == nil {
		return st, nil
	}
	m := sqlErrRE.FindStringSubmatch(err.Error())
	if m == nil {
		return nil, &sqlFailure{what: err.Error()}
	}
	pos, _ := strconv.Atoi(m[2])
	start, end := tokenEndingAt(padded, pos-1)
	return nil, &sqlFailure{what: m[1], start: min(start, len(text)), end: min(end, len(text))}
}

// tokenEndingAt replays sqlparser's tokenizer over text and returns the first
// token that ends at or after end. Replaying the same tokenizer (rather than
// guessing from the message's "near" text, which is decoded and lowercased)
// finds the token exactly.
func tokenEndingAt(text string, end int) (s, e int) {
	defer func() {
		if recover() != nil {
			s, e = min(max(end, 0), len(text)), min(max(end, 0), len(text))
		}
	}()
	tkn := sqlparser.NewStringTokenizer(text)
	prev := 0
	// Every token but the last consumes a byte, so this bound is never hit;
	// it only guards against looping forever on a tokenizer surprise.
	for range len(text) + 2 {
		typ, _ := tkn.Scan()
		tokEnd := tkn.Position - 1
		if typ == 0 {
			return len(text), len(text)
		}
		start := prev
		for start < tokEnd && isBlank(text[start]) {
			start++
		}
		if tokEnd >= end {
			return start, tokEnd
		}
		prev = tokEnd
	}
	return len(text), len(text)
}
