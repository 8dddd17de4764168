package value

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
)

// ParseDynamoJSON decodes one attribute value in DynamoDB's JSON wire form,
// e.g. {"S":"x"}, {"N":"1.5"}, {"M":{"a":{"BOOL":true}}}.
func ParseDynamoJSON(data []byte) (Value, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return Value{}, fmt.Errorf("attribute value: %w", err)
	}
	return fromRawAttr(raw)
}

// ParseItemJSON decodes an item in DynamoDB JSON: {"PK":{"S":"a"},...}. It
// returns an M value holding the item's attributes.
func ParseItemJSON(data []byte) (Value, error) {
	var raw map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return Value{}, fmt.Errorf("item: %w", err)
	}
	if raw == nil {
		return Value{}, fmt.Errorf("item: expected a JSON object")
	}
	attrs := make(map[string]Value, len(raw))
	for name, av := range raw {
		v, err := fromRawAttr(av)
		if err != nil {
			return Value{}, fmt.Errorf("attribute %q: %w", name, err)
		}
		attrs[name] = v
	}
	return MapOf(attrs), nil
}

func fromRawAttr(raw map[string]json.RawMessage) (Value, error) {
	if len(raw) != 1 {
		return Value{}, fmt.Errorf("an attribute value needs exactly one type key (S, N, B, BOOL, NULL, M, L, SS, NS, BS), got %d", len(raw))
	}
	for typ, body := range raw {
		return fromTyped(typ, body)
	}
	return Value{}, nil
}

func fromTyped(typ string, body json.RawMessage) (Value, error) {
	switch typ {
	case "S":
		var s string
		if err := json.Unmarshal(body, &s); err != nil {
			return Value{}, fmt.Errorf("S: %w", err)
		}
		return Str(s), nil
	case "N":
		s, err := numberText(body)
		if err != nil {
			return Value{}, err
		}
		return Num(s)
	case "B":
		b, err := decodeB64(body)
		if err != nil {
			return Value{}, err
		}
		return Bin(b), nil
	case "BOOL":
		var b bool
		if err := json.Unmarshal(body, &b); err != nil {
			return Value{}, fmt.Errorf("BOOL: %w", err)
		}
		return BoolOf(b), nil
	case "NULL":
		var b bool
		if err := json.Unmarshal(body, &b); err != nil || !b {
			return Value{}, fmt.Errorf("NULL: the value must be true")
		}
		return NullValue(), nil
	case "L":
		var elems []map[string]json.RawMessage
		if err := json.Unmarshal(body, &elems); err != nil {
			return Value{}, fmt.Errorf("L: %w", err)
		}
		out := make([]Value, len(elems))
		for i, e := range elems {
			v, err := fromRawAttr(e)
			if err != nil {
				return Value{}, fmt.Errorf("L[%d]: %w", i, err)
			}
			out[i] = v
		}
		return ListOf(out), nil
	case "M":
		var members map[string]map[string]json.RawMessage
		if err := json.Unmarshal(body, &members); err != nil {
			return Value{}, fmt.Errorf("M: %w", err)
		}
		attrs := make(map[string]Value, len(members))
		for k, e := range members {
			v, err := fromRawAttr(e)
			if err != nil {
				return Value{}, fmt.Errorf("M.%s: %w", k, err)
			}
			attrs[k] = v
		}
		return MapOf(attrs), nil
	case "SS", "NS", "BS":
		var items []json.RawMessage
		if err := json.Unmarshal(body, &items); err != nil {
			return Value{}, fmt.Errorf("%s: %w", typ, err)
		}
		members := make([]Value, len(items))
		for i, it := range items {
			v, err := fromTyped(typ[:1], it)
			if err != nil {
				return Value{}, fmt.Errorf("%s[%d]: %w", typ, i, err)
			}
			members[i] = v
		}
		// DynamoDB rejects empty sets and duplicate members; Equal and
		// SetContains rely on members being distinct.
		if len(members) == 0 {
			return Value{}, fmt.Errorf("%s: a set may not be empty", typ)
		}
		kind := map[string]Kind{"SS": StringSet, "NS": NumberSet, "BS": BinarySet}[typ]
		sort.Slice(members, func(i, j int) bool { return Order(members[i], members[j]) < 0 })
		for i := 1; i < len(members); i++ {
			if Order(members[i-1], members[i]) == 0 {
				return Value{}, fmt.Errorf("%s: duplicate member %s", typ, members[i].JSON())
			}
		}
		return SetOf(kind, members), nil
	}
	return Value{}, fmt.Errorf("unknown attribute type %q", typ)
}

// numberText accepts N as a JSON string (the wire form) or a bare JSON number.
func numberText(body json.RawMessage) (string, error) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '"' {
		var s string
		if err := json.Unmarshal(body, &s); err != nil {
			return "", fmt.Errorf("N: %w", err)
		}
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(body, &n); err != nil {
		return "", fmt.Errorf("N: %w", err)
	}
	return string(n), nil
}

func decodeB64(body json.RawMessage) ([]byte, error) {
	var s string
	if err := json.Unmarshal(body, &s); err != nil {
		return nil, fmt.Errorf("B: %w", err)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("B: invalid base64: %w", err)
	}
	return b, nil
}

// AppendDynamoJSON renders a value in DynamoDB's JSON wire form. Map members
// are written in sorted order. Missing renders as {"NULL":true}.
func AppendDynamoJSON(dst []byte, v Value) []byte {
	switch v.kind {
	case Missing, Null:
		return append(dst, `{"NULL":true}`...)
	case String:
		dst = append(dst, `{"S":`...)
		return append(appendJSONString(dst, v.text), '}')
	case Number:
		dst = append(dst, `{"N":"`...)
		return append(append(dst, v.text...), `"}`...)
	case Binary:
		dst = append(dst, `{"B":`...)
		return append(appendBase64String(dst, v.text), '}')
	case Bool:
		if v.flag {
			return append(dst, `{"BOOL":true}`...)
		}
		return append(dst, `{"BOOL":false}`...)
	case List:
		dst = append(dst, `{"L":[`...)
		for i, e := range v.elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendDynamoJSON(dst, e)
		}
		return append(dst, "]}"...)
	case Map:
		dst = append(dst, `{"M":`...)
		return append(AppendItemJSON(dst, v), '}')
	case StringSet, NumberSet, BinarySet:
		dst = append(dst, `{"`...)
		dst = append(dst, v.kind.String()...)
		dst = append(dst, `":[`...)
		for i, e := range v.elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			switch e.kind {
			case Binary:
				dst = appendBase64String(dst, e.text)
			default:
				dst = appendJSONString(dst, e.text)
			}
		}
		return append(dst, "]}"...)
	}
	return dst
}

// AppendItemJSON renders an M value's members as a DynamoDB-JSON item object.
func AppendItemJSON(dst []byte, item Value) []byte {
	dst = append(dst, '{')
	for i, k := range item.SortedKeys() {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, k)
		dst = append(dst, ':')
		dst = AppendDynamoJSON(dst, item.attrs[k])
	}
	return append(dst, '}')
}
