package value

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
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
		return append(dst, v.text...)
	case String:
		return appendJSONString(dst, v.text)
	case Binary:
		return appendJSONString(dst, base64.StdEncoding.EncodeToString([]byte(v.text)))
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

func appendJSONString(dst []byte, s string) []byte {
	// encoding/json escapes <, > and & for HTML; a CLI's output should not.
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := sb.String()
	return append(dst, out[:len(out)-1]...) // drop Encode's newline
}

// Display renders a value for text formats (table, CSV, TSV, markdown):
// strings and numbers as themselves, binary as base64, BOOL as true/false,
// documents and sets as JSON, and SQL NULL as "" (the caller decides how to
// show NULL).
func Display(v Value) string {
	switch v.kind {
	case Missing, Null:
		return ""
	case String, Number:
		return v.text
	case Binary:
		return base64.StdEncoding.EncodeToString([]byte(v.text))
	case Bool:
		return strconv.FormatBool(v.flag)
	}
	return v.JSON()
}
