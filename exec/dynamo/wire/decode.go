package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Page is the result of decoding one Query or Scan response body.
type Page struct {
	// Batch holds the page's items. It is nil when the body has no Items
	// member (a Select=COUNT page). The caller owns it.
	Batch arrow.RecordBatch
	// ItemsStart and ItemsEnd delimit the Items member's value in the body
	// (both 0 when there is none); Strip uses them.
	ItemsStart, ItemsEnd int
}

// Release releases the page's batch.
func (p *Page) Release() {
	if p.Batch != nil {
		p.Batch.Release()
		p.Batch = nil
	}
}

// DecodePage decodes a Query or Scan response body: the Items member
// straight into one Arrow batch with a column per attribute present (key
// attributes first, in keys order, then the rest in byte order), encoded as
// package columnar encodes values. Every other member is validated and
// skipped. On error nothing is returned and nothing is left allocated.
func DecodePage(body []byte, mem memory.Allocator, keys []string) (Page, error) {
	d := getDecoder()
	defer putDecoder(d)
	return d.decode(body, mem, keys)
}

// Strip replaces the Items member's value in place with [] and returns the
// shortened body, which the SDK's deserializer then reads for everything
// else (Count, ScannedCount, LastEvaluatedKey, ConsumedCapacity).
func Strip(body []byte, p Page) []byte {
	if p.ItemsEnd == 0 {
		return body
	}
	const empty = "[]"
	n := copy(body[p.ItemsStart+len(empty):], body[p.ItemsEnd:])
	copy(body[p.ItemsStart:], empty)
	return body[:p.ItemsStart+len(empty)+n]
}

// decoder holds the scratch state of one decode; pooled.
type decoder struct {
	b []byte
	i int

	rows   int
	gen    uint32
	cols   []*column
	names  nameTable
	quick  [quickSize]int32 // slot+1 by quickIndex
	active []int32          // columns of the current page, first-seen order

	spans   []span  // entries of the maps and sets being encoded
	tmp     []byte  // scratch for re-encoding and sorting
	tmpOffs []int32 // scratch offsets
	src     *stream // the body while it arrives (nil: b is all of it)
	unq     []byte  // unescaped strings
	bin     []byte  // decoded base64
	name    []byte  // unescaped attribute names
}

var decoders = sync.Pool{New: func() any { return &decoder{} }}

// maxColumnSlots bounds the attribute names a pooled decoder remembers.
const maxColumnSlots = 4096

func getDecoder() *decoder { return decoders.Get().(*decoder) }

func putDecoder(d *decoder) {
	d.b = nil
	if len(d.cols) > maxColumnSlots {
		d.cols, d.names, d.quick = nil, nameTable{}, [quickSize]int32{}
	}
	decoders.Put(d)
}

// startRows begins a new set of columns (a page).
func (d *decoder) startRows() {
	d.rows = 0
	d.gen++
	d.active = d.active[:0]
}

func (d *decoder) decode(body []byte, mem memory.Allocator, keys []string) (p Page, err error) {
	d.b, d.i = body, 0
	d.startRows()
	defer func() {
		if r := recover(); r != nil {
			// Release what was decoded so far, then go on panicking:
			// the goroutine's Safely reports it.
			p.Release()
			panic(r)
		}
		if err != nil {
			p.Release()
			p = Page{}
		}
	}()
	if err := d.expect('{'); err != nil {
		return p, err
	}
	if d.peek() == '}' {
		d.i++
		return p, nil
	}
	seen := false
	for {
		d.more(d.i + streamMargin)
		d.ws()
		key, esc, err := d.rawString()
		if err != nil {
			return p, err
		}
		if esc {
			// The SDK matches member names after unescaping; leave such
			// bodies to it rather than guess.
			return p, d.unsupported("escaped member name")
		}
		if err := d.expect(':'); err != nil {
			return p, err
		}
		if string(key) == "Items" {
			if seen {
				return p, d.unsupported("%s appears twice", key)
			}
			seen = true
			d.ws()
			p.ItemsStart = d.i
			if err := d.items(); err != nil {
				return p, err
			}
			p.Batch = d.build(mem, keys)
			p.ItemsEnd = d.i
		} else if err := d.skip(1); err != nil {
			return p, err
		}
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return p, nil
		default:
			return p, d.fail("want ',' or '}' after a member")
		}
	}
}

// items decodes the Items array.
func (d *decoder) items() error {
	if d.i < len(d.b) && d.b[d.i] == 'n' {
		return d.unsupported("Items is null")
	}
	if err := d.expect('['); err != nil {
		return err
	}
	if d.peek() == ']' {
		d.i++
		return nil
	}
	for {
		d.more(d.i + streamMargin)
		if err := d.item(); err != nil {
			return err
		}
		d.rows++
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return nil
		default:
			return d.fail("want ',' or ']' after an item")
		}
	}
}

// itemHook, when set (by tests), is called before each item is decoded:
// it injects faults into the decoder where a bug would hit.
var itemHook atomic.Pointer[func()]

// item decodes one item into the columns.
func (d *decoder) item() error {
	if h := itemHook.Load(); h != nil {
		(*h)()
	}
	if d.peek() == 'n' {
		return d.unsupported("null item")
	}
	if err := d.expect('{'); err != nil {
		return err
	}
	if d.peek() == '}' {
		d.i++
		return nil
	}
	row := d.rows
	for {
		d.ws()
		raw, esc, err := d.rawString()
		if err != nil {
			return err
		}
		if esc {
			d.name = appendUnquoted(d.name[:0], raw)
			raw = d.name
		}
		c := d.column(raw)
		if c.n > row {
			return d.unsupported("attribute %q appears twice in an item", raw)
		}
		c.pad(row)
		if err := d.expect(':'); err != nil {
			return err
		}
		if err := d.attr(c); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return nil
		default:
			return d.fail("want ',' or '}' in an item")
		}
	}
}

// column finds (or makes) the column for an attribute name and makes sure
// it belongs to the current page.
func (d *decoder) column(name []byte) *column {
	// A direct-mapped cache on (length, first and last byte) answers most
	// lookups with one comparison; the hash table answers the rest.
	q := quickIndex(name)
	var c *column
	if s := d.quick[q]; s > 0 && d.cols[s-1].name == string(name) {
		c = d.cols[s-1]
	} else {
		slot := d.names.find(d.cols, name)
		if slot < 0 {
			slot = int32(len(d.cols))
			d.cols = append(d.cols, &column{name: string(name), slot: slot})
			d.names.insert(d.cols, slot)
		}
		d.quick[q] = slot + 1
		c = d.cols[slot]
	}
	if c.gen != d.gen {
		c.reset(d.gen)
		d.active = append(d.active, c.slot)
	}
	return c
}

func quickIndex(name []byte) uint {
	if len(name) == 0 {
		return 0
	}
	return (uint(len(name))*131 + uint(name[0])*7 + uint(name[len(name)-1])) & (quickSize - 1)
}

const quickSize = 512

// nameTable maps attribute names to column slots: open addressing over a
// cheap hash of the name's bytes, cheaper than a Go map keyed by string for
// the ~15 lookups every item needs.
type nameTable struct {
	slots []int32 // slot+1; 0 is empty
	n     int
}

func nameHash(b []byte) uint64 {
	h := uint64(len(b)) * 0x9e3779b97f4a7c15
	if len(b) >= 8 {
		h ^= binary.LittleEndian.Uint64(b)
		h *= 0xff51afd7ed558ccd
		h ^= binary.LittleEndian.Uint64(b[len(b)-8:])
	} else {
		for _, c := range b {
			h = (h ^ uint64(c)) * 0x100000001b3
		}
	}
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>29
}

// find returns the slot of name, or -1.
func (t *nameTable) find(cols []*column, name []byte) int32 {
	if len(t.slots) == 0 {
		return -1
	}
	mask := uint64(len(t.slots) - 1)
	for i := nameHash(name) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return -1
		}
		if cols[s-1].name == string(name) {
			return s - 1
		}
	}
}

func (t *nameTable) insert(cols []*column, slot int32) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]int32, max(64, 2*len(old)))
		t.n = 0
		for _, s := range old {
			if s != 0 {
				t.insert(cols, s-1)
			}
		}
	}
	mask := uint64(len(t.slots) - 1)
	i := nameHash([]byte(cols[slot].name)) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = slot + 1
	t.n++
}

var oneLetterTag = [256]int{'S': tagS, 'N': tagN, 'B': tagB, 'M': tagM, 'L': tagL}

// Type tags.
const (
	tagS = iota + 1
	tagN
	tagB
	tagBOOL
	tagNULL
	tagM
	tagL
	tagSS
	tagNS
	tagBS
)

// tag reads `{"T":` and returns T's code.
func (d *decoder) tag() (int, error) {
	// Fast path: the compact form DynamoDB sends.
	if b, i := d.b, d.i; i+8 < len(b) && b[i] == '{' && b[i+1] == '"' {
		t, n := 0, 0
		switch {
		case b[i+3] == '"' && b[i+4] == ':':
			t, n = oneLetterTag[b[i+2]], 5
		case b[i+4] == '"' && b[i+5] == ':' && b[i+3] == 'S':
			switch b[i+2] {
			case 'S':
				t = tagSS
			case 'N':
				t = tagNS
			case 'B':
				t = tagBS
			}
			n = 6
		case b[i+6] == '"' && b[i+7] == ':':
			switch string(b[i+2 : i+6]) {
			case "BOOL":
				t = tagBOOL
			case "NULL":
				t = tagNULL
			}
			n = 8
		}
		if t != 0 {
			d.i = i + n
			if d.peek() == 'n' {
				return 0, d.unsupported("null attribute value member")
			}
			return t, nil
		}
	}
	if d.peek() == 'n' {
		return 0, d.unsupported("null attribute value")
	}
	if err := d.expect('{'); err != nil {
		return 0, err
	}
	d.ws()
	raw, esc, err := d.rawString()
	if err != nil {
		if d.i < len(d.b) && d.b[d.i] == '}' {
			return 0, d.unsupported("empty attribute value")
		}
		return 0, err
	}
	if esc {
		return 0, d.unsupported("escaped type name")
	}
	t := 0
	switch string(raw) {
	case "S":
		t = tagS
	case "N":
		t = tagN
	case "B":
		t = tagB
	case "BOOL":
		t = tagBOOL
	case "NULL":
		t = tagNULL
	case "M":
		t = tagM
	case "L":
		t = tagL
	case "SS":
		t = tagSS
	case "NS":
		t = tagNS
	case "BS":
		t = tagBS
	default:
		return 0, d.unsupported("unknown attribute type %q", raw)
	}
	if err := d.expect(':'); err != nil {
		return 0, err
	}
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == 'n' {
		return 0, d.unsupported("null %s", raw)
	}
	return t, nil
}

// endAttr consumes the '}' closing an attribute value.
func (d *decoder) endAttr() error {
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return nil
	}
	switch d.peek() {
	case '}':
		d.i++
		return nil
	case ',':
		return d.unsupported("attribute value with more than one member")
	}
	return d.fail("want '}' after an attribute value")
}

// attr decodes one top-level attribute value into its column.
func (d *decoder) attr(c *column) error {
	t, err := d.tag()
	if err != nil {
		return err
	}
	switch t {
	case tagS:
		s, err := d.str()
		if err != nil {
			return err
		}
		c.putString(d, s)
	case tagN:
		text, iv, isInt, err := d.num()
		if err != nil {
			return err
		}
		c.putNumber(d, text, iv, isInt)
	case tagBOOL:
		v, err := d.boolean()
		if err != nil {
			return err
		}
		c.putBool(d, v)
	case tagB:
		b, err := d.blob()
		if err != nil {
			return err
		}
		c.putBinary(d, b)
	default:
		c.beginValue(d)
		if c.data, err = d.body(c.data, t, 1); err != nil {
			return err
		}
		c.endVar()
	}
	return d.endAttr()
}

// num reads an N value's string and returns its canonical text.
func (d *decoder) num() (text []byte, iv int64, isInt bool, err error) {
	if d.i < len(d.b) && d.b[d.i] != '"' {
		return nil, 0, false, d.unsupported("number not sent as a string")
	}
	s, err := d.str()
	if err != nil {
		return nil, 0, false, err
	}
	iv, isInt, ok := canonNumber(s)
	if ok {
		return s, iv, isInt, nil
	}
	canon, cerr := value.CanonicalNumber(string(s))
	if cerr != nil {
		return nil, 0, false, d.unsupported("invalid number: %v", cerr)
	}
	iv, isInt, _ = canonNumber([]byte(canon))
	return []byte(canon), iv, isInt, nil
}

// blob reads a B value's base64 string and returns the bytes (in scratch).
func (d *decoder) blob() ([]byte, error) {
	s, err := d.str()
	if err != nil {
		return nil, err
	}
	n := base64.StdEncoding.DecodedLen(len(s))
	d.bin = slices.Grow(d.bin[:0], n)[:n]
	w, err := base64.StdEncoding.Decode(d.bin, s)
	if err != nil {
		return nil, d.unsupported("invalid base64: %v", err)
	}
	return d.bin[:w], nil
}

// maxDepth bounds document nesting the decoder handles itself (DynamoDB
// allows 32 levels).
const maxDepth = 64

// value appends value.AppendBinary's encoding of one attribute value
// `{"T": ...}` to dst.
func (d *decoder) value(dst []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return dst, d.unsupported("documents nested too deeply")
	}
	t, err := d.tag()
	if err != nil {
		return dst, err
	}
	switch t {
	case tagS:
		s, err := d.str()
		if err != nil {
			return dst, err
		}
		dst = appendScalar(dst, value.String, s)
	case tagN:
		text, _, _, err := d.num()
		if err != nil {
			return dst, err
		}
		dst = appendScalar(dst, value.Number, text)
	case tagB:
		b, err := d.blob()
		if err != nil {
			return dst, err
		}
		dst = appendScalar(dst, value.Binary, b)
	case tagBOOL:
		v, err := d.boolean()
		if err != nil {
			return dst, err
		}
		dst = append(dst, byte(value.Bool), boolByte(v))
	default:
		if dst, err = d.body(dst, t, depth); err != nil {
			return dst, err
		}
	}
	return dst, d.endAttr()
}

// body appends the encoding of a NULL, M, L or set value whose tag has been
// read.
func (d *decoder) body(dst []byte, t, depth int) ([]byte, error) {
	switch t {
	case tagNULL:
		if _, err := d.boolean(); err != nil {
			return dst, err
		}
		return append(dst, byte(value.Null)), nil
	case tagL:
		return d.list(dst, depth)
	case tagM:
		return d.docMap(dst, depth)
	case tagSS:
		return d.set(dst, value.StringSet, depth)
	case tagNS:
		return d.set(dst, value.NumberSet, depth)
	case tagBS:
		return d.set(dst, value.BinarySet, depth)
	}
	return dst, d.fail("internal: bad tag")
}

// putCount writes a uvarint count at dst[at] where one byte was reserved,
// moving what follows when the count needs more bytes.
func putCount(dst []byte, at int, n int) []byte {
	if n < 0x80 {
		dst[at] = byte(n)
		return dst
	}
	var tmp [10]byte
	w := 0
	for x := uint64(n); ; {
		if x < 0x80 {
			tmp[w] = byte(x)
			w++
			break
		}
		tmp[w] = byte(x) | 0x80
		x >>= 7
		w++
	}
	old := len(dst)
	dst = slices.Grow(dst, w-1)[:old+w-1]
	copy(dst[at+w:], dst[at+1:old])
	copy(dst[at:], tmp[:w])
	return dst
}

func (d *decoder) list(dst []byte, depth int) ([]byte, error) {
	if err := d.expect('['); err != nil {
		return dst, err
	}
	dst = append(dst, byte(value.List), 0)
	at := len(dst) - 1
	if d.peek() == ']' {
		d.i++
		return dst, nil
	}
	n := 0
	for {
		var err error
		if dst, err = d.value(dst, depth+1); err != nil {
			return dst, err
		}
		n++
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return putCount(dst, at, n), nil
		default:
			return dst, d.fail("want ',' or ']' in a list")
		}
	}
}

// span is one encoded map entry or set member inside dst: the entry runs
// from start to end; its sort key is dst[kStart:kEnd].
type span struct {
	start, end, kStart, kEnd int32
}

func (d *decoder) docMap(dst []byte, depth int) ([]byte, error) {
	if err := d.expect('{'); err != nil {
		return dst, err
	}
	dst = append(dst, byte(value.Map), 0)
	at := len(dst) - 1
	if d.peek() == '}' {
		d.i++
		return dst, nil
	}
	base := len(d.spans)
	defer func() { d.spans = d.spans[:base] }()
	for {
		d.ws()
		raw, esc, err := d.rawString()
		if err != nil {
			return dst, err
		}
		if esc {
			d.name = appendUnquoted(d.name[:0], raw)
			raw = d.name
		}
		if err := d.expect(':'); err != nil {
			return dst, err
		}
		start := len(dst)
		dst = appendUvarint(dst, len(raw))
		kStart := len(dst)
		dst = append(dst, raw...)
		kEnd := len(dst)
		if dst, err = d.value(dst, depth+1); err != nil {
			return dst, err
		}
		d.spans = append(d.spans, span{int32(start), int32(len(dst)), int32(kStart), int32(kEnd)})
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			entries := d.spans[base:]
			var err error
			if dst, err = d.sortEntries(dst, at+1, entries, value.Map); err != nil {
				return dst, err
			}
			return putCount(dst, at, len(entries)), nil
		default:
			return dst, d.fail("want ',' or '}' in a map")
		}
	}
}

func appendUvarint(dst []byte, n int) []byte {
	for n >= 0x80 {
		dst = append(dst, byte(n)|0x80)
		n >>= 7
	}
	return append(dst, byte(n))
}

// set appends an SS, NS or BS value: members encoded as S/N/B values,
// sorted in value.Order as value.FromAttributeValue sorts them.
func (d *decoder) set(dst []byte, kind value.Kind, depth int) ([]byte, error) {
	if err := d.expect('['); err != nil {
		return dst, err
	}
	dst = append(dst, byte(kind), 0)
	at := len(dst) - 1
	if d.peek() == ']' {
		d.i++
		return dst, nil
	}
	base := len(d.spans)
	defer func() { d.spans = d.spans[:base] }()
	member := value.MemberKind(kind)
	for {
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == 'n' {
			return dst, d.unsupported("null set member")
		}
		var text []byte
		var err error
		switch kind {
		case value.StringSet:
			text, err = d.str()
		case value.NumberSet:
			text, _, _, err = d.num()
		default:
			text, err = d.blob()
		}
		if err != nil {
			return dst, err
		}
		start := len(dst)
		dst = append(dst, byte(member))
		dst = appendUvarint(dst, len(text))
		kStart := len(dst)
		dst = append(dst, text...)
		d.spans = append(d.spans, span{int32(start), int32(len(dst)), int32(kStart), int32(len(dst))})
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			members := d.spans[base:]
			if dst, err = d.sortEntries(dst, at+1, members, kind); err != nil {
				return dst, err
			}
			return putCount(dst, at, len(members)), nil
		default:
			return dst, d.fail("want ',' or ']' in a set")
		}
	}
}

// sortEntries reorders the entries (which fill dst[from:]) by key: map
// entries and string/binary members byte-wise, numbers numerically. A map
// with a repeated key is left to the SDK.
func (d *decoder) sortEntries(dst []byte, from int, entries []span, kind value.Kind) ([]byte, error) {
	cmp := func(a, b span) int { return bytes.Compare(dst[a.kStart:a.kEnd], dst[b.kStart:b.kEnd]) }
	if kind == value.NumberSet {
		cmp = func(a, b span) int { return compareCanon(dst[a.kStart:a.kEnd], dst[b.kStart:b.kEnd]) }
	}
	sorted := true
	for i := 1; i < len(entries); i++ {
		c := cmp(entries[i-1], entries[i])
		if c > 0 {
			sorted = false
			break
		}
		if c == 0 && kind == value.Map {
			return dst, d.unsupported("repeated map key")
		}
	}
	if sorted {
		return dst, nil
	}
	slices.SortFunc(entries, cmp)
	if kind == value.Map {
		for i := 1; i < len(entries); i++ {
			if cmp(entries[i-1], entries[i]) == 0 {
				return dst, d.unsupported("repeated map key")
			}
		}
	}
	tmp := d.tmp[:0]
	for _, e := range entries {
		tmp = append(tmp, dst[e.start:e.end]...)
	}
	copy(dst[from:], tmp)
	d.tmp = tmp[:0]
	return dst, nil
}

// build turns the decoded columns into a batch.
func (d *decoder) build(mem memory.Allocator, keys []string) arrow.RecordBatch {
	order := d.order(keys)
	fields := make([]arrow.Field, len(order))
	arrays := make([]arrow.Array, len(order))
	for i, slot := range order {
		c := d.cols[slot]
		arrays[i] = c.array(mem, d.rows)
		fields[i] = c.field()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrays, int64(d.rows))
	for _, a := range arrays {
		a.Release()
	}
	return rec
}

// order lists the page's columns: key attributes first, then the rest in
// byte order (exec's itemColumns).
func (d *decoder) order(keys []string) []int32 {
	order := make([]int32, 0, len(d.active))
	isKey := func(name string) bool {
		for _, k := range keys {
			if k == name {
				return true
			}
		}
		return false
	}
	for _, k := range keys {
		if slot := d.names.find(d.cols, []byte(k)); slot >= 0 && d.cols[slot].gen == d.gen {
			order = append(order, slot)
		}
	}
	nk := len(order)
	for _, slot := range d.active {
		if !isKey(d.cols[slot].name) {
			order = append(order, slot)
		}
	}
	rest := order[nk:]
	slices.SortFunc(rest, func(a, b int32) int { return strings.Compare(d.cols[a].name, d.cols[b].name) })
	return order
}
