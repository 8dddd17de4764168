package format

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/planner/value"
)

// decimalDigits is decimal128's precision, and DynamoDB's: a number column
// is decimal128(38, s) when every value fits that many digits at scale s.
const decimalDigits = 38

// kindSet is the set of DynamoDB types seen in a column. Missing and NULL
// are not in it: both become Arrow nulls whatever the column's type.
type kindSet uint16

const (
	seenString kindSet = 1 << iota
	seenNumber
	seenBool
	seenBinary
	seenDocument // L, M, SS, NS, BS
)

func kindBit(k value.Kind) kindSet {
	switch k {
	case value.String:
		return seenString
	case value.Number:
		return seenNumber
	case value.Bool:
		return seenBool
	case value.Binary:
		return seenBinary
	case value.Missing, value.Null:
		return 0
	}
	return seenDocument
}

// columnFacts is what the binary formats learn about one output column
// while they spool the result, to choose its type at End.
type columnFacts struct {
	kinds kindSet
	// Numbers: the most fraction digits and the most integer digits
	// (leading zeros not counted) of any value, and whether some value's
	// text is not plain decimal notation (it then stays text).
	maxScale, maxInt int
	notPlain         bool
	// sample guesses whether the column's values repeat (Parquet's
	// dictionary encoding).
	sample cardinalitySample
}

// outKind is how a binary format stores a column.
type outKind uint8

const (
	outNull    outKind = iota // no value at all: Arrow null type
	outString                 // only S: utf8
	outDecimal                // only N, all fitting one scale: decimal128(38, s)
	outNumText                // only N, not fitting: utf8, the exact number text
	outBool                   // only BOOL: bool
	outBinary                 // only B: binary
	outJSON                   // documents, sets, or mixed types: utf8 JSON text
)

// outColumn is a column's decided type.
type outColumn struct {
	kind  outKind
	scale int32 // outDecimal
	// dictionary: Parquet dictionary-encodes the column, because its
	// sampled values repeat (see cardinalitySample).
	dictionary bool
}

// decide chooses the column's type from what was seen.
func (f *columnFacts) decide() outColumn {
	out := f.decideKind()
	out.dictionary = out.kind != outNull && out.kind != outBool && f.sample.repeats()
	return out
}

func (f *columnFacts) decideKind() outColumn {
	switch f.kinds {
	case 0:
		return outColumn{kind: outNull}
	case seenString:
		return outColumn{kind: outString}
	case seenNumber:
		if !f.notPlain && f.maxScale <= decimalDigits && f.maxInt+f.maxScale <= decimalDigits {
			return outColumn{kind: outDecimal, scale: int32(f.maxScale)}
		}
		return outColumn{kind: outNumText}
	case seenBool:
		return outColumn{kind: outBool}
	case seenBinary:
		return outColumn{kind: outBinary}
	}
	return outColumn{kind: outJSON}
}

// arrowType is the Arrow type of a decided column.
func (c outColumn) arrowType() arrow.DataType {
	switch c.kind {
	case outNull:
		return arrow.Null
	case outDecimal:
		return &arrow.Decimal128Type{Precision: decimalDigits, Scale: c.scale}
	case outBool:
		return arrow.FixedWidthTypes.Boolean
	case outBinary:
		return arrow.BinaryTypes.Binary
	}
	return arrow.BinaryTypes.String
}

// observe adds one batch column's values to the facts. Columns of one
// scalar type are read without decoding a value per cell.
func (f *columnFacts) observe(c columnar.Column, name string, rows int) error {
	arr := c.Array()
	if arr.NullN() == rows {
		return nil
	}
	f.sample.observe(c, rows)
	switch c.Encoding() {
	case columnar.EncString:
		f.kinds |= seenString
	case columnar.EncBool:
		f.kinds |= seenBool
	case columnar.EncBinary:
		f.kinds |= seenBinary
	case columnar.EncInt64:
		f.kinds |= seenNumber
		f.observeInts(arr.(*array.Int64))
	case columnar.EncNumberText:
		f.kinds |= seenNumber
		s := arr.(*array.String)
		for i := 0; i < rows; i++ {
			if s.IsValid(i) {
				f.observeNumber(s.Value(i))
			}
		}
	default:
		enc, _ := arr.(*array.Binary)
		for i := 0; i < rows; i++ {
			if c.IsMissing(i) {
				continue
			}
			// Only a number's digits matter: the kind of the others is
			// read from the encoding without decoding the document.
			if enc != nil {
				if k, ok := value.EncodedKind(enc.Value(i)); ok && k != value.Number {
					f.kinds |= kindBit(k)
					continue
				}
			}
			v, err := cellAt(c, name, i)
			if err != nil {
				return err
			}
			f.kinds |= kindBit(v.Kind())
			if v.Kind() == value.Number {
				f.observeNumber(v.Text())
			}
		}
	}
	return nil
}

// observeInts records the integer digits of an int64 column from its
// extremes.
func (f *columnFacts) observeInts(a *array.Int64) {
	var lo, hi int64
	first := true
	for i, v := range a.Int64Values() {
		if a.IsNull(i) {
			continue
		}
		if first || v < lo {
			lo = v
		}
		if first || v > hi {
			hi = v
		}
		first = false
	}
	f.maxInt = max(f.maxInt, intDigits(lo), intDigits(hi))
}

// intDigits counts the decimal digits of v's magnitude (0 for zero).
func intDigits(v int64) int {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	n := 0
	for u > 0 {
		n++
		u /= 10
	}
	return n
}

// observeNumber records the digits of one number's text: plain notation,
// an optional sign, digits, an optional fraction.
func (f *columnFacts) observeNumber(text string) {
	ints, frac, ok := splitPlain(text)
	if !ok {
		f.notPlain = true
		return
	}
	f.maxInt = max(f.maxInt, len(ints))
	f.maxScale = max(f.maxScale, len(frac))
}

// splitPlain splits plain decimal text into its integer digits (without
// leading zeros) and its fraction digits; ok is false for anything else
// (an exponent, a stray character).
func splitPlain(text string) (ints, frac string, ok bool) {
	s := text
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	dot := len(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' && dot == len(s) {
			dot = i
			continue
		}
		if c < '0' || c > '9' {
			return "", "", false
		}
	}
	ints = s[:dot]
	if dot < len(s) {
		frac = s[dot+1:]
	}
	if ints == "" && frac == "" {
		return "", "", false
	}
	for len(ints) > 0 && ints[0] == '0' {
		ints = ints[1:]
	}
	return ints, frac, true
}
