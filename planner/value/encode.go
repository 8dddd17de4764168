package value

import (
	"encoding/binary"
	"errors"
)

// AppendBinary serialises a value compactly. Arrow columns whose items hold
// documents, sets or mixed types store values in this form.
func AppendBinary(dst []byte, v Value) []byte {
	dst = append(dst, byte(v.kind))
	switch v.kind {
	case Bool:
		if v.flag {
			return append(dst, 1)
		}
		return append(dst, 0)
	case String, Number, Binary:
		dst = binary.AppendUvarint(dst, uint64(len(v.text)))
		return append(dst, v.text...)
	case List, StringSet, NumberSet, BinarySet:
		dst = binary.AppendUvarint(dst, uint64(len(v.elems)))
		for _, e := range v.elems {
			dst = AppendBinary(dst, e)
		}
		return dst
	case Map:
		dst = binary.AppendUvarint(dst, uint64(len(v.attrs)))
		for _, k := range v.SortedKeys() {
			dst = binary.AppendUvarint(dst, uint64(len(k)))
			dst = append(dst, k...)
			dst = AppendBinary(dst, v.attrs[k])
		}
		return dst
	}
	return dst
}

var errCorrupt = errors.New("corrupt encoded value")

// EncodedKind reports the kind of a value encoded by AppendBinary without
// decoding it; ok is false for an empty or unknown encoding (DecodeBinary
// then fails too).
func EncodedKind(b []byte) (k Kind, ok bool) {
	if len(b) == 0 || Kind(b[0]) > Map {
		return Missing, false
	}
	return Kind(b[0]), true
}

// DecodeBinary reverses AppendBinary.
func DecodeBinary(b []byte) (Value, error) {
	v, rest, err := decode(b)
	if err != nil {
		return Value{}, err
	}
	if len(rest) != 0 {
		return Value{}, errCorrupt
	}
	return v, nil
}

func decode(b []byte) (Value, []byte, error) {
	if len(b) == 0 {
		return Value{}, nil, errCorrupt
	}
	kind := Kind(b[0])
	b = b[1:]
	switch kind {
	case Missing, Null:
		return Value{kind: kind}, b, nil
	case Bool:
		if len(b) == 0 || b[0] > 1 {
			return Value{}, nil, errCorrupt
		}
		return Value{kind: Bool, flag: b[0] == 1}, b[1:], nil
	case String, Number, Binary:
		n, w := binary.Uvarint(b)
		if w <= 0 || uint64(len(b)-w) < n {
			return Value{}, nil, errCorrupt
		}
		return Value{kind: kind, text: string(b[w : w+int(n)])}, b[w+int(n):], nil
	case List, StringSet, NumberSet, BinarySet:
		n, w := binary.Uvarint(b)
		if w <= 0 || n > uint64(len(b)) {
			return Value{}, nil, errCorrupt
		}
		b = b[w:]
		elems := make([]Value, n)
		for i := range elems {
			var err error
			if elems[i], b, err = decode(b); err != nil {
				return Value{}, nil, err
			}
		}
		return Value{kind: kind, elems: elems}, b, nil
	case Map:
		n, w := binary.Uvarint(b)
		if w <= 0 || n > uint64(len(b)) {
			return Value{}, nil, errCorrupt
		}
		b = b[w:]
		attrs := make(map[string]Value, n)
		for i := uint64(0); i < n; i++ {
			kl, kw := binary.Uvarint(b)
			if kw <= 0 || uint64(len(b)-kw) < kl {
				return Value{}, nil, errCorrupt
			}
			key := string(b[kw : kw+int(kl)])
			b = b[kw+int(kl):]
			var err error
			var e Value
			if e, b, err = decode(b); err != nil {
				return Value{}, nil, err
			}
			attrs[key] = e
		}
		return Value{kind: Map, attrs: attrs}, b, nil
	}
	return Value{}, nil, errCorrupt
}
