package offline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// itemParser decodes one item in DynamoDB JSON: bare ({"PK": {"S": "a"}, …})
// or, when unwrap is set, wrapped the way exports write it
// ({"Item": {"PK": {"S": "a"}, …}}). unwrap is off when a key attribute is
// itself named "Item", since the two forms are then ambiguous.
type itemParser struct {
	unwrap bool
	// need, when set, names the only attributes a streamed Scan needs
	// decoded (see fastItemNeeding).
	need map[string]bool
}

var itemPrefix = []byte(`{"Item":`)

// itemError is a failed parse: the message and, for invalid JSON, the byte
// offset in the input where it went wrong (-1 otherwise).
type itemError struct {
	code   diag.Code
	msg    string
	offset int
}

func (e *itemError) Error() string { return e.msg }

// parse decodes data, appending its attributes to dst: all of them, or
// with need set those the fast decoder could not skip, the skipped ones
// counted in sk.
func (p itemParser) parse(data []byte, dst []memdb.NamedValue) (_ []memdb.NamedValue, sk memdb.Skipped, _ *itemError) {
	if out, sk, ok := fastItemNeeding(data, p.unwrap, p.need, dst); ok {
		return out, sk, nil
	}
	v, ierr := p.slowParse(data)
	if ierr != nil {
		return dst, memdb.Skipped{}, ierr
	}
	for k, a := range v.Attrs() {
		dst = append(dst, memdb.NamedValue{Name: k, Value: a})
	}
	return dst, memdb.Skipped{}, nil
}

// slowParse decodes through value.ParseItemJSON: exact, and it explains
// what is wrong.
func (p itemParser) slowParse(data []byte) (value.Value, *itemError) {
	if p.unwrap && bytes.HasPrefix(data, itemPrefix) {
		// The export form, written compactly: parse the inner object
		// without decoding the wrapper first.
		end := bytes.LastIndexByte(data, '}')
		if end > len(itemPrefix) && len(bytes.TrimSpace(data[end+1:])) == 0 {
			if v, err := value.ParseItemJSON(data[len(itemPrefix):end]); err == nil {
				return v, nil
			}
		}
	}
	v, err := value.ParseItemJSON(data)
	if err != nil && p.unwrap && !isSyntaxError(err) {
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) == nil && len(top) == 1 && top["Item"] != nil {
			data = top["Item"]
			v, err = value.ParseItemJSON(data)
		}
	}
	if err != nil {
		return value.Value{}, explainItemError(data, err)
	}
	return v, nil
}

func isSyntaxError(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se)
}

// explainItemError turns a decoding failure into a message for people.
func explainItemError(data []byte, err error) *itemError {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		offset := int(se.Offset)
		if offset >= len(data) {
			offset = len(data) + 1 // unexpected end: point past the last byte
		}
		return &itemError{code: diag.CodeBadJSON, msg: "invalid JSON: " + se.Error(), offset: offset}
	}
	bad := func(format string, args ...any) *itemError {
		return &itemError{code: diag.CodeBadItem, msg: fmt.Sprintf(format, args...), offset: -1}
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil || top == nil {
		return bad(`not an item: expected a JSON object of attributes in DynamoDB JSON, like {"PK": {"S": "a"}}, got %s`, abbreviate(data))
	}
	names := make([]string, 0, len(top))
	for name := range top {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var typed map[string]json.RawMessage
		if json.Unmarshal(top[name], &typed) != nil || typed == nil {
			return bad(`attribute %q is %s, not a DynamoDB-JSON value like {"S": "text"} (is the file plain JSON rather than DynamoDB JSON?)`, name, abbreviate(top[name]))
		}
		for tag, body := range typed {
			if want := jsonKindFor(tag); want != "" && len(typed) == 1 && !strings.Contains(want, jsonKind(body)) {
				return bad("attribute %q is %s: %s", name, abbreviate(top[name]), wantText(tag, want))
			}
		}
	}
	return bad("invalid item: %s", strings.TrimPrefix(err.Error(), "item: "))
}

// abbreviate shows a JSON value in at most 40 bytes.
func abbreviate(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}

// jsonKindFor is the JSON kinds a DynamoDB-JSON type tag takes: s(tring),
// n(umber), b(ool), o(bject), a(rray); "" for an unknown tag.
func jsonKindFor(tag string) string {
	switch tag {
	case "S", "B":
		return "s"
	case "N":
		return "sn"
	case "BOOL", "NULL":
		return "b"
	case "M":
		return "o"
	case "L", "SS", "NS", "BS":
		return "a"
	}
	return ""
}

// jsonKind is the kind letter of a JSON value (see jsonKindFor).
func jsonKind(body json.RawMessage) string {
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return "?"
	}
	switch c := b[0]; {
	case c == '"':
		return "s"
	case c == '{':
		return "o"
	case c == '[':
		return "a"
	case c == 't' || c == 'f':
		return "b"
	case c == '-' || (c >= '0' && c <= '9'):
		return "n"
	}
	return "?"
}

func wantText(tag, kinds string) string {
	names := map[string]string{"s": "a JSON string", "sn": "a string of digits", "b": "true or false", "o": "a JSON object", "a": "a JSON array"}
	return "a " + tag + " value must be " + names[kinds]
}
