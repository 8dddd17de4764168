package wire

import (
	"encoding/binary"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// colEnc is a column's storage while a page is decoded. It only ever widens:
// none → one typed form → encValue (and int64 → number text).
type colEnc uint8

const (
	encNone    colEnc = iota // only missing values so far
	encString                // S
	encInt64                 // N, all integral and within int64
	encNumText               // N, canonical text
	encBool                  // BOOL
	encBinary                // B
	encValue                 // value.AppendBinary encodings
)

// column accumulates one attribute's values for the page being decoded.
// Its buffers are scratch reused from page to page; build copies them into
// buffers from the caller's allocator.
type column struct {
	name  string
	slot  int32 // index in decoder.cols
	enc   colEnc
	gen   uint32 // the page that last used this column
	n     int    // rows so far, including missing ones
	nulls int
	valid []byte  // validity bitmap (LSB first), ceil(n/8) bytes
	offs  []int32 // variable-width forms: n+1 offsets into data
	data  []byte
	ints  []int64
	bits  []byte // BOOL values bitmap

	fields [encValue + 1]arrow.Field // cached fields per encoding
	hasFld [encValue + 1]bool
	hint   hints
}

func (c *column) reset(gen uint32) {
	c.gen = gen
	c.enc = encNone
	c.n, c.nulls = 0, 0
	// Buffers handed to the last batch are gone (nil): start new ones the
	// size the last page needed, so that they rarely grow.
	c.valid = c.valid[:0]
	if cap(c.valid) == 0 {
		c.valid = make([]byte, 0, c.hint.valid)
	}
	if cap(c.offs) == 0 {
		c.offs = make([]int32, 0, c.hint.offs)
	}
	c.offs = append(c.offs[:0], 0)
	c.data = c.data[:0]
	c.ints = c.ints[:0]
	c.bits = c.bits[:0]
}

// hints are a column's buffer sizes on the last page, for the next one.
type hints struct{ valid, offs, data, ints, bits int }

// grow preallocates the buffers of encoding e from the hints.
func (c *column) grow(e colEnc) {
	switch e {
	case encString, encNumText, encBinary, encValue:
		if cap(c.data) == 0 {
			c.data = make([]byte, 0, c.hint.data)
		}
	case encInt64:
		if cap(c.ints) == 0 {
			c.ints = make([]int64, 0, c.hint.ints)
		}
	case encBool:
		if cap(c.bits) == 0 {
			c.bits = make([]byte, 0, c.hint.bits)
		}
	}
}

// pad appends missing values until the column has row rows.
func (c *column) pad(row int) {
	for c.n < row {
		if c.n&7 == 0 {
			c.valid = append(c.valid, 0)
		}
		switch c.enc {
		case encString, encNumText, encBinary, encValue:
			c.offs = append(c.offs, int32(len(c.data)))
		case encInt64:
			c.ints = append(c.ints, 0)
		case encBool:
			if c.n&7 == 0 {
				c.bits = append(c.bits, 0)
			}
		}
		c.n++
		c.nulls++
	}
}

// present marks row c.n as holding a value; the caller then appends it.
func (c *column) present() {
	if c.n&7 == 0 {
		c.valid = append(c.valid, 0)
	}
	c.valid[c.n>>3] |= 1 << (c.n & 7)
}

func (c *column) isValid(i int) bool { return c.valid[i>>3]&(1<<(i&7)) != 0 }

// setEnc gives a column that so far holds only missing values an encoding.
func (c *column) setEnc(e colEnc) {
	c.enc = e
	c.grow(e)
	switch e {
	case encString, encNumText, encBinary, encValue:
		for i := 0; i < c.n; i++ {
			c.offs = append(c.offs, 0)
		}
	case encInt64:
		for i := 0; i < c.n; i++ {
			c.ints = append(c.ints, 0)
		}
	case encBool:
		for i := 0; i < (c.n+7)>>3; i++ {
			c.bits = append(c.bits, 0)
		}
	}
}

// endVar closes the variable-width value just appended to data.
func (c *column) endVar() {
	c.offs = append(c.offs, int32(len(c.data)))
	c.n++
}

// putString appends an S value.
func (c *column) putString(d *decoder, s []byte) {
	switch c.enc {
	case encNone:
		c.setEnc(encString)
	case encString, encValue:
	default:
		c.toValue(d)
	}
	c.present()
	if c.enc == encValue {
		c.data = appendScalar(c.data, value.String, s)
	} else {
		c.data = append(c.data, s...)
	}
	c.endVar()
}

// putNumber appends an N value (canonical text; iv when isInt).
func (c *column) putNumber(d *decoder, text []byte, iv int64, isInt bool) {
	switch c.enc {
	case encNone:
		if isInt {
			c.setEnc(encInt64)
		} else {
			c.setEnc(encNumText)
		}
	case encInt64:
		if !isInt {
			c.intsToText()
		}
	case encNumText, encValue:
	default:
		c.toValue(d)
	}
	c.present()
	switch c.enc {
	case encInt64:
		c.ints = append(c.ints, iv)
		c.n++
		return
	case encValue:
		c.data = appendScalar(c.data, value.Number, text)
	default:
		c.data = append(c.data, text...)
	}
	c.endVar()
}

// putBool appends a BOOL value.
func (c *column) putBool(d *decoder, v bool) {
	switch c.enc {
	case encNone:
		c.setEnc(encBool)
	case encBool, encValue:
	default:
		c.toValue(d)
	}
	c.present()
	if c.enc == encValue {
		c.data = append(c.data, byte(value.Bool), boolByte(v))
		c.endVar()
		return
	}
	if c.n&7 == 0 {
		c.bits = append(c.bits, 0)
	}
	if v {
		c.bits[c.n>>3] |= 1 << (c.n & 7)
	}
	c.n++
}

// putBinary appends a B value's bytes.
func (c *column) putBinary(d *decoder, b []byte) {
	switch c.enc {
	case encNone:
		c.setEnc(encBinary)
	case encBinary, encValue:
	default:
		c.toValue(d)
	}
	c.present()
	if c.enc == encValue {
		c.data = appendScalar(c.data, value.Binary, b)
	} else {
		c.data = append(c.data, b...)
	}
	c.endVar()
}

// beginValue prepares to append an encoded value (document, set, NULL)
// straight into data; the caller appends it, then calls endVar.
func (c *column) beginValue(d *decoder) {
	if c.enc != encValue {
		if c.enc == encNone {
			c.setEnc(encValue)
		} else {
			c.toValue(d)
		}
	}
	c.present()
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// appendScalar appends value.AppendBinary's encoding of an S, N or B value.
func appendScalar(dst []byte, kind value.Kind, text []byte) []byte {
	dst = append(dst, byte(kind))
	dst = binary.AppendUvarint(dst, uint64(len(text)))
	return append(dst, text...)
}

// intsToText turns an int64 column into canonical number text.
func (c *column) intsToText() {
	c.grow(encNumText)
	c.offs = append(c.offs[:0], 0)
	c.data = c.data[:0]
	for i := 0; i < c.n; i++ {
		if c.isValid(i) {
			c.data = strconv.AppendInt(c.data, c.ints[i], 10)
		}
		c.offs = append(c.offs, int32(len(c.data)))
	}
	c.ints = c.ints[:0]
	c.enc = encNumText
}

// toValue re-encodes a typed column as value.AppendBinary encodings, when a
// value of another type arrives.
func (c *column) toValue(d *decoder) {
	if c.enc == encValue {
		return
	}
	tmp := d.tmp[:0]
	offs := d.tmpOffs[:0]
	offs = append(offs, 0)
	for i := 0; i < c.n; i++ {
		if c.isValid(i) {
			switch c.enc {
			case encString:
				tmp = appendScalar(tmp, value.String, c.data[c.offs[i]:c.offs[i+1]])
			case encNumText:
				tmp = appendScalar(tmp, value.Number, c.data[c.offs[i]:c.offs[i+1]])
			case encBinary:
				tmp = appendScalar(tmp, value.Binary, c.data[c.offs[i]:c.offs[i+1]])
			case encInt64:
				var num [20]byte
				tmp = appendScalar(tmp, value.Number, strconv.AppendInt(num[:0], c.ints[i], 10))
			case encBool:
				tmp = append(tmp, byte(value.Bool), (c.bits[i>>3]>>(i&7))&1)
			}
		}
		offs = append(offs, int32(len(tmp)))
	}
	// Swap the scratch buffers so neither is copied again.
	c.data, d.tmp = tmp, c.data[:0]
	c.offs, d.tmpOffs = offs, c.offs[:0]
	c.ints = c.ints[:0]
	c.bits = c.bits[:0]
	c.enc = encValue
}

// encoding maps the column's storage onto columnar's encoding.
func (c *column) encoding() columnar.Encoding {
	switch c.enc {
	case encInt64:
		return columnar.EncInt64
	case encNumText:
		return columnar.EncNumberText
	case encBool:
		return columnar.EncBool
	case encBinary:
		return columnar.EncBinary
	case encValue:
		return columnar.EncValue
	}
	return columnar.EncString // only missing values: columnar's choice too
}

// field returns the Arrow field columnar uses for this column's encoding.
func (c *column) field() arrow.Field {
	if !c.hasFld[c.enc] {
		c.fields[c.enc] = FieldFor(c.name, c.encoding())
		c.hasFld[c.enc] = true
	}
	return c.fields[c.enc]
}

// FieldFor is the Arrow field package columnar gives a column name and
// encoding (columnar.EncodingOf reads it back).
func FieldFor(name string, enc columnar.Encoding) arrow.Field {
	switch enc {
	case columnar.EncInt64:
		return arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true, Metadata: ddbMeta("N")}
	case columnar.EncNumberText:
		return arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true, Metadata: ddbMeta("N")}
	case columnar.EncBool:
		return arrow.Field{Name: name, Type: arrow.FixedWidthTypes.Boolean, Nullable: true}
	case columnar.EncBinary:
		return arrow.Field{Name: name, Type: arrow.BinaryTypes.Binary, Nullable: true}
	case columnar.EncValue:
		return arrow.Field{Name: name, Type: arrow.BinaryTypes.Binary, Nullable: true, Metadata: ddbMeta("value")}
	}
	return arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true}
}

func ddbMeta(v string) arrow.Metadata { return arrow.NewMetadata([]string{"ddb"}, []string{v}) }

// newBuffer copies src into a buffer from mem.
func newBuffer(mem memory.Allocator, src []byte) *memory.Buffer {
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(len(src))
	copy(buf.Bytes(), src)
	return buf
}

// handOff reports whether the batch may own the scratch buffers as they
// are. With Go's allocator (what sessions use) a buffer is garbage
// collected memory either way, so the column's buffers become the batch's
// without a copy and the next page starts new ones; any other allocator
// (e.g. a checked one in tests) gets copies it accounts for.
func handOff(mem memory.Allocator) bool {
	_, ok := mem.(*memory.GoAllocator)
	return ok
}

// array builds the column's Arrow array over rows rows. The caller
// releases the array.
func (c *column) array(mem memory.Allocator, rows int) arrow.Array {
	c.pad(rows)
	if c.enc == encNone {
		// Only missing values: a utf8 column of nulls, as columnar builds it.
		c.setEnc(encString)
		defer func() { c.enc = encNone }()
	}
	give := handOff(mem)
	buffer := func(b []byte) *memory.Buffer {
		if give {
			return memory.NewBufferBytes(b)
		}
		return newBuffer(mem, b)
	}
	var validity *memory.Buffer
	if c.nulls > 0 {
		validity = buffer(c.valid)
	}
	var bufs []*memory.Buffer
	var dt arrow.DataType
	switch c.enc {
	case encInt64:
		dt = arrow.PrimitiveTypes.Int64
		bufs = []*memory.Buffer{validity, buffer(arrow.Int64Traits.CastToBytes(c.ints))}
	case encBool:
		dt = arrow.FixedWidthTypes.Boolean
		bufs = []*memory.Buffer{validity, buffer(c.bits)}
	default:
		dt = arrow.BinaryTypes.String
		if c.enc == encBinary || c.enc == encValue {
			dt = arrow.BinaryTypes.Binary
		}
		bufs = []*memory.Buffer{validity, buffer(arrow.Int32Traits.CastToBytes(c.offs)), buffer(c.data)}
	}
	data := array.NewData(dt, rows, bufs, nil, c.nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	arr := array.MakeFromData(data)
	data.Release()
	c.hint = hints{valid: hintOf(len(c.valid)), offs: hintOf(len(c.offs)), data: hintOf(len(c.data)),
		ints: hintOf(len(c.ints)), bits: hintOf(len(c.bits))}
	if give {
		if c.nulls > 0 {
			c.valid = nil
		}
		c.offs, c.data, c.ints, c.bits = nil, nil, nil, nil
	}
	return arr
}

// hintOf sizes a buffer for the next page from this page's use.
func hintOf(n int) int { return n + n/8 + 16 }
