package difftest

import (
	"strings"
)

// How names are written. A hidden generator over unknown tables writes
// names bare, in double quotes (PartiQL, standard SQL) or in backticks
// (MySQL), and attribute names are often DynamoDB reserved words or hold
// characters SQL does not allow bare; every name the generators write
// goes through quoteName with a style drawn per reference.

type nameStyle uint8

const (
	styleBare nameStyle = iota
	styleDouble
	styleBacktick
)

var nameStyleLabels = [...]string{"names: bare", `names: "double quoted"`, "names: `backticked`"}

// isPlainName reports whether name may be written bare: a SQL identifier
// that is no keyword the generators avoid (hard SQL keywords must be
// quoted in ddbsql as in SQLite).
func isPlainName(name string) bool {
	if name == "" || hardSQLWords[strings.ToLower(name)] {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// hardSQLWords are names that are reserved in SQL itself (both engines
// reject them bare); the generators write them quoted.
var hardSQLWords = map[string]bool{
	"order": true, "group": true, "select": true, "from": true, "where": true, "all": true,
	"case": true, "when": true, "end": true, "by": true, "limit": true, "as": true, "on": true,
	"and": true, "or": true, "not": true, "in": true, "is": true, "null": true, "distinct": true,
	"join": true, "left": true, "right": true, "using": true, "having": true,
}

// quoteName writes name in style s (bare only when it may be).
func quoteName(name string, s nameStyle) string {
	switch {
	case s == styleBare && isPlainName(name):
		return name
	case s == styleBacktick:
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// liteName writes a SQLite column name (always double-quoted, so names
// such as date and rank never meet a keyword).
func liteName(name string) string { return `"` + name + `"` }

// drawStyle draws a style: bare half of the time, else quoted either way.
func (g *gen) drawStyle() nameStyle {
	switch f := g.r.Float64(); {
	case f < 0.5:
		return styleBare
	case f < 0.8:
		return styleDouble
	}
	return styleBacktick
}

// ddbPath writes a document path, each component in a style of its own.
func (g *gen) ddbPath(path []string) string {
	var b strings.Builder
	for i, p := range path {
		switch {
		case strings.HasPrefix(p, "["): // a list index
			b.WriteString(p)
			continue
		case i > 0:
			b.WriteByte('.')
		}
		b.WriteString(quoteName(p, g.drawStyle()))
	}
	return b.String()
}

// colRef is a reference to column c written at random: bare or quoted,
// and qualified by the table's alias when the query has one (now and
// then). Its label records how it was written, for the coverage report.
func (g *gen) colRef(c column) *expr {
	text := g.ddbPath(c.path)
	if g.alias != "" && g.chance(0.35) {
		text = quoteName(g.alias, g.drawStyle()) + "." + text
	}
	e := leaf(c.t, "column", text, liteName(c.lite))
	if len(c.path) > 1 {
		e.label = "document path"
	}
	e.small, e.ascii = c.small, c.ascii
	e.name = c.plain()
	return e
}

// Keyword case: SQL keywords and function names are case-insensitive, and
// a hidden generator may write them in any case. recase rewrites the
// keywords of ddbsql-dialect text (never inside strings or quoted names,
// never a name: function names only before "(") in one of three styles.
type keywordCase uint8

const (
	caseUpper keywordCase = iota // as generated: SELECT, COUNT(
	caseLower                    // select, count(
	caseTitle                    // Select, Count(
)

var keywordCaseLabels = [...]string{"keywords: UPPER", "keywords: lower", "keywords: Title"}

// sqlKeywords are words the generators write that are keywords wherever
// they appear; sqlFunctions are function names, keywords only before "(".
var (
	sqlKeywords = setOfWords("SELECT DISTINCT FROM WHERE AND OR NOT IN IS NULL BETWEEN LIKE ESCAPE CASE WHEN THEN ELSE END AS " +
		"GROUP BY ORDER HAVING LIMIT OFFSET ASC DESC TRUE FALSE DIV USE FORCE INDEX JOIN LEFT RIGHT INNER OUTER ON USING")
	sqlFunctions = setOfWords("COUNT SUM MIN MAX AVG COALESCE IFNULL NULLIF LOWER UPPER SUBSTRING SUBSTR CONCAT CHAR_LENGTH " +
		"LENGTH ABS BEGINS_WITH CONTAINS SIZE")
)

func setOfWords(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// recase applies keyword case c to ddbsql-dialect text. String literals
// there escape a quote as ” and a backslash as \\.
func recase(text string, c keywordCase) string {
	if c == caseUpper {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		ch := text[i]
		switch {
		case ch == '\'' || ch == '"' || ch == '`':
			j := i + 1
			for j < len(text) {
				if ch == '\'' && text[j] == '\\' {
					j += 2
					continue
				}
				if text[j] == ch {
					if j+1 < len(text) && text[j+1] == ch {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(text))
			b.WriteString(text[i:j])
			i = j
		case ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j := i
			for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			w := text[i:j]
			up := strings.ToUpper(w)
			afterDot := i > 0 && text[i-1] == '.'
			isKeyword := w == up && sqlKeywords[up] || sqlFunctions[up] && j < len(text) && text[j] == '('
			if isKeyword && !afterDot {
				w = strings.ToLower(w)
				if c == caseTitle {
					w = strings.ToUpper(w[:1]) + w[1:]
				}
			}
			b.WriteString(w)
			i = j
		default:
			b.WriteByte(ch)
			i++
		}
	}
	return b.String()
}

// tidyName is the output name ddbsql gives an unaliased expression written
// as text (generator text: keywords upper-case, single spaces): function
// names upper-cased too, whatever case the query used, and a name quoted
// though it could be written bare loses its quotes. Strings and names that
// need their quotes are kept as written.
func tidyName(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		ch := text[i]
		switch {
		case ch == '\'' || ch == '"' || ch == '`':
			j := i + 1
			for j < len(text) {
				if ch == '\'' && text[j] == '\\' {
					j += 2
					continue
				}
				if text[j] == ch {
					if j+1 < len(text) && text[j+1] == ch {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(text))
			quoted := text[i:j]
			if inner := quoted[1 : len(quoted)-1]; ch != '\'' && isBareWord(inner) {
				quoted = inner
			}
			b.WriteString(quoted)
			i = j
		case ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j := i
			for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			w := text[i:j]
			if sqlFunctions[strings.ToUpper(w)] && j < len(text) && text[j] == '(' && (i == 0 || text[i-1] != '.') {
				w = strings.ToUpper(w)
			}
			b.WriteString(w)
			i = j
		default:
			b.WriteByte(ch)
			i++
		}
	}
	return b.String()
}

// isBareWord: a letter or underscore, then letters, digits, underscores.
func isBareWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
