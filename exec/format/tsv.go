package format

import "io"

// tsvCodec writes tab-separated fields, escaping like MySQL's batch mode:
// backslash, tab, newline, carriage return and NUL become \\ \t \n \r \0.
type tsvCodec struct{}

func newTSVWriter(w io.Writer, opt Options) impl {
	return newDelimited(w, tsvCodec{}, "TSV", opt)
}

func (tsvCodec) separator() byte { return '\t' }

// loneEmpty: an empty line is a record of one empty field in tsv.
func (tsvCodec) loneEmpty() string { return "" }

func (tsvCodec) needsEscape(f []byte) bool {
	for _, c := range f {
		if tsvSpecial[c] {
			return true
		}
	}
	return false
}

// tsvSpecial marks the bytes tsvEscape rewrites.
var tsvSpecial = [256]bool{'\\': true, '\t': true, '\n': true, '\r': true, 0: true}

func (tsvCodec) appendEscaped(dst, f []byte) []byte {
	for _, c := range f {
		if e := tsvEscape(c); e != 0 {
			dst = append(dst, '\\', e)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// tsvEscape is the letter after the backslash that stands for c, 0 when c
// is written as it is.
func tsvEscape(c byte) byte {
	switch c {
	case '\\':
		return '\\'
	case '\t':
		return 't'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case 0:
		return '0'
	}
	return 0
}
