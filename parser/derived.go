package parser

import (
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// A derived table, FROM (SELECT …) AS d, is parsed as a query of its own
// (so quoting and document paths work inside it as anywhere) and handed to
// sqlparser as a table with a synthetic name: the source text of the
// parenthesized query is overwritten, byte for byte, with that backticked
// name padded with blanks, so every offset of the SELECT around it stays
// the same. The synthetic name starts with more '$' than any run of '$' in
// the statement, so it cannot be the name of a table the statement uses.

// parseMember parses one SELECT whose tokens are toks, with its derived
// tables.
func parseMember(src string, toks []token, depth int) (*Select, *diag.Error) {
	q := newSeq(src, toks, depth)
	spans := q.derivedSpans()
	if len(spans) == 0 {
		return parseSelect(src, toks)
	}
	start, end := q.sig[0].start, q.sig[len(q.sig)-1].end
	prefix := derivedPrefix(src[start:end])
	buf := []byte(src)
	var derived []CTE
	for n, sp := range spans {
		body, err := parseQueryAt(src, q.sub(sp[0]+1, sp[1]-1), depth+1)
		if err != nil {
			return nil, err
		}
		open, close := q.sig[sp[0]], q.sig[sp[1]]
		name := prefix + strconv.Itoa(n+1)
		text := backticked(name)
		if len(text) > close.end-open.start {
			return nil, errAt(diag.CodeUnsupported, open.start, "this derived table is too short to be named", "write it in a WITH clause")
		}
		copy(buf[open.start:], text)
		blank(buf, open.start+len(text), close.end)
		cte := CTE{Name: name, Body: body, Derived: true, NameLoc: Span{open.start, close.end}, Loc: Span{open.start, close.end}}
		if err := q.derivedColumns(sp[1], &cte, buf); err != nil {
			return nil, err
		}
		derived = append(derived, cte)
	}
	rewritten := string(buf)
	sel, err := parseSelect(rewritten, lex(rewritten, start, end))
	if err != nil {
		return nil, err
	}
	// The span is the statement as written: a blanked column list may have
	// been its last tokens.
	sel.Text, sel.Loc = src[start:end], Span{start, end}
	sel.Derived = derived
	return sel, nil
}

// derivedColumns reads the column list of the derived table whose closing
// parenthesis is sig[close], as in (SELECT …) AS d(a, b), into cte and
// blanks it out of buf: sqlparser reads no column lists, and the planner
// renames the columns as it does a WITH query's.
func (q *tokSeq) derivedColumns(close int, cte *CTE, buf []byte) *diag.Error {
	k := close + 1
	if q.word(k) == "as" {
		k++
	}
	alias, ok := q.name(k)
	if !ok || !q.punct(k+1, "(") {
		return nil
	}
	open, end := k+1, q.match[k+1]
	if end < 0 {
		return errAt(diag.CodeSyntax, q.sig[open].start, "the column list of "+quoteSnippet(alias)+" has no closing parenthesis", "")
	}
	var cols []string
	for c := open + 1; c < end; c += 2 {
		col, ok := q.name(c)
		if ok && c+1 < end && !q.punct(c+1, ",") {
			c++ // the name is fine, what follows it is not
			ok = false
		}
		if !ok {
			return errAt(diag.CodeSyntax, q.sig[c].start, "unexpected "+quoteSnippet(q.text(c))+" in the column list of "+quoteSnippet(alias),
				"a derived table's column list is names separated by commas: (SELECT …) AS d(a, b)")
		}
		cols = append(cols, col)
	}
	if len(cols) == 0 {
		return errAt(diag.CodeSyntax, q.sig[open].start, "the column list of "+quoteSnippet(alias)+" is empty",
			"name the columns, as in (SELECT …) AS d(a, b), or leave the list out")
	}
	cte.Columns, cte.Alias = cols, alias
	blank(buf, q.sig[open].start, q.sig[end].end)
	return nil
}

// derivedSpans finds the parenthesized queries in FROM position (after
// FROM, JOIN, or a comma of a FROM list) at any depth of this SELECT, as
// pairs of significant token indexes of their parentheses; derived tables
// nested inside them are theirs to find.
func (q *tokSeq) derivedSpans() [][2]int {
	var spans [][2]int
	clause := []string{""} // last clause keyword per parenthesis depth
	for k := 0; k < len(q.sig); k++ {
		switch w := q.word(k); {
		case q.punct(k, "("):
			if q.fromPosition(k, clause[len(clause)-1]) && q.isQueryIn(k) {
				spans = append(spans, [2]int{k, q.match[k]})
				k = q.match[k]
				continue
			}
			clause = append(clause, "")
		case q.punct(k, ")"):
			if len(clause) > 1 {
				clause = clause[:len(clause)-1]
			}
		case q.punct(k-1, "."):
		case w == "from" || w == "where" || w == "select" || w == "group" || w == "having" || w == "order" || w == "limit":
			clause[len(clause)-1] = w
		}
	}
	return spans
}

// fromPosition reports whether a '(' at sig[k] stands where a table does.
func (q *tokSeq) fromPosition(k int, clause string) bool {
	switch w := q.word(k - 1); {
	case q.punct(k-2, "."):
		return false
	case w == "from" || w == "join" || w == "straight_join":
		return true
	case q.punct(k-1, ","):
		return clause == "from"
	}
	return false
}

// isQueryIn reports whether the parentheses opening at sig[k] hold a query.
func (q *tokSeq) isQueryIn(k int) bool {
	if q.match[k] < 0 {
		return false
	}
	for q.punct(k, "(") {
		k++
	}
	w := q.word(k)
	return w == "select" || w == "with"
}

// derivedPrefix is a prefix of synthetic names that occurs nowhere in stmt.
func derivedPrefix(stmt string) string {
	longest := 0
	for i := 0; i < len(stmt); {
		if stmt[i] != '$' {
			i++
			continue
		}
		j := i
		for j < len(stmt) && stmt[j] == '$' {
			j++
		}
		longest = max(longest, j-i)
		i = j
	}
	return strings.Repeat("$", longest+1) + "q"
}
