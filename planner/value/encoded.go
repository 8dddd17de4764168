package value

import (
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"unsafe"
)

// AppendEncodedJSON appends AppendJSON's text of the value that enc holds
// (AppendBinary's encoding), read straight from the bytes: no Value is
// built and nothing is allocated beyond growing dst. A corrupt encoding is
// an error and leaves dst as it was.
func AppendEncodedJSON(dst, enc []byte) ([]byte, error) {
	out, rest, err := encodedJSON(dst, enc)
	if err == nil && len(rest) != 0 {
		err = errCorrupt
	}
	if err == errUnsorted {
		return decodedJSON(dst, enc)
	}
	if err != nil {
		return dst, err
	}
	return out, nil
}

// AppendEncodedDisplay appends Display's text of the value enc holds, read
// as AppendEncodedJSON reads it.
func AppendEncodedDisplay(dst, enc []byte) ([]byte, error) {
	kind, ok := EncodedKind(enc)
	if !ok {
		return dst, errCorrupt
	}
	switch kind {
	case List, Map:
		return AppendEncodedJSON(dst, enc)
	case StringSet, NumberSet, BinarySet:
		out, rest, err := encodedSetText(dst, enc)
		if err == nil && len(rest) != 0 {
			err = errCorrupt
		}
		if err != nil {
			return dst, err
		}
		return out, nil
	}
	out, rest, err := encodedScalar(dst, enc, false)
	if err == nil && len(rest) != 0 {
		err = errCorrupt
	}
	if err != nil {
		return dst, err
	}
	return out, nil
}

// errUnsorted says a map's keys are not in strictly increasing byte order:
// AppendBinary never writes that, but another writer might, and the output
// must still be AppendJSON's (sorted, one entry per key).
var errUnsorted = errCorruptf("map keys out of order")

type encodingError string

func (e encodingError) Error() string { return string(e) }

func errCorruptf(s string) error { return encodingError(s) }

// decodedJSON is the slow way, for encodings the walker does not render
// itself.
func decodedJSON(dst, enc []byte) ([]byte, error) {
	v, err := DecodeBinary(enc)
	if err != nil {
		return dst, err
	}
	return AppendJSON(dst, v), nil
}

// view reads bytes as a string without copying. The string is used only
// during the call that made it and never kept, so the bytes cannot change
// under it.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// encodedText reads a uvarint length and that many bytes.
func encodedText(b []byte) (text, rest []byte, err error) {
	n, w := binary.Uvarint(b)
	if w <= 0 || uint64(len(b)-w) < n {
		return nil, nil, errCorrupt
	}
	return b[w : w+int(n)], b[w+int(n):], nil
}

// encodedCount reads the element count of a list, set or map.
func encodedCount(b []byte) (n uint64, rest []byte, err error) {
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)) {
		return 0, nil, errCorrupt
	}
	return n, b[w:], nil
}

// encodedScalar appends a scalar (Missing, NULL, BOOL, S, N, B) as JSON
// (asJSON) or as Display text.
func encodedScalar(dst, b []byte, asJSON bool) ([]byte, []byte, error) {
	if len(b) == 0 {
		return dst, nil, errCorrupt
	}
	kind := Kind(b[0])
	b = b[1:]
	switch kind {
	case Missing, Null:
		if asJSON {
			dst = append(dst, "null"...)
		}
		return dst, b, nil
	case Bool:
		if len(b) == 0 || b[0] > 1 {
			return dst, nil, errCorrupt
		}
		return strconv.AppendBool(dst, b[0] == 1), b[1:], nil
	case String, Number, Binary:
		text, rest, err := encodedText(b)
		if err != nil {
			return dst, nil, err
		}
		switch {
		case kind == Number:
			dst = append(dst, NumberText(view(text))...)
		case kind == Binary && asJSON:
			dst = appendBase64String(dst, view(text))
		case kind == Binary:
			dst = base64.StdEncoding.AppendEncode(dst, text)
		case asJSON:
			dst = appendJSONString(dst, view(text))
		default:
			dst = append(dst, text...)
		}
		return dst, rest, nil
	}
	return dst, nil, errCorrupt
}

// encodedJSON appends one encoded value as JSON and returns what follows it.
func encodedJSON(dst, b []byte) ([]byte, []byte, error) {
	if len(b) == 0 {
		return dst, nil, errCorrupt
	}
	kind := Kind(b[0])
	switch kind {
	case List, StringSet, NumberSet, BinarySet:
		n, rest, err := encodedCount(b[1:])
		if err != nil {
			return dst, nil, err
		}
		dst = append(dst, '[')
		for i := uint64(0); i < n; i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, rest, err = encodedJSON(dst, rest); err != nil {
				return dst, nil, err
			}
		}
		return append(dst, ']'), rest, nil
	case Map:
		n, rest, err := encodedCount(b[1:])
		if err != nil {
			return dst, nil, err
		}
		dst = append(dst, '{')
		var prev []byte
		for i := uint64(0); i < n; i++ {
			var key []byte
			if key, rest, err = encodedText(rest); err != nil {
				return dst, nil, err
			}
			if i > 0 {
				if view(key) <= view(prev) {
					return dst, nil, errUnsorted
				}
				dst = append(dst, ',')
			}
			prev = key
			dst = appendJSONString(dst, view(key))
			dst = append(dst, ':')
			if dst, rest, err = encodedJSON(dst, rest); err != nil {
				return dst, nil, err
			}
		}
		return append(dst, '}'), rest, nil
	}
	return encodedScalar(dst, b, true)
}

// encodedSetText appends an encoded set as SetText writes it.
func encodedSetText(dst, b []byte) ([]byte, []byte, error) {
	kind := Kind(b[0])
	n, rest, err := encodedCount(b[1:])
	if err != nil {
		return dst, nil, err
	}
	dst = append(dst, "<<"...)
	for i := uint64(0); i < n; i++ {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if len(rest) == 0 || Kind(rest[0]) > Map {
			return dst, nil, errCorrupt
		}
		var text []byte
		if text, rest, err = memberText(rest); err != nil {
			return dst, nil, err
		}
		switch kind {
		case NumberSet:
			dst = append(dst, NumberText(view(text))...)
		case BinarySet:
			dst = append(dst, '\'')
			dst = base64.StdEncoding.AppendEncode(dst, text)
			dst = append(dst, '\'')
		default:
			dst = append(dst, '\'')
			dst = appendDoubledQuotes(dst, text)
			dst = append(dst, '\'')
		}
	}
	return append(dst, ">>"...), rest, nil
}

// memberText reads one set member's text. SetText prints a member's text
// whatever its kind; a member that has none (which AppendBinary never
// writes in a set) is decoded by DecodeBinary's rules and prints as "".
func memberText(b []byte) (text, rest []byte, err error) {
	switch Kind(b[0]) {
	case String, Number, Binary:
		return encodedText(b[1:])
	}
	if _, rest, err = skipEncoded(b); err != nil {
		return nil, nil, err
	}
	return nil, rest, nil
}

// skipEncoded steps over one encoded value, checking it as DecodeBinary
// does.
func skipEncoded(b []byte) ([]byte, []byte, error) {
	_, rest, err := decode(b)
	return nil, rest, err
}

// appendDoubledQuotes appends s with each ' doubled, as a PartiQL string
// literal holds it.
func appendDoubledQuotes(dst, s []byte) []byte {
	for _, c := range s {
		dst = append(dst, c)
		if c == '\'' {
			dst = append(dst, '\'')
		}
	}
	return dst
}
