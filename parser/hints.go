package parser

import "strings"

// tokenHint suggests a fix for an out-of-place token src[a:b]: a misspelt
// keyword, a reserved word used as a name, or a name that needs backticks.
func tokenHint(src string, a, b int) string {
	text := src[a:b]
	switch {
	case text == "-" || text == ".":
		if w := gluedName(src, a); w != "" {
			return "a name containing '" + text + "' must be written in backticks: `" + w + "`"
		}
	case text == "[" || text == "]":
		return "a list index follows a name, as in tags[0]; a list of values follows IN, as in x IN ['a', 'b']"
	case isIdentText(text) && isKeyword(lower(text)):
		return text + " is a reserved word; if it is meant as a name, write it in backticks: `" + text + "`"
	case isIdentText(text):
		if k := closeKeyword(text); k != "" {
			return "did you mean " + k + "?"
		}
	}
	return ""
}

// gluedName returns the word around a '-' or '.' at src[i] when names are
// glued to it on both sides (my-table), else "".
func gluedName(src string, i int) string {
	if i == 0 || i+1 >= len(src) || !isNameChar(src[i-1]) || !isNameChar(src[i+1]) {
		return ""
	}
	start, end := i, i+1
	for start > 0 && (isNameChar(src[start-1]) || src[start-1] == src[i]) {
		start--
	}
	for end < len(src) && (isNameChar(src[end]) || src[end] == src[i]) {
		end++
	}
	return src[start:end]
}

func isIdentText(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

// commonKeywords are the words a typo most likely meant.
var commonKeywords = []string{
	"SELECT", "FROM", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET",
	"JOIN", "LEFT", "RIGHT", "INNER", "USING", "AND", "BETWEEN", "LIKE",
	"DISTINCT", "CASE", "WHEN", "THEN", "ELSE", "DESC", "EXPLAIN", "DESCRIBE",
	"SHOW", "TABLES", "INDEXES", "ANALYZE", "NULL",
}

// closeKeyword returns the keyword one edit (insert, delete, substitute or
// swap two neighbours) away from word, or "".
func closeKeyword(word string) string {
	if len(word) < 3 {
		return ""
	}
	w := strings.ToUpper(word)
	for _, k := range commonKeywords {
		if w != k && oneEdit(w, k) {
			return k
		}
	}
	return ""
}

func oneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		diff := -1
		for i := 0; i < len(a); i++ {
			if a[i] != b[i] {
				if diff >= 0 {
					// a second difference: only a swap of neighbours is one edit
					return i == diff+1 && a[diff] == b[i] && a[i] == b[diff] && a[i+1:] == b[i+1:]
				}
				diff = i
			}
		}
		return true
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	}
	return false
}
