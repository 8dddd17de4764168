package value

import (
	"fmt"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// FromAttributeValue converts an SDK attribute value. Set members are sorted
// (DynamoDB returns them in no particular order) so output is deterministic.
func FromAttributeValue(av types.AttributeValue) (Value, error) {
	switch t := av.(type) {
	case nil:
		return Value{}, nil
	case *types.AttributeValueMemberS:
		return Str(t.Value), nil
	case *types.AttributeValueMemberN:
		return Num(t.Value)
	case *types.AttributeValueMemberB:
		return Bin(t.Value), nil
	case *types.AttributeValueMemberBOOL:
		return BoolOf(t.Value), nil
	case *types.AttributeValueMemberNULL:
		return NullValue(), nil
	case *types.AttributeValueMemberL:
		elems := make([]Value, len(t.Value))
		for i, e := range t.Value {
			v, err := FromAttributeValue(e)
			if err != nil {
				return Value{}, err
			}
			elems[i] = v
		}
		return ListOf(elems), nil
	case *types.AttributeValueMemberM:
		return FromItem(t.Value)
	case *types.AttributeValueMemberSS:
		members := make([]Value, len(t.Value))
		for i, s := range t.Value {
			members[i] = Str(s)
		}
		return sortedSet(StringSet, members), nil
	case *types.AttributeValueMemberNS:
		members := make([]Value, len(t.Value))
		for i, s := range t.Value {
			n, err := Num(s)
			if err != nil {
				return Value{}, err
			}
			members[i] = n
		}
		return sortedSet(NumberSet, members), nil
	case *types.AttributeValueMemberBS:
		members := make([]Value, len(t.Value))
		for i, b := range t.Value {
			members[i] = Bin(b)
		}
		return sortedSet(BinarySet, members), nil
	}
	return Value{}, fmt.Errorf("unsupported attribute value %T", av)
}

// FromItem converts a whole item (or an M value's members) into an M value.
func FromItem(item map[string]types.AttributeValue) (Value, error) {
	attrs := make(map[string]Value, len(item))
	for k, av := range item {
		v, err := FromAttributeValue(av)
		if err != nil {
			return Value{}, fmt.Errorf("attribute %s: %w", k, err)
		}
		attrs[k] = v
	}
	return MapOf(attrs), nil
}

func sortedSet(kind Kind, members []Value) Value {
	sort.Slice(members, func(i, j int) bool { return Order(members[i], members[j]) < 0 })
	return SetOf(kind, members)
}

// AttributeValue converts back to the SDK type. Missing converts to nil.
func (v Value) AttributeValue() types.AttributeValue {
	switch v.kind {
	case Missing:
		return nil
	case Null:
		return &types.AttributeValueMemberNULL{Value: true}
	case String:
		return &types.AttributeValueMemberS{Value: v.text}
	case Number:
		return &types.AttributeValueMemberN{Value: v.text}
	case Binary:
		return &types.AttributeValueMemberB{Value: []byte(v.text)}
	case Bool:
		return &types.AttributeValueMemberBOOL{Value: v.flag}
	case List:
		out := make([]types.AttributeValue, len(v.elems))
		for i, e := range v.elems {
			out[i] = e.AttributeValue()
		}
		return &types.AttributeValueMemberL{Value: out}
	case Map:
		out := make(map[string]types.AttributeValue, len(v.attrs))
		for k, e := range v.attrs {
			out[k] = e.AttributeValue()
		}
		return &types.AttributeValueMemberM{Value: out}
	case StringSet:
		out := make([]string, len(v.elems))
		for i, e := range v.elems {
			out[i] = e.text
		}
		return &types.AttributeValueMemberSS{Value: out}
	case NumberSet:
		out := make([]string, len(v.elems))
		for i, e := range v.elems {
			out[i] = e.text
		}
		return &types.AttributeValueMemberNS{Value: out}
	case BinarySet:
		out := make([][]byte, len(v.elems))
		for i, e := range v.elems {
			out[i] = []byte(e.text)
		}
		return &types.AttributeValueMemberBS{Value: out}
	}
	return nil
}
