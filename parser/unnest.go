package parser

import (
	"strconv"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// UnnestFunc and OrdinalityFunc are the calls UNNEST is rewritten to.
// sqlparser cannot read a function in FROM, so
//
//	UNNEST(x) [WITH ORDINALITY] [AS] u(value[, n])
//
// is handed over as the derived table
//
//	(SELECT ddbsql_unnest(x) AS value[, ddbsql_ordinality() AS n]) AS u
//
// with x left in place (its paths and names rewritten as anywhere else, so
// positions inside it stay exact); the planner turns it back into a
// lateral flatten of the FROM items before it.
const (
	UnnestFunc     = "ddbsql_unnest"
	OrdinalityFunc = "ddbsql_ordinality"
)

// unnest rewrites the UNNEST at toks[i] (a table position, followed by
// '('). The tokens of x are left to the rest of the walk; the alias after
// the closing parenthesis is consumed here, up to the returned skip range.
func (r *nameRewriter) unnest(i int) (skipFrom, skipTo int, err *diag.Error) {
	closeAt := r.matchingParen(i + 1)
	if closeAt < 0 {
		return 0, 0, nil // unbalanced: sqlparser reports it
	}
	if closeAt == i+2 {
		return 0, 0, errAt(diag.CodeSyntax, r.toks[i+1].end, "UNNEST needs the list or set to expand: UNNEST(t.tags)", "")
	}
	j := closeAt + 1
	ordinality := false
	readOrdinality := func() {
		if r.word(j) == "with" && r.word(j+1) == "ordinality" {
			ordinality = true
			j += 2
		}
	}
	readOrdinality()
	if r.word(j) == "as" {
		j++
	}
	if j >= len(r.toks) || (r.toks[j].kind != tkIdent && r.toks[j].kind != tkQuoted) || hardKeywords[r.word(j)] {
		at := r.toks[closeAt].end
		return 0, 0, errAt(diag.CodeSyntax, at, "UNNEST needs an alias naming its column: UNNEST(x) AS u(value)",
			"add WITH ORDINALITY and a second column for each element's position: UNNEST(x) WITH ORDINALITY AS u(value, n)")
	}
	alias := r.nameText(j)
	cols := []string{}
	last := j
	if r.isPunct(j+1, "(") {
		k := j + 2
		for {
			if k >= len(r.toks) || (r.toks[k].kind != tkIdent && r.toks[k].kind != tkQuoted) {
				return 0, 0, errAt(diag.CodeSyntax, r.tokStart(k), "expected a column name in UNNEST's alias "+alias+"(…)", "")
			}
			cols = append(cols, r.nameText(k))
			k++
			if r.isPunct(k, ",") {
				k++
				continue
			}
			if !r.isPunct(k, ")") {
				return 0, 0, errAt(diag.CodeSyntax, r.tokStart(k), "expected , or ) in UNNEST's alias "+alias+"(…)", "")
			}
			break
		}
		last = k
	}
	j = last + 1
	if !ordinality {
		readOrdinality()
		if ordinality {
			last = j - 1
		}
	}
	want := 1
	if ordinality {
		want = 2
	}
	if len(cols) == 0 && !ordinality {
		cols = []string{alias} // PostgreSQL: the alias names the column too
	}
	if len(cols) != want {
		hint := "UNNEST(x) AS u(value) names the element column"
		if ordinality {
			hint = "WITH ORDINALITY adds the position: UNNEST(x) WITH ORDINALITY AS u(value, n)"
		}
		return 0, 0, errAt(diag.CodeSyntax, r.toks[j-1].start, "UNNEST's alias "+alias+" needs "+plural(want, "column name")+", got "+strconv.Itoa(len(cols)), hint)
	}
	r.edits = append(r.edits, edit{start: r.toks[i].start, end: r.toks[i].end, text: "(SELECT " + UnnestFunc})
	text := " AS " + backticked(cols[0])
	if ordinality {
		text += ", " + OrdinalityFunc + "() AS " + backticked(cols[1])
	}
	text += ") AS " + backticked(alias)
	r.edits = append(r.edits, edit{start: r.toks[closeAt+1].start, end: r.toks[last].end, text: text})
	return closeAt + 1, last, nil
}

// matchingParen is the index of the ')' closing the '(' at toks[open], or -1.
func (r *nameRewriter) matchingParen(open int) int {
	depth := 0
	for j := open; j < len(r.toks); j++ {
		switch {
		case r.isPunct(j, "("):
			depth++
		case r.isPunct(j, ")"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// tokStart is where toks[k] starts, or the end of the input past the last.
func (r *nameRewriter) tokStart(k int) int {
	if k < len(r.toks) {
		return r.toks[k].start
	}
	return len(r.src)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
