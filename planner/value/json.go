package value

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"
)

// AppendJSON renders the value as plain JSON (not DynamoDB-JSON): numbers with
// their exact digits, binary as base64, sets as arrays, maps with sorted keys,
// Missing and NULL as null.
func AppendJSON(dst []byte, v Value) []byte {
	switch v.kind {
	case Missing, Null:
		return append(dst, "null"...)
	case Bool:
		return strconv.AppendBool(dst, v.flag)
	case Number:
		return append(dst, NumberText(v.text)...)
	case String:
		return appendJSONString(dst, v.text)
	case Binary:
		return appendBase64String(dst, v.text)
	case List, StringSet, NumberSet, BinarySet:
		dst = append(dst, '[')
		for i, e := range v.elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendJSON(dst, e)
		}
		return append(dst, ']')
	case Map:
		dst = append(dst, '{')
		for i, k := range v.SortedKeys() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, k)
			dst = append(dst, ':')
			dst = AppendJSON(dst, v.attrs[k])
		}
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// JSON returns AppendJSON as a string.
func (v Value) JSON() string { return string(AppendJSON(nil, v)) }

// AppendJSONString appends s as AppendJSON writes a String value: what
// output writers reading strings straight from Arrow columns need.
func AppendJSONString(dst []byte, s string) []byte { return appendJSONString(dst, s) }

// AppendJSONBinary appends b as AppendJSON writes a Binary value (a base64
// JSON string).
func AppendJSONBinary(dst, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

// appendJSONString appends s as a JSON string, byte for byte what
// encoding/json writes with SetEscapeHTML(false): valid UTF-8 is kept, each
// invalid byte becomes \ufffd, control characters are \b \f \n \r \t or
// \u00XX, and U+2028/U+2029 are escaped (a CLI's output need not escape
// <, > and &). It never allocates beyond growing dst.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if jsonSafe[b] {
			i++
			continue
		}
		if b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// jsonSafe marks the bytes copied unchanged: ASCII except control
// characters, '"' and '\\'.
var jsonSafe = func() (t [256]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// appendBase64String appends b's standard base64 as a JSON string (base64
// needs no escaping).
func appendBase64String(dst []byte, b string) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, []byte(b))
	return append(dst, '"')
}

// Display renders a value for text formats (table, CSV, TSV, markdown):
// strings and numbers as themselves, binary as base64, BOOL as true/false,
// sets in PartiQL's set syntax (SetText), maps and lists as JSON, and SQL
// NULL as "" (the caller decides how to show NULL).
func Display(v Value) string {
	switch v.kind {
	case Missing, Null:
		return ""
	case String:
		return v.text
	case Number:
		return NumberText(v.text)
	case Binary:
		return base64.StdEncoding.EncodeToString([]byte(v.text))
	case Bool:
		return strconv.FormatBool(v.flag)
	case StringSet, NumberSet, BinarySet:
		return SetText(v)
	}
	return v.JSON()
}

// SetText renders a set the way PartiQL for DynamoDB writes set literals, so
// a set never reads as a list: <<'a', 'b'>> for SS (a quote inside a member
// is doubled, as in a PartiQL string), <<1, 2.5>> for NS, and base64 members
// in quotes for BS, <<'AQI='>> (PartiQL has no binary literal). Members keep
// their stored order; an empty set (only possible from a computation) is <<>>.
func SetText(v Value) string {
	var b strings.Builder
	b.WriteString("<<")
	for i, m := range v.elems {
		if i > 0 {
			b.WriteString(", ")
		}
		switch v.kind {
		case NumberSet:
			b.WriteString(NumberText(m.text))
		case BinarySet:
			b.WriteByte('\'')
			b.WriteString(base64.StdEncoding.EncodeToString([]byte(m.text)))
			b.WriteByte('\'')
		default:
			b.WriteByte('\'')
			b.WriteString(strings.ReplaceAll(m.text, "'", "''"))
			b.WriteByte('\'')
		}
	}
	b.WriteString(">>")
	return b.String()
}
