package eval

import (
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// like is X [NOT] LIKE Pattern: Unknown when either side is NULL; False
// (NOT LIKE: True) when either side is not a string.
func like(l expr.Like, row Row) (Truth, error) {
	x, err := operand(l.X, row)
	if err != nil {
		return Unknown, err
	}
	p, err := operand(l.Pattern, row)
	if err != nil {
		return Unknown, err
	}
	var res Truth
	switch {
	case x.IsNull() || p.IsNull():
		res = Unknown
	case x.Kind() != value.String || p.Kind() != value.String:
		res = False
	default:
		res = truthOf(Match(x.Text(), p.Text()))
	}
	if l.Not {
		return not(res), nil
	}
	return res, nil
}

// Match reports whether s matches the LIKE pattern p. Matching is
// case-sensitive and compares bytes; `%` matches any run of characters,
// `_` exactly one character, and a backslash makes the next character
// literal (a trailing backslash is itself literal). A character is one
// UTF-8 encoded code point, or a single byte that is not valid UTF-8.
func Match(s, p string) bool {
	si, pi := 0, 0
	starP, starS := -1, 0 // pattern index after the last %, and where it resumes in s
	for si < len(s) {
		if pi < len(p) {
			switch p[pi] {
			case '%':
				pi++
				starP, starS = pi, si
				continue
			case '_':
				si += charLen(s, si)
				pi++
				continue
			}
			lit := pi
			if p[pi] == '\\' && pi+1 < len(p) {
				lit++
			}
			n := charLen(p, lit)
			if m := charLen(s, si); m == n && s[si:si+m] == p[lit:lit+n] {
				si += m
				pi = lit + n
				continue
			}
		}
		if starP < 0 {
			return false
		}
		// Let the last % absorb one more character and retry from there.
		starS += charLen(s, starS)
		si, pi = starS, starP
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}

// charLen is the byte length of the character starting at s[i].
func charLen(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return n
}
