package eval

import (
	"strings"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// textArgs evaluates every argument of f as text (S, or N as its digits);
// null reports an argument that is SQL NULL (then texts is incomplete).
func textArgs(f expr.Func, row Row, n int) (texts []string, null bool, err error) {
	texts = make([]string, n)
	for i := 0; i < n; i++ {
		v, err := arg(f, row, i)
		if err != nil {
			return nil, false, err
		}
		if v.IsNull() {
			null = true
			continue
		}
		if texts[i], err = textArg(f, v); err != nil {
			return nil, false, err
		}
	}
	return texts, null, nil
}

// fnSplitPart is split_part(s, delim, n) as in PostgreSQL: field n
// (1-based; negative counts from the end) of s split at delim; ” when
// there is no such field (n = 0 included). An empty delim makes s one field.
func fnSplitPart(f expr.Func, row Row) (value.Value, error) {
	texts, null, err := textArgs(f, row, 2)
	if err != nil {
		return value.Value{}, err
	}
	nv, err := arg(f, row, 2)
	if err != nil || null || nv.IsNull() {
		return value.MissingValue(), err
	}
	if nv.Kind() != value.Number {
		return value.Value{}, argTypeError(f, "a field number", nv)
	}
	n, err := intArg(nv)
	if err != nil {
		return value.Value{}, err
	}
	fields := []string{texts[0]}
	if texts[1] != "" {
		fields = strings.Split(texts[0], texts[1])
	}
	if n < 0 {
		n += int64(len(fields)) + 1
	}
	if n < 1 || n > int64(len(fields)) {
		return value.Str(""), nil
	}
	return value.Str(fields[n-1]), nil
}

// fnReplace is replace(s, from, to): every occurrence of from replaced,
// left to right; an empty from leaves s as it is.
func fnReplace(f expr.Func, row Row) (value.Value, error) {
	texts, null, err := textArgs(f, row, 3)
	if err != nil || null {
		return value.MissingValue(), err
	}
	if texts[1] == "" {
		return value.Str(texts[0]), nil
	}
	return value.Str(strings.ReplaceAll(texts[0], texts[1], texts[2])), nil
}

// trimFunc evaluates trim, ltrim and rtrim: the characters of the second
// argument (default a space) removed from the chosen ends.
func trimFunc(f expr.Func, row Row, left, right bool) (value.Value, error) {
	texts, null, err := textArgs(f, row, len(f.Args))
	if err != nil || null {
		return value.MissingValue(), err
	}
	s, cut := texts[0], " "
	if len(texts) == 2 {
		cut = texts[1]
	}
	if left {
		s = strings.TrimLeft(s, cut)
	}
	if right {
		s = strings.TrimRight(s, cut)
	}
	return value.Str(s), nil
}

func fnTrim(f expr.Func, row Row) (value.Value, error)  { return trimFunc(f, row, true, true) }
func fnLtrim(f expr.Func, row Row) (value.Value, error) { return trimFunc(f, row, true, false) }
func fnRtrim(f expr.Func, row Row) (value.Value, error) { return trimFunc(f, row, false, true) }

// maxPadChars bounds lpad and rpad: a longer result could not be stored in
// a DynamoDB item (400 KB), so it is NULL (as MySQL returns NULL past
// max_allowed_packet) rather than a huge allocation.
const maxPadChars = 400 * 1024

// padFunc evaluates lpad and rpad as in PostgreSQL: s padded to n
// characters with pad (default a space) repeated, or cut to its first n
// characters; n < 1 gives ”; an empty pad leaves a short s as it is.
func padFunc(f expr.Func, row Row, left bool) (value.Value, error) {
	v, err := arg(f, row, 0)
	if err != nil {
		return value.Value{}, err
	}
	nv, err := arg(f, row, 1)
	if err != nil {
		return value.Value{}, err
	}
	padv := value.Str(" ")
	if len(f.Args) == 3 {
		if padv, err = arg(f, row, 2); err != nil {
			return value.Value{}, err
		}
	}
	if anyNull(v, nv, padv) {
		return value.MissingValue(), nil
	}
	s, err := textArg(f, v)
	if err != nil {
		return value.Value{}, err
	}
	padText, err := textArg(f, padv)
	if err != nil {
		return value.Value{}, err
	}
	if nv.Kind() != value.Number {
		return value.Value{}, argTypeError(f, "a length", nv)
	}
	n, err := intArg(nv)
	if err != nil {
		return value.Value{}, err
	}
	if n > maxPadChars {
		return value.MissingValue(), nil
	}
	return value.Str(padded(s, int(n), padText, left)), nil
}

func padded(s string, n int, pad string, left bool) string {
	have := utf8.RuneCountInString(s)
	if n < 1 {
		return ""
	}
	if have >= n {
		return s[:skipChars(s, 0, int64(n))]
	}
	if pad == "" {
		return s
	}
	var fill strings.Builder
	for need := n - have; need > 0; {
		for i := 0; i < len(pad) && need > 0; need-- {
			l := charLen(pad, i)
			fill.WriteString(pad[i : i+l])
			i += l
		}
	}
	if left {
		return fill.String() + s
	}
	return s + fill.String()
}

func fnLpad(f expr.Func, row Row) (value.Value, error) { return padFunc(f, row, true) }
func fnRpad(f expr.Func, row Row) (value.Value, error) { return padFunc(f, row, false) }
