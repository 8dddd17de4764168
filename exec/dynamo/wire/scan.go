package wire

import (
	"encoding/binary"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Error is why the decoder refused a body: a syntax error, or JSON that is
// valid but outside the shapes the decoder handles itself (then the SDK's
// own deserializer decides, see Reader). Offset is a byte offset into the
// body.
type Error struct {
	Offset int
	Msg    string
	// Unsupported is set for well-formed input the fast decoder leaves to
	// the SDK (a NULL-valued member, a duplicate attribute, a number sent as
	// a JSON number, ...).
	Unsupported bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("wire: byte %d: %s", e.Offset, e.Msg)
}

func (d *decoder) fail(format string, args ...any) error {
	return &Error{Offset: d.i, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) unsupported(format string, args ...any) error {
	return &Error{Offset: d.i, Msg: fmt.Sprintf(format, args...), Unsupported: true}
}

// ws skips JSON whitespace.
func (d *decoder) ws() {
	b, i := d.b, d.i
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	d.i = i
}

// peek returns the next non-space byte (0 at the end) without consuming it.
func (d *decoder) peek() byte {
	d.ws()
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// expect consumes c after optional whitespace.
func (d *decoder) expect(c byte) error {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return nil
	}
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return nil
	}
	if d.i >= len(d.b) {
		return d.fail("unexpected end of body, want %q", c)
	}
	return d.fail("unexpected %q, want %q", d.b[d.i], c)
}

// SWAR helpers: find '"', '\\' or a control byte eight bytes at a time.
const (
	lo8 = uint64(0x0101010101010101)
	hi8 = uint64(0x8080808080808080)
)

func hasByte(v uint64, c byte) uint64 {
	x := v ^ (lo8 * uint64(c))
	return (x - lo8) & ^x & hi8
}

func hasLess(v uint64, n byte) uint64 { return (v - lo8*uint64(n)) & ^v & hi8 }

// rawString consumes a JSON string (d.i at the opening quote, after
// whitespace) and returns its raw contents between the quotes and whether
// it holds escapes. Escapes are validated the way the SDK's parser does;
// control bytes are errors.
func (d *decoder) rawString() (raw []byte, escaped bool, err error) {
	b := d.b
	if d.i >= len(b) || b[d.i] != '"' {
		if d.i >= len(b) {
			return nil, false, d.fail("unexpected end of body, want a string")
		}
		return nil, false, d.fail("unexpected %q, want a string", b[d.i])
	}
	start := d.i + 1
	i := start
	for i+8 <= len(b) {
		v := binary.LittleEndian.Uint64(b[i:])
		if hasLess(v, 0x20)|hasByte(v, '"')|hasByte(v, '\\') != 0 {
			break
		}
		i += 8
	}
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			d.i = i + 1
			return b[start:i], escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				d.i = i
				return nil, false, d.fail("unterminated escape")
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					d.i = i
					return nil, false, d.fail("invalid \\u escape")
				}
				i += 6
			default:
				d.i = i
				return nil, false, d.fail("invalid escape \\%c", b[i+1])
			}
		case c < 0x20:
			d.i = i
			return nil, false, d.fail("control character 0x%02x in a string", c)
		default:
			i++
		}
	}
	d.i = start - 1
	return nil, false, d.fail("unterminated string")
}

func isHex4(h []byte) bool {
	for _, c := range h {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// str consumes a string and returns its value: the raw bytes when it has no
// escapes (the SDK keeps those bytes as they are), else the unescaped text in
// scratch (valid only until the next call that uses scratch).
func (d *decoder) str() ([]byte, error) {
	raw, esc, err := d.rawString()
	if err != nil || !esc {
		return raw, err
	}
	d.unq = appendUnquoted(d.unq[:0], raw)
	return d.unq, nil
}

// appendUnquoted appends the value of raw (validated string contents with
// escapes) to dst exactly as encoding/json's unquote does (which the SDK's
// deserializer copies): invalid UTF-8 and unpaired surrogates become U+FFFD.
func appendUnquoted(dst, raw []byte) []byte {
	for r := 0; r < len(raw); {
		c := raw[r]
		switch {
		case c == '\\':
			switch raw[r+1] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				rr := getu4(raw[r:])
				r += 6
				if utf16.IsSurrogate(rr) {
					if rr1 := getu4(raw[r:]); rr1 >= 0 {
						if dec := utf16.DecodeRune(rr, rr1); dec != unicode.ReplacementChar {
							r += 6
							dst = utf8.AppendRune(dst, dec)
							continue
						}
					}
					rr = unicode.ReplacementChar
				}
				dst = utf8.AppendRune(dst, rr)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, raw[r+1])
			}
			r += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			r++
		default:
			rr, size := utf8.DecodeRune(raw[r:])
			r += size
			dst = utf8.AppendRune(dst, rr)
		}
	}
	return dst
}

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// literal consumes true or false.
func (d *decoder) boolean() (bool, error) {
	b := d.b[d.i:]
	if len(b) >= 4 && string(b[:4]) == "true" {
		d.i += 4
		return true, nil
	}
	if len(b) >= 5 && string(b[:5]) == "false" {
		d.i += 5
		return false, nil
	}
	if len(b) >= 4 && string(b[:4]) == "null" {
		return false, d.unsupported("null where a boolean was expected")
	}
	return false, d.fail("want true or false")
}

// maxSkipDepth bounds nesting in skipped values (the SDK allows 10,000).
const maxSkipDepth = 10_000

// skip consumes and validates any JSON value (after whitespace).
func (d *decoder) skip(depth int) error {
	if depth > maxSkipDepth {
		return d.fail("nesting too deep")
	}
	switch c := d.peek(); c {
	case '"':
		_, _, err := d.rawString()
		return err
	case '{':
		d.i++
		if d.peek() == '}' {
			d.i++
			return nil
		}
		for {
			d.ws()
			if _, _, err := d.rawString(); err != nil {
				return err
			}
			if err := d.expect(':'); err != nil {
				return err
			}
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			switch d.peek() {
			case ',':
				d.i++
			case '}':
				d.i++
				return nil
			default:
				return d.fail("want ',' or '}' in an object")
			}
		}
	case '[':
		d.i++
		if d.peek() == ']' {
			d.i++
			return nil
		}
		for {
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			switch d.peek() {
			case ',':
				d.i++
			case ']':
				d.i++
				return nil
			default:
				return d.fail("want ',' or ']' in an array")
			}
		}
	case 't', 'f':
		_, err := d.boolean()
		return err
	case 'n':
		if len(d.b)-d.i >= 4 && string(d.b[d.i:d.i+4]) == "null" {
			d.i += 4
			return nil
		}
		return d.fail("invalid literal")
	case 0:
		return d.fail("unexpected end of body")
	default:
		return d.number()
	}
}

// number consumes a JSON number with the SDK parser's grammar.
func (d *decoder) number() error {
	b, i := d.b, d.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == start {
		return d.fail("invalid value")
	}
	if b[start] == '0' && i-start > 1 {
		return d.fail("leading zeros in a number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == s {
			return d.fail("no digits after a decimal point")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == s {
			return d.fail("no digits in an exponent")
		}
	}
	d.i = i
	return nil
}
