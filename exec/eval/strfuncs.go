package eval

import (
	"strings"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// textArg returns the text a string function works on: an S as is, an N as
// its canonical digits (as MySQL renders numbers); other types are a type
// error. Callers handle NULL first.
func textArg(f expr.Func, v value.Value) (string, error) {
	switch v.Kind() {
	case value.String, value.Number:
		return v.Text(), nil
	}
	return "", argTypeError(f, "a string or a number", v)
}

// stringFunc evaluates a one-argument string function: NULL in, NULL out.
func stringFunc(f expr.Func, row Row, fn func(string) value.Value) (value.Value, error) {
	v, err := arg(f, row, 0)
	if err != nil || v.IsNull() {
		return value.MissingValue(), err
	}
	s, err := textArg(f, v)
	if err != nil {
		return value.Value{}, err
	}
	return fn(s), nil
}

func fnLower(f expr.Func, row Row) (value.Value, error) {
	return stringFunc(f, row, func(s string) value.Value { return value.Str(strings.ToLower(s)) })
}

func fnUpper(f expr.Func, row Row) (value.Value, error) {
	return stringFunc(f, row, func(s string) value.Value { return value.Str(strings.ToUpper(s)) })
}

// fnLength is MySQL LENGTH: the length in bytes.
func fnLength(f expr.Func, row Row) (value.Value, error) {
	return stringFunc(f, row, func(s string) value.Value { return intValue(int64(len(s))) })
}

// fnCharLength is CHAR_LENGTH: the length in characters (an invalid UTF-8
// byte counts as one character).
func fnCharLength(f expr.Func, row Row) (value.Value, error) {
	return stringFunc(f, row, func(s string) value.Value { return intValue(int64(utf8.RuneCountInString(s))) })
}

// fnSubstring is MySQL SUBSTRING(str, pos[, len]) on characters: pos is
// 1-based, a negative pos counts from the end, pos 0 or a len below 1 give
// the empty string.
func fnSubstring(f expr.Func, row Row) (value.Value, error) {
	v, err := arg(f, row, 0)
	if err != nil {
		return value.Value{}, err
	}
	pv, err := arg(f, row, 1)
	if err != nil {
		return value.Value{}, err
	}
	lv := value.NumTrusted("1000000000000000")
	if len(f.Args) == 3 {
		if lv, err = arg(f, row, 2); err != nil {
			return value.Value{}, err
		}
	}
	if anyNull(v, pv, lv) {
		return value.MissingValue(), nil
	}
	s, err := textArg(f, v)
	if err != nil {
		return value.Value{}, err
	}
	if pv.Kind() != value.Number {
		return value.Value{}, argTypeError(f, "a number as the position", pv)
	}
	if lv.Kind() != value.Number {
		return value.Value{}, argTypeError(f, "a number as the length", lv)
	}
	pos, err := intArg(pv)
	if err != nil {
		return value.Value{}, err
	}
	n, err := intArg(lv)
	if err != nil {
		return value.Value{}, err
	}
	return value.Str(substring(s, pos, n)), nil
}

func substring(s string, pos, n int64) string {
	if pos == 0 || n < 1 {
		return ""
	}
	if pos < 0 {
		pos += int64(utf8.RuneCountInString(s)) + 1
		if pos < 1 {
			return ""
		}
	}
	start := skipChars(s, 0, pos-1)
	end := skipChars(s, start, n)
	return s[start:end]
}

// skipChars returns the byte offset n characters after offset i (or len(s)).
func skipChars(s string, i int, n int64) int {
	for ; n > 0 && i < len(s); n-- {
		i += charLen(s, i)
	}
	return i
}

// fnConcat is MySQL CONCAT: NULL if any argument is NULL; numbers are
// rendered as their digits.
func fnConcat(f expr.Func, row Row) (value.Value, error) {
	var sb strings.Builder
	null := false
	for i := range f.Args {
		v, err := arg(f, row, i)
		if err != nil {
			return value.Value{}, err
		}
		if v.IsNull() {
			null = true
			continue
		}
		s, err := textArg(f, v)
		if err != nil {
			return value.Value{}, err
		}
		sb.WriteString(s)
	}
	if null {
		return value.MissingValue(), nil
	}
	return value.Str(sb.String()), nil
}
