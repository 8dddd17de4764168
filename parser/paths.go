package parser

import (
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// path collects a reference starting at toks[i]: name ('.' name | '[' n ']')*.
// With three or more components or any index it replaces the whole reference
// with a synthetic backticked name and records the document path.
func (r *nameRewriter) path(i int) (end int, rewrote bool, err *diag.Error) {
	p := Path{{Name: r.nameText(i)}}
	j, indexed := i, false
	for {
		if r.isPunct(j+1, ".") && j+2 < len(r.toks) && (r.toks[j+2].kind == tkIdent || r.toks[j+2].kind == tkQuoted) {
			p = append(p, PathElem{Name: r.nameText(j + 2)})
			j += 2
			continue
		}
		if r.isPunct(j+1, "[") {
			n, err := r.index(j + 1)
			if err != nil {
				return j, false, err
			}
			p = append(p, PathElem{Index: n, IsIndex: true})
			j, indexed = j+3, true
			continue
		}
		break
	}
	if len(p) < 3 && !indexed || r.isPunct(j+1, "(") || r.isPunct(j+1, ".") {
		// Two parts are sqlparser's qualifier.column; a '(' makes a function
		// name and '.*' a star: neither is a document path, let sqlparser judge.
		return i, false, nil
	}
	key := p.String()
	name, ok := r.byPath[key]
	if !ok {
		name = r.prefix + strconv.Itoa(len(r.byPath)+1)
		r.byPath[key] = name
		r.paths[name] = p
	}
	r.quoted(r.toks[i].start, r.toks[j].end, name)
	r.asName[j] = true
	return j, true, nil
}

// index reads '[' n ']' at toks[k].
func (r *nameRewriter) index(k int) (int, *diag.Error) {
	if k+2 < len(r.toks) && r.toks[k+1].kind == tkNumber && allDigits(r.text(k+1)) && r.isPunct(k+2, "]") {
		n, err := strconv.Atoi(r.text(k + 1))
		if err == nil {
			return n, nil
		}
		return 0, errAt(diag.CodeSyntax, r.toks[k+1].start, "list index "+quoteSnippet(r.text(k+1))+" is too large", "")
	}
	return 0, errAt(diag.CodeSyntax, r.toks[k].start,
		"a list index is a non-negative whole number in brackets, as in tags[0]",
		"an attribute whose name contains '[' must be written in backticks")
}

// nameText is the name a token stands for: quotes removed, doubled ones undone.
func (r *nameRewriter) nameText(i int) string {
	if r.toks[i].kind != tkQuoted {
		return r.text(i)
	}
	return unquoteName(r.text(i))
}

// syntheticPrefix picks the prefix of the synthetic path names of a
// statement. They must not collide with any name in it. A user name
// containing the prefix has the prefix in its source text too (inside
// backticks only doubled backticks change, and the prefix has none), so a
// prefix absent from the text cannot collide. The check ignores case because
// sqlparser compares column names case-insensitively (ColIdent.Equal).
func syntheticPrefix(stmt string) string {
	return strings.Repeat("$", longestDollarRun(strings.ToLower(stmt))+1) + "path"
}

// longestDollarRun is the longest run of '$' right before "path" in s, so
// that one '$' more makes a prefix that does not occur in s.
func longestDollarRun(s string) int {
	longest := 0
	for i := strings.Index(s, "path"); i >= 0; {
		n := 0
		for n < i && s[i-1-n] == '$' {
			n++
		}
		longest = max(longest, n)
		next := strings.Index(s[i+1:], "path")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return longest
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
