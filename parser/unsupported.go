package parser

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// writeStatements are statements that change data or schema. ddbsql only
// reads, and says so instead of a bare syntax error.
var writeStatements = setOf(
	"create", "alter", "drop",
	"truncate", "rename", "grant", "revoke", "load", "merge", "upsert", "call",
	"do", "handler", "import", "lock", "unlock", "optimize", "repair", "analyze",
)

// otherStatements are statement keywords that read nothing ddbsql can plan.
var otherStatements = setOf(
	"set", "use", "begin", "start", "commit", "rollback", "savepoint", "release",
	"stream", "values", "table", "help", "prepare", "execute", "deallocate",
	"kill", "flush", "reset", "purge", "checksum", "check", "cache", "install",
	"uninstall", "shutdown", "xa", "declare", "pragma", "vacuum", "copy",
)

// nestedHint says what works instead of a set operation or WITH inside a
// subquery of WHERE or the select list: the same query named in a WITH.
const nestedHint = "name the query in a WITH clause at the start of the statement and select from it (WITH q AS (…) SELECT … FROM q)"

// kindError rejects a statement by its leading keyword at sig[i].
func (s *stmt) kindError(i int) *diag.Error {
	w := s.word(i)
	at := s.sig[min(i, len(s.sig)-1)].start
	switch {
	case writeStatements[w]:
		return errAt(diag.CodeUnsupported, at, strings.ToUpper(w)+" statements are not supported", "ddbsql changes items with INSERT, REPLACE, UPDATE and DELETE; it does not change tables")
	case otherStatements[w]:
		return errAt(diag.CodeUnsupported, at, strings.ToUpper(w)+" statements are not supported",
			"ddbsql runs SELECT, INSERT, REPLACE, UPDATE, DELETE, EXPLAIN, DESCRIBE and SHOW statements")
	}
	return nil
}

// checkSelectFeatures rejects SQL that sqlparser would either misread or
// reject with a bare syntax error, naming the feature instead. It sees one
// SELECT of a statement: set operators and WITH at its top level, and
// derived tables, were cut out before (compound.go, with.go, derived.go),
// so those it meets are inside a subquery.
func checkSelectFeatures(src string, sig []token) *diag.Error {
	word := func(i int) string {
		if i < 0 || i >= len(sig) || sig[i].kind != tkIdent {
			return ""
		}
		return lower(src[sig[i].start:sig[i].end])
	}
	punct := func(i int, p string) bool { return i >= 0 && i < len(sig) && isPunctTok(src, sig[i], p) }
	for i, t := range sig {
		if punct(i-1, ".") {
			continue // a name after '.', whatever it spells
		}
		switch w := word(i); {
		case w == "union" || (w == "intersect" || w == "except") && (word(i+1) == "select" || punct(i+1, "(") || word(i+1) == "all"):
			return errAt(diag.CodeUnsupported, t.start, strings.ToUpper(w)+" inside a subquery is not supported", nestedHint)
		case w == "with" && (i == 0 || punct(i-1, "(")):
			return errAt(diag.CodeUnsupported, t.start, "WITH inside a subquery is not supported", nestedHint)
		case w == "window" && i+2 < len(sig) && sig[i+1].kind == tkIdent && word(i+2) == "as":
			return errAt(diag.CodeUnsupported, t.start, "the WINDOW clause (named windows) is not supported", windowHint)
		case w == "full" && (word(i+1) == "join" || word(i+1) == "outer" && word(i+2) == "join"):
			return errAt(diag.CodeUnsupported, t.start, "FULL OUTER JOIN is not supported", "use LEFT JOIN or RIGHT JOIN")
		}
	}
	return nil
}
