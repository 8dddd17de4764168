package parser

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// withQuery parses WITH name [(col, …)] AS (query) [, …] body, where body
// is a SELECT or a compound. WITH RECURSIVE is refused.
func (q *tokSeq) withQuery() (*Select, *diag.Error) {
	n := len(q.sig)
	k := 1
	if q.word(k) == "recursive" {
		return nil, errAt(diag.CodeUnsupported, q.sig[k].start, "WITH RECURSIVE is not supported",
			"ddbsql runs non-recursive WITH; drop RECURSIVE if no CTE refers to itself")
	}
	var ctes []CTE
	for {
		cte, next, err := q.cte(k)
		if err != nil {
			return nil, err
		}
		for _, prev := range ctes {
			if strings.EqualFold(prev.Name, cte.Name) {
				return nil, errAt(diag.CodeSyntax, cte.NameLoc.Start, "the WITH name "+quoteSnippet(cte.Name)+" is defined twice",
					"give each common table expression its own name")
			}
		}
		ctes = append(ctes, cte)
		k = next
		if !q.punct(k, ",") {
			break
		}
		k++
	}
	if k >= n {
		return nil, errAt(diag.CodeSyntax, q.sig[n-1].end, "unexpected end of statement: WITH needs a SELECT after its definitions", "")
	}
	if w := q.word(k); w != "select" && !q.punct(k, "(") {
		return nil, errAt(diag.CodeSyntax, q.sig[k].start, "unexpected "+quoteSnippet(q.text(k)),
			"after WITH name AS (…), write a comma and the next definition, or the SELECT that uses them")
	}
	body, err := newSeq(q.src, q.sub(k, n-1), q.depth).compound()
	if err != nil {
		return nil, err
	}
	loc := q.span(0, n-1)
	query := body.Query
	if query == nil || len(query.With) > 0 {
		query = &Query{Body: body, Count: -1}
	}
	query.With = ctes
	query.Loc = loc
	return &Select{Query: query, Text: q.src[loc.Start:loc.End], Loc: loc}, nil
}

// cte parses name [(col, …)] AS (query) at sig[k]; next is the token after it.
func (q *tokSeq) cte(k int) (CTE, int, *diag.Error) {
	n := len(q.sig)
	if k >= n {
		return CTE{}, k, errAt(diag.CodeSyntax, q.sig[n-1].end, "unexpected end of statement: WITH needs a name", "write WITH name AS (SELECT …) SELECT …")
	}
	name, ok := q.name(k)
	if !ok {
		return CTE{}, k, errAt(diag.CodeSyntax, q.sig[k].start, "unexpected "+quoteSnippet(q.text(k)),
			"WITH takes a name, as in WITH recent AS (SELECT …) SELECT … FROM recent")
	}
	cte := CTE{Name: name, NameLoc: q.span(k, k)}
	k++
	if q.punct(k, "(") {
		end := q.match[k]
		if end < 0 {
			return cte, k, errAt(diag.CodeSyntax, q.sig[k].start, "the column list of "+quoteSnippet(name)+" has no closing parenthesis", "")
		}
		for c := k + 1; c < end; c += 2 {
			col, ok := q.name(c)
			if !ok || (c+1 < end && !q.punct(c+1, ",")) {
				return cte, c, errAt(diag.CodeSyntax, q.sig[c].start, "unexpected "+quoteSnippet(q.text(c)),
					"a WITH column list is names separated by commas: WITH x(a, b) AS (…)")
			}
			cte.Columns = append(cte.Columns, col)
		}
		if len(cte.Columns) == 0 {
			return cte, k, errAt(diag.CodeSyntax, q.sig[k].start, "the column list of "+quoteSnippet(name)+" is empty", "")
		}
		k = end + 1
	}
	if q.word(k) != "as" {
		if k >= n {
			return cte, k, errAt(diag.CodeSyntax, q.sig[n-1].end, "unexpected end of statement: expected AS (SELECT …)", "")
		}
		return cte, k, errAt(diag.CodeSyntax, q.sig[k].start, "unexpected "+quoteSnippet(q.text(k)), "write WITH "+name+" AS (SELECT …)")
	}
	k++
	if !q.punct(k, "(") || q.match[k] < 0 {
		at := q.sig[n-1].end
		if k < n {
			at = q.sig[k].start
		}
		return cte, k, errAt(diag.CodeSyntax, at, "expected a query in parentheses after "+name+" AS", "write WITH "+name+" AS (SELECT …)")
	}
	end := q.match[k]
	if end == k+1 {
		return cte, k, errAt(diag.CodeSyntax, q.sig[end].start, "the query of "+quoteSnippet(name)+" is empty", "")
	}
	body, err := parseQueryAt(q.src, q.sub(k+1, end-1), q.depth+1)
	if err != nil {
		return cte, k, err
	}
	cte.Body = body
	cte.Loc = Span{cte.NameLoc.Start, q.sig[end].end}
	return cte, end + 1, nil
}

// name reads a name at sig[k]: quoted, or plain and not a reserved word.
func (q *tokSeq) name(k int) (string, bool) {
	if k >= len(q.sig) {
		return "", false
	}
	t := q.sig[k]
	switch {
	case t.kind == tkQuoted:
		return unquoteName(q.text(k)), true
	case t.kind == tkIdent && !hardKeywords[q.word(k)]:
		return q.text(k), true
	}
	return "", false
}
