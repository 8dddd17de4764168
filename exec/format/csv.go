package format

import (
	"bytes"
	"io"
	"unicode"
	"unicode/utf8"
)

// csvCodec writes RFC 4180 fields exactly as encoding/csv's Writer does
// (comma, LF line ends), appending to the record's bytes instead of
// taking a []string, so cells go from the columns to the output with no
// string per cell.
type csvCodec struct{}

func newCSVWriter(w io.Writer, opt Options) impl {
	return newDelimited(w, csvCodec{}, "CSV", opt)
}

func (csvCodec) separator() byte { return ',' }

// loneEmpty: encoding/csv writes a record of one empty field as a blank
// line, which CSV readers (encoding/csv, Python's csv, spreadsheets) skip,
// so a one-column result's NULL and empty-string rows would vanish;
// quoted, the line holds one empty field (what Python's csv module writes).
func (csvCodec) loneEmpty() string { return `""` }

// needsEscape is encoding/csv's rule: quote a field that holds the comma, a
// quote, CR or LF, that begins with a space (any Unicode space), or that is
// exactly `\.` (which PostgreSQL's COPY reads as the end of the data).
func (csvCodec) needsEscape(f []byte) bool {
	if len(f) == 0 {
		return false
	}
	if len(f) == 2 && f[0] == '\\' && f[1] == '.' {
		return true
	}
	for _, c := range f {
		if csvSpecial[c] {
			return true
		}
	}
	if f[0] < utf8.RuneSelf {
		return unicode.IsSpace(rune(f[0]))
	}
	r, _ := utf8.DecodeRune(f)
	return unicode.IsSpace(r)
}

// appendEscaped quotes the field and doubles its quotes; CR and LF stay as
// they are (encoding/csv without UseCRLF).
// It copies the runs between quotes whole: rendered documents (JSON text,
// full of quotes) are the longest fields a report writes.
func (csvCodec) appendEscaped(dst, f []byte) []byte {
	dst = append(dst, '"')
	for {
		i := bytes.IndexByte(f, '"')
		if i < 0 {
			break
		}
		dst = append(dst, f[:i+1]...)
		dst = append(dst, '"')
		f = f[i+1:]
	}
	dst = append(dst, f...)
	return append(dst, '"')
}

// csvSpecial marks the bytes that make a field need quoting wherever they
// are: one table lookup per byte instead of four comparisons.
var csvSpecial = [256]bool{',': true, '"': true, '\r': true, '\n': true}
