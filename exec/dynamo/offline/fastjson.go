package offline

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// fastItem decodes the common shape of a DynamoDB-JSON item straight into
// values (value.Value, as memdb.Loader.PutValues stores them) in one pass, which is what makes loading a million
// items take seconds (value.ParseItemJSON decodes each attribute twice
// through encoding/json). It is only a fast path: on anything unusual —
// invalid JSON, numbers written as JSON numbers or with exponents, set or
// NULL oddities, a wrapper with extra fields — it gives up (ok false) and
// the caller decodes with value.ParseItemJSON, which is exact and explains
// errors. When it succeeds its result equals ParseItemJSON's (up to the
// order of set members, which DynamoDB does not keep); fastjson_test.go
// checks that, also by fuzzing.
func fastItem(data []byte, unwrap bool, dst []memdb.NamedValue) ([]memdb.NamedValue, bool) {
	out, _, ok := fastItemNeeding(data, unwrap, nil, dst)
	return out, ok
}

// fastItemNeeding is fastItem decoding only the attributes need names
// (all of them when need is nil): the others are checked and sized by the
// skipper (skip.go) and counted in the Skipped it returns, or decoded when
// it cannot vouch for them.
func fastItemNeeding(data []byte, unwrap bool, need map[string]bool, dst []memdb.NamedValue) ([]memdb.NamedValue, memdb.Skipped, bool) {
	d := fastDecoder{data: data, need: need}
	if unwrap && bytes.HasPrefix(data, itemPrefix) {
		d.i = len(itemPrefix)
		out, ok := d.top(dst)
		if ok && d.byte('}') && d.end() {
			return out, d.skipped, true
		}
		return dst, memdb.Skipped{}, false
	}
	out, ok := d.top(dst)
	if ok && d.end() {
		return out, d.skipped, true
	}
	return dst, memdb.Skipped{}, false
}

type fastDecoder struct {
	data []byte
	i    int
	// need names the top-level attributes to decode (nil: all); the
	// others, when the skipper accepts them, are named in skippedNames
	// (the first nSkipped; past its size the rest are decoded) and
	// counted in skipped.
	need         map[string]bool
	skipped      memdb.Skipped
	skippedNames [maxSkippedAttrs][]byte
	nSkipped     int
}

// maxSkippedAttrs is how many top-level attributes of an item the skipper
// skips at most (their names are kept to find a repeated one).
const maxSkippedAttrs = 32

func (d *fastDecoder) ws() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// byte consumes c (after whitespace) if it is next.
func (d *fastDecoder) byte(c byte) bool {
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *fastDecoder) end() bool {
	d.ws()
	return d.i == len(d.data)
}

func (d *fastDecoder) literal(lit string) bool {
	d.ws()
	if bytes.HasPrefix(d.data[d.i:], []byte(lit)) {
		d.i += len(lit)
		return true
	}
	return false
}

// str reads a JSON string. Strings with escapes go through encoding/json.
func (d *fastDecoder) str() (string, bool) {
	d.ws()
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return "", false
	}
	start, high := d.i+1, false
	for j := start; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			s := d.data[start:j]
			if high && !utf8.Valid(s) {
				return "", false
			}
			d.i = j + 1
			return string(s), true
		case c == '\\':
			return d.escaped()
		case c < 0x20:
			return "", false
		case c >= 0x80:
			high = true
		}
	}
	return "", false
}

// escaped reads a string holding escapes, from its opening quote.
func (d *fastDecoder) escaped() (string, bool) {
	for j := d.i + 1; j < len(d.data); j++ {
		switch d.data[j] {
		case '\\':
			j++
		case '"':
			var s string
			if json.Unmarshal(d.data[d.i:j+1], &s) != nil || !utf8.Valid(d.data[d.i:j+1]) {
				return "", false
			}
			d.i = j + 1
			return s, true
		}
	}
	return "", false
}

// top reads an item's object of typed attribute values, appending them to
// dst. A name given twice is left to the slow path (which keeps the last).
func (d *fastDecoder) top(dst []memdb.NamedValue) ([]memdb.NamedValue, bool) {
	if !d.byte('{') {
		return dst, false
	}
	if d.byte('}') {
		return dst, true
	}
	start := len(dst)
	for {
		k, ok := d.name()
		if !ok || !d.byte(':') {
			return dst, false
		}
		if d.repeated(k, dst[start:]) {
			return dst, false
		}
		if !d.skipAttr(k) {
			v, ok := d.typed()
			if !ok {
				return dst, false
			}
			dst = append(dst, memdb.NamedValue{Name: string(k), Value: v})
		}
		if d.byte(',') {
			continue
		}
		return dst, d.byte('}')
	}
}

// name reads an attribute name: its bytes in data, or a decoded copy when
// it holds escapes.
func (d *fastDecoder) name() ([]byte, bool) {
	at := d.i
	if k, ok := d.rawStr(); ok {
		return k, true
	}
	d.i = at
	k, ok := d.str()
	return []byte(k), ok
}

// repeated reports whether the item already has an attribute named k.
func (d *fastDecoder) repeated(k []byte, decoded []memdb.NamedValue) bool {
	for _, prev := range decoded {
		if prev.Name == string(k) {
			return true
		}
	}
	for _, prev := range d.skippedNames[:d.nSkipped] {
		if bytes.Equal(prev, k) {
			return true
		}
	}
	return false
}

// skipAttr skips the value of the attribute named k when it is not needed
// and the skipper accepts it; otherwise it reads nothing.
func (d *fastDecoder) skipAttr(k []byte) bool {
	if d.need == nil || d.nSkipped == maxSkippedAttrs || d.need[string(k)] {
		return false
	}
	at := d.i
	s, ok := d.skip()
	if !ok {
		d.i = at
		return false
	}
	d.skipped.Add(len(k), s)
	d.skippedNames[d.nSkipped] = k
	d.nSkipped++
	return true
}

// attrs reads an object of typed attribute values: an M.
func (d *fastDecoder) attrs() (map[string]value.Value, bool) {
	if !d.byte('{') {
		return nil, false
	}
	m := make(map[string]value.Value, 8)
	if d.byte('}') {
		return m, true
	}
	for {
		k, ok := d.str()
		if !ok || !d.byte(':') {
			return nil, false
		}
		v, ok := d.typed()
		if !ok {
			return nil, false
		}
		m[k] = v
		if d.byte(',') {
			continue
		}
		return m, d.byte('}')
	}
}

// typed reads one attribute value: an object with exactly one type tag.
// Numbers are canonical (fastNumber); set members keep their order, so
// memdb's duplicate messages list them as written.
func (d *fastDecoder) typed() (value.Value, bool) {
	var v value.Value
	if !d.byte('{') {
		return v, false
	}
	tag, ok := d.str()
	if !ok || !d.byte(':') {
		return v, false
	}
	switch tag {
	case "S":
		var s string
		s, ok = d.str()
		v = value.Str(s)
	case "N":
		var n string
		n, ok = d.number()
		v = value.NumTrusted(n)
	case "B":
		var b []byte
		b, ok = d.binary()
		v = value.Bin(b)
	case "BOOL":
		switch {
		case d.literal("true"):
			v = value.BoolOf(true)
		case d.literal("false"):
			v = value.BoolOf(false)
		default:
			ok = false
		}
	case "NULL":
		ok = d.literal("true")
		v = value.NullValue()
	case "M":
		var m map[string]value.Value
		m, ok = d.attrs()
		v = value.MapOf(m)
	case "L":
		l := []value.Value{}
		ok = d.list(func() bool {
			e, ok := d.typed()
			l = append(l, e)
			return ok
		})
		v = value.ListOf(l)
	case "SS":
		var ss []value.Value
		ok = d.list(func() bool {
			s, ok := d.str()
			ss = append(ss, value.Str(s))
			return ok
		})
		if len(ss) == 0 {
			return value.Value{}, false // an empty set: the full decoder explains the error
		}
		v = value.SetOf(value.StringSet, ss)
	case "NS":
		var ns []value.Value
		ok = d.list(func() bool {
			n, ok := d.number()
			ns = append(ns, value.NumTrusted(n))
			return ok
		})
		if len(ns) == 0 {
			return value.Value{}, false // an empty set: the full decoder explains the error
		}
		v = value.SetOf(value.NumberSet, ns)
	case "BS":
		var bs []value.Value
		ok = d.list(func() bool {
			b, ok := d.binary()
			bs = append(bs, value.Bin(b))
			return ok
		})
		if len(bs) == 0 {
			return value.Value{}, false // an empty set: the full decoder explains the error
		}
		v = value.SetOf(value.BinarySet, bs)
	default:
		return v, false
	}
	if !ok || !d.byte('}') {
		return value.Value{}, false
	}
	return v, true
}

// list reads a JSON array, calling elem for each element.
func (d *fastDecoder) list(elem func() bool) bool {
	if !d.byte('[') {
		return false
	}
	if d.byte(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if d.byte(',') {
			continue
		}
		return d.byte(']')
	}
}

func (d *fastDecoder) number() (string, bool) {
	s, ok := d.str()
	if !ok {
		return "", false
	}
	return fastNumber(s)
}

func (d *fastDecoder) binary() ([]byte, bool) {
	s, ok := d.str()
	if !ok {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(s)
	return b, err == nil
}

// fastNumber canonicalises plain decimal text of at most 40 bytes the way
// value.CanonicalNumber does ("-012.50" -> "-12.5", "-0.0" -> "0"); it
// leaves exponents, signs other than '-', and long or over-precise numbers
// to value.CanonicalNumber.
func fastNumber(s string) (string, bool) {
	if len(s) == 0 || len(s) > 40 {
		return "", false
	}
	neg := s[0] == '-'
	body := s
	if neg {
		body = s[1:]
	}
	whole, frac, dot := strings.Cut(body, ".")
	if whole == "" || (dot && frac == "") || !digitsOnly(whole) || !digitsOnly(frac) {
		return "", false
	}
	written, writtenFrac := whole, frac
	whole, frac = strings.TrimLeft(whole, "0"), strings.TrimRight(frac, "0")
	if whole == "" && frac == "" {
		return "0", true
	}
	significant := len(whole) + len(frac)
	if whole == "" {
		significant = len(strings.TrimLeft(frac, "0"))
	}
	if significant > ddblimits.NumberDigits {
		return "", false
	}
	if (whole == written || (written == "0" && whole == "")) && frac == writtenFrac && (!dot || frac != "") {
		return s, true // already canonical (the usual case): no copy
	}
	out := whole
	if out == "" {
		out = "0"
	}
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out, true
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
