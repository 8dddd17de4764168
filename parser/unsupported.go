package parser

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// writeStatements are statements that change data or schema. ddbsql only
// reads, and says so instead of a bare syntax error.
var writeStatements = setOf(
	"insert", "update", "delete", "replace", "create", "alter", "drop",
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

// withHint says what works instead of a WITH: subqueries and derived
// tables are not supported either, so it must not point there.
const withHint = "run the inner SELECT on its own first and use its result in the outer one, or write the query as a JOIN"

// kindError rejects a statement by its leading keyword at sig[i].
func (s *stmt) kindError(i int) *diag.Error {
	w := s.word(i)
	at := s.sig[min(i, len(s.sig)-1)].start
	switch {
	case w == "with":
		return errAt(diag.CodeUnsupported, at, "WITH (common table expressions) is not supported",
			withHint)
	case writeStatements[w]:
		return errAt(diag.CodeUnsupported, at, "ddbsql is read-only: "+strings.ToUpper(w)+" is not supported", "")
	case otherStatements[w]:
		return errAt(diag.CodeUnsupported, at, strings.ToUpper(w)+" statements are not supported",
			"ddbsql runs SELECT, EXPLAIN, DESCRIBE and SHOW statements")
	}
	return nil
}

// checkSelectFeatures rejects SQL that sqlparser would either misread or
// reject with a bare syntax error, naming the feature instead.
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
		case w == "union":
			return errAt(diag.CodeUnsupported, t.start, "UNION is not supported", "run the SELECT statements one by one")
		case (w == "intersect" || w == "except") && (word(i+1) == "select" || punct(i+1, "(")):
			return errAt(diag.CodeUnsupported, t.start, strings.ToUpper(w)+" is not supported", "run the SELECT statements one by one")
		case w == "with" && (i == 0 || punct(i-1, "(")):
			return errAt(diag.CodeUnsupported, t.start, "WITH (common table expressions) is not supported",
				withHint)
		case w == "window" && i+2 < len(sig) && sig[i+1].kind == tkIdent && word(i+2) == "as":
			return errAt(diag.CodeUnsupported, t.start, "the WINDOW clause (named windows) is not supported", windowHint)
		case w == "full" && (word(i+1) == "join" || word(i+1) == "outer" && word(i+2) == "join"):
			return errAt(diag.CodeUnsupported, t.start, "FULL OUTER JOIN is not supported", "use LEFT JOIN or RIGHT JOIN")
		}
	}
	return nil
}
