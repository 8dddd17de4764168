package parser

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// The statements below are parsed here rather than by sqlparser, which turns
// EXPLAIN and DESCRIBE into an empty OtherRead and drops the table of
// SHOW INDEX FROM t.

// explain parses EXPLAIN [ANALYZE] <select>, EXPLAIN ATHENA|DUCKDB
// <select> and EXPLAIN t (MySQL's synonym for DESCRIBE t).
func (s *stmt) explain() (Statement, *diag.Error) {
	i, analyze, dialect := 1, false, ""
	switch w := s.word(i); {
	case w == "analyze":
		i, analyze = 2, true
	case (w == DialectAthena || w == DialectDuckDB) && isSelectStart(s, 2):
		// Only before a SELECT: EXPLAIN athena alone describes a table of
		// that name.
		i, dialect = 2, w
	case (w == DialectAthena || w == DialectDuckDB) && writeVerbs[s.word(2)]:
		return nil, errAt(diag.CodeUnsupported, s.sig[2].start, "EXPLAIN "+strings.ToUpper(w)+" rewrites a SELECT over a table's export; a write is not translated",
			"run the write with ddbsql itself (EXPLAIN shows its requests, --dry-run what it would change)")
	}
	if i >= len(s.sig) {
		return nil, s.missing("EXPLAIN needs a SELECT statement")
	}
	if isSelectStart(s, i) {
		sel, err := parseQuery(s.src, s.from(i))
		if err != nil {
			return nil, err
		}
		return &Explain{Analyze: analyze, Dialect: dialect, Stmt: sel, Loc: s.span(0)}, nil
	}
	if writeVerbs[s.word(i)] {
		if analyze {
			return nil, errAt(diag.CodeUnsupported, s.sig[1].start, "EXPLAIN ANALYZE of a write is not supported: it would change the items",
				"EXPLAIN shows the plan without running it; --dry-run runs the reads and writes nothing")
		}
		w, err := s.write(i)
		if err != nil {
			return nil, err
		}
		return &Explain{Write: w, Loc: s.span(0)}, nil
	}
	if err := s.notExplainable(i); err != nil {
		return nil, err
	}
	if name, ok := s.tableName(i); ok && !analyze {
		if i < len(s.sig)-1 {
			return nil, s.unexpected(i+1, "EXPLAIN t takes only a table name")
		}
		return &Describe{Table: name, Loc: s.span(0)}, nil
	}
	return nil, s.unexpected(i, "EXPLAIN takes a SELECT statement (or a table name, like DESCRIBE)")
}

// describe parses DESCRIBE t, DESC t, and DESCRIBE <select> (= EXPLAIN).
func (s *stmt) describe() (Statement, *diag.Error) {
	if len(s.sig) == 1 {
		return nil, s.missing("DESCRIBE needs a table name")
	}
	if isSelectStart(s, 1) {
		sel, err := parseQuery(s.src, s.from(1))
		if err != nil {
			return nil, err
		}
		return &Explain{Stmt: sel, Loc: s.span(0)}, nil
	}
	name, ok := s.tableName(1)
	switch {
	case !ok:
		return nil, s.unexpected(1, "DESCRIBE takes a table name, e.g. DESCRIBE `my-table`")
	case len(s.sig) > 2:
		return nil, s.unexpected(2, "DESCRIBE takes only a table name")
	}
	return &Describe{Table: name, Loc: s.span(0)}, nil
}

// show parses SHOW TABLES and SHOW INDEXES|INDEX|KEYS FROM|IN t.
func (s *stmt) show() (Statement, *diag.Error) {
	const hint = "ddbsql supports SHOW TABLES and SHOW INDEXES FROM t"
	switch w := s.word(1); {
	case len(s.sig) == 1:
		return nil, s.missing("SHOW needs TABLES or INDEXES FROM a table")
	case w == "tables":
		if len(s.sig) > 2 {
			return nil, s.unexpected(2, hint)
		}
		return &ShowTables{Loc: s.span(0)}, nil
	case w == "indexes" || w == "index" || w == "keys":
		if k := s.word(2); k != "from" && k != "in" {
			if len(s.sig) == 2 {
				return nil, s.missing("SHOW " + strings.ToUpper(w) + " needs FROM and a table name")
			}
			return nil, s.unexpected(2, "write SHOW "+strings.ToUpper(w)+" FROM t")
		}
		if len(s.sig) == 3 {
			return nil, s.missing("SHOW " + strings.ToUpper(w) + " FROM needs a table name")
		}
		name, ok := s.tableName(3)
		if !ok {
			return nil, s.unexpected(3, "write the table name, in double quotes or backticks if it contains '-' or '.'")
		}
		if len(s.sig) > 4 {
			return nil, s.unexpected(4, hint)
		}
		return &ShowIndexes{Table: name, Loc: s.span(0)}, nil
	case s.sig[1].kind == tkIdent:
		return nil, errAt(diag.CodeUnsupported, s.sig[1].start, "SHOW "+strings.ToUpper(w)+" is not supported", hint)
	}
	return nil, s.unexpected(1, hint)
}

// isSelectStart reports whether a SELECT (maybe parenthesized) starts at i.
func isSelectStart(s *stmt, i int) bool {
	return s.word(i) == "select" || s.word(i) == "with" || s.isPunct(i, "(")
}

// tableName reads a table name at sig[i]: a quoted name ("t" or `t`), or a
// plain name that is not a reserved word of the statement grammar.
func (s *stmt) tableName(i int) (string, bool) {
	if i >= len(s.sig) {
		return "", false
	}
	t := s.sig[i]
	text := s.text(i)
	switch {
	case t.kind == tkQuoted:
		return unquoteName(text), true
	case t.kind == tkIdent && !hardKeywords[lower(text)]:
		return text, true
	}
	return "", false
}

// notExplainable rejects a statement other than SELECT after EXPLAIN.
func (s *stmt) notExplainable(i int) *diag.Error {
	if err := s.kindError(i); err != nil {
		return err
	}
	switch w := s.word(i); w {
	case "explain", "describe", "desc", "show":
		return errAt(diag.CodeUnsupported, s.sig[i].start, "EXPLAIN works on SELECT statements, not "+strings.ToUpper(w), "")
	}
	return nil
}
