package value

import (
	"sort"
	"strings"
)

// Kind is the DynamoDB type of a value, plus Missing for an absent attribute.
type Kind uint8

// Kinds, in the order ORDER BY sorts values of different types (Missing and
// Null first, as MySQL sorts NULLs first on ASC).
const (
	Missing Kind = iota
	Null
	Bool
	Number
	String
	Binary
	NumberSet
	StringSet
	BinarySet
	List
	Map
)

var kindNames = [...]string{
	Missing:   "MISSING",
	Null:      "NULL",
	Bool:      "BOOL",
	Number:    "N",
	String:    "S",
	Binary:    "B",
	NumberSet: "NS",
	StringSet: "SS",
	BinarySet: "BS",
	List:      "L",
	Map:       "M",
}

// String returns DynamoDB's type descriptor (S, N, B, BOOL, NULL, M, L, SS, NS, BS).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Value is one DynamoDB attribute value (or the absence of one).
type Value struct {
	kind  Kind
	text  string           // S: the string; N: exact decimal text; B: raw bytes
	flag  bool             // BOOL
	elems []Value          // L elements; SS/NS/BS members (as S/N/B values)
	attrs map[string]Value // M
}

// Constructors.

// MissingValue is the value of an absent attribute.
func MissingValue() Value { return Value{} }

// NullValue is DynamoDB's NULL.
func NullValue() Value { return Value{kind: Null} }

// Str is an S value.
func Str(s string) Value { return Value{kind: String, text: s} }

// Bin is a B value holding a copy of b.
func Bin(b []byte) Value { return Value{kind: Binary, text: string(b)} }

// BoolOf is a BOOL value.
func BoolOf(b bool) Value { return Value{kind: Bool, flag: b} }

// Num returns an N value from exact decimal text, validating and normalising
// it the way DynamoDB stores numbers (no exponent, no superfluous zeros).
func Num(text string) (Value, error) {
	canon, err := CanonicalNumber(text)
	if err != nil {
		return Value{}, err
	}
	return Value{kind: Number, text: canon}, nil
}

// NumTrusted wraps number text already in canonical form (e.g. produced by
// this package or returned by DynamoDB) without re-validating it.
func NumTrusted(text string) Value { return Value{kind: Number, text: text} }

// ListOf is an L value.
func ListOf(elems []Value) Value { return Value{kind: List, elems: elems} }

// MapOf is an M value.
func MapOf(attrs map[string]Value) Value {
	if attrs == nil {
		attrs = map[string]Value{}
	}
	return Value{kind: Map, attrs: attrs}
}

// SetOf builds an SS, NS or BS value from members of the matching scalar kind.
func SetOf(kind Kind, members []Value) Value { return Value{kind: kind, elems: members} }

// Clone returns a copy of v that shares no memory with it: text is copied,
// and so are the elements and members of documents and sets. A value read
// in place from an Arrow batch (columnar.Column.Value) points into the
// batch's buffers; Clone is how to keep it after the batch is released.
func (v Value) Clone() Value {
	switch v.kind {
	case String, Number, Binary:
		v.text = strings.Clone(v.text)
	case List, StringSet, NumberSet, BinarySet:
		if v.elems != nil {
			elems := make([]Value, len(v.elems))
			for i, e := range v.elems {
				elems[i] = e.Clone()
			}
			v.elems = elems
		}
	case Map:
		attrs := make(map[string]Value, len(v.attrs))
		for k, e := range v.attrs {
			attrs[strings.Clone(k)] = e.Clone()
		}
		v.attrs = attrs
	}
	return v
}

// Accessors.

// Kind reports the value's type.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether the value is SQL NULL (missing or DynamoDB NULL).
func (v Value) IsNull() bool { return v.kind == Missing || v.kind == Null }

// Text returns the string of an S, the exact digits of an N, or the raw bytes of a B.
func (v Value) Text() string { return v.text }

// Bytes returns a B value's bytes.
func (v Value) Bytes() []byte { return []byte(v.text) }

// Bool returns a BOOL value's truth.
func (v Value) Bool() bool { return v.flag }

// Elems returns the elements of an L or the members of a set.
func (v Value) Elems() []Value { return v.elems }

// Attr returns a map member, or Missing.
func (v Value) Attr(name string) Value {
	if v.kind != Map {
		return Value{}
	}
	return v.attrs[name]
}

// Attrs returns a map's members (do not modify).
func (v Value) Attrs() map[string]Value { return v.attrs }

// SortedKeys returns a map's member names in byte order, for deterministic output.
func (v Value) SortedKeys() []string {
	keys := make([]string, 0, len(v.attrs))
	for k := range v.attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Index returns list element i, or Missing.
func (v Value) Index(i int) Value {
	if v.kind != List || i < 0 || i >= len(v.elems) {
		return Value{}
	}
	return v.elems[i]
}

// IsSet reports whether the value is SS, NS or BS.
func (v Value) IsSet() bool {
	return v.kind == StringSet || v.kind == NumberSet || v.kind == BinarySet
}

// MemberKind is the scalar kind of a set's members.
func MemberKind(set Kind) Kind {
	switch set {
	case StringSet:
		return String
	case NumberSet:
		return Number
	case BinarySet:
		return Binary
	}
	return Missing
}
