package offline

import (
	"bytes"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// Attributes a streamed Scan does not need (neither its projection, its
// filter nor the table's keys name them) are not decoded: the skipper
// checks them as PutItem would and sizes them (memdb.Sizes), building no
// value. It is conservative: it accepts only plain strings (no escapes),
// numbers fastNumber reads, BOOL, NULL and lists and maps of those; for
// anything else (sets, binary, escapes, a map naming a member twice) it
// says no and the attribute is decoded as usual, so its checks and errors
// are exactly the full decoder's.

// maxSkippedMembers bounds the members of a map the skipper checks for
// repeated names (quadratic); larger maps are decoded.
const maxSkippedMembers = 32

// skip reads one attribute value without building it.
func (d *fastDecoder) skip() (memdb.Sizes, bool) {
	if !d.byte('{') {
		return memdb.Sizes{}, false
	}
	tag, ok := d.rawStr()
	if !ok || !d.byte(':') || len(tag) == 0 {
		return memdb.Sizes{}, false
	}
	var s memdb.Sizes
	switch string(tag) {
	case "S":
		var b []byte
		b, ok = d.rawStr()
		s = memdb.StringSizes(len(b))
	case "N":
		var b []byte
		if b, ok = d.rawStr(); ok {
			var canon string
			if canon, ok = fastNumber(string(b)); ok {
				s, ok = memdb.NumberSizes(canon)
			}
		}
	case "BOOL":
		ok = d.literal("true") || d.literal("false")
		s = memdb.BoolSizes()
	case "NULL":
		ok = d.literal("true")
		s = memdb.NullSizes()
	case "L":
		l := memdb.NewListSizes()
		ok = d.list(func() bool {
			e, ok := d.skip()
			l.Add(e)
			return ok
		})
		s = l.Sizes()
	case "M":
		s, ok = d.skipMap()
	default:
		return memdb.Sizes{}, false
	}
	if !ok || !d.byte('}') {
		return memdb.Sizes{}, false
	}
	return s, true
}

// skipMap reads an M's object of members without building it.
func (d *fastDecoder) skipMap() (memdb.Sizes, bool) {
	if !d.byte('{') {
		return memdb.Sizes{}, false
	}
	m := memdb.NewMapSizes()
	if d.byte('}') {
		return m.Sizes(), true
	}
	var names [maxSkippedMembers][]byte
	for n := 0; ; n++ {
		k, ok := d.rawStr()
		if !ok || n == maxSkippedMembers || !d.byte(':') {
			return memdb.Sizes{}, false
		}
		for _, prev := range names[:n] {
			if bytes.Equal(prev, k) {
				return memdb.Sizes{}, false
			}
		}
		names[n] = k
		v, ok := d.skip()
		if !ok {
			return memdb.Sizes{}, false
		}
		m.Add(len(k), v)
		if d.byte(',') {
			continue
		}
		return m.Sizes(), d.byte('}')
	}
}

// rawStr reads a JSON string without escapes and returns its bytes (in
// data, not copied); a string with escapes or invalid UTF-8 is refused.
func (d *fastDecoder) rawStr() ([]byte, bool) {
	d.ws()
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return nil, false
	}
	start, high := d.i+1, false
	for j := start; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			s := d.data[start:j]
			if high && !utf8.Valid(s) {
				return nil, false
			}
			d.i = j + 1
			return s, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			high = true
		}
	}
	return nil, false
}
