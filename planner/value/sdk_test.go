package value

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestFromAttributeValue(t *testing.T) {
	n := func(s string) Value { return mustNum(t, s) }
	tests := []struct {
		av   types.AttributeValue
		want Value
	}{
		{nil, MissingValue()},
		{&types.AttributeValueMemberS{Value: "x"}, Str("x")},
		{&types.AttributeValueMemberN{Value: "1.50"}, n("1.5")},
		{&types.AttributeValueMemberN{Value: "-9223372036854775808"}, n("-9223372036854775808")},
		{&types.AttributeValueMemberB{Value: []byte{1, 2}}, Bin([]byte{1, 2})},
		{&types.AttributeValueMemberBOOL{Value: true}, BoolOf(true)},
		{&types.AttributeValueMemberNULL{Value: true}, NullValue()},
		{&types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberS{Value: "a"}, &types.AttributeValueMemberNULL{Value: true},
		}}, ListOf([]Value{Str("a"), NullValue()})},
		{&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"a.b": &types.AttributeValueMemberN{Value: "2"},
		}}, MapOf(map[string]Value{"a.b": n("2")})},
		// Sets are sorted: strings and binaries byte-wise, numbers numerically.
		{&types.AttributeValueMemberSS{Value: []string{"b", "a", "B"}}, SetOf(StringSet, []Value{Str("B"), Str("a"), Str("b")})},
		{&types.AttributeValueMemberNS{Value: []string{"10", "9", "-1", "2.5"}}, SetOf(NumberSet, []Value{n("-1"), n("2.5"), n("9"), n("10")})},
		{&types.AttributeValueMemberBS{Value: [][]byte{{2}, {1, 0}, {1}}}, SetOf(BinarySet, []Value{Bin([]byte{1}), Bin([]byte{1, 0}), Bin([]byte{2})})},
	}
	for _, tc := range tests {
		got, err := FromAttributeValue(tc.av)
		if err != nil {
			t.Errorf("FromAttributeValue(%T): %v", tc.av, err)
			continue
		}
		if !identical(got, tc.want) {
			t.Errorf("FromAttributeValue(%T) = %s, want %s", tc.av, show(got), show(tc.want))
		}
	}
	bad := []types.AttributeValue{
		&types.AttributeValueMemberN{Value: "x"},
		&types.AttributeValueMemberN{Value: "1E200"},
		&types.AttributeValueMemberNS{Value: []string{"1", "y"}},
		&types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "?"}}},
		&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": &types.AttributeValueMemberN{Value: ""}}},
		&types.UnknownUnionMember{Tag: "X"},
	}
	for _, av := range bad {
		if v, err := FromAttributeValue(av); err == nil {
			t.Errorf("FromAttributeValue(%#v) = %s, want an error", av, show(v))
		}
	}
}

func TestFromAttributeValueCopiesBytes(t *testing.T) {
	b := []byte{1, 2, 3}
	v, err := FromAttributeValue(&types.AttributeValueMemberB{Value: b})
	if err != nil {
		t.Fatal(err)
	}
	b[0] = 9
	if v.Bytes()[0] != 1 {
		t.Error("a B value aliases the SDK's byte slice")
	}
	out := v.AttributeValue().(*types.AttributeValueMemberB)
	out.Value[1] = 9
	if v.Bytes()[1] != 2 {
		t.Error("AttributeValue aliases the value's bytes")
	}
}

func TestAttributeValueRoundTrip(t *testing.T) {
	if MissingValue().AttributeValue() != nil {
		t.Error("Missing must convert to nil")
	}
	if (Value{kind: Kind(99)}).AttributeValue() != nil {
		t.Error("an unknown kind must convert to nil")
	}
	g := gen{r: newRand(t)}
	for i := 0; i < 3000; i++ {
		v := g.value(3)
		got, err := FromAttributeValue(v.AttributeValue())
		if err != nil {
			t.Fatalf("FromAttributeValue(%s.AttributeValue()): %v", show(v), err)
		}
		if !identical(got, v) {
			t.Fatalf("round trip of %s gave %s", show(v), show(got))
		}
	}
	item := MapOf(map[string]Value{"a": Str("x"), "n": NumTrusted("3")})
	m := item.AttributeValue().(*types.AttributeValueMemberM).Value
	back, err := FromItem(m)
	if err != nil || !identical(back, item) {
		t.Errorf("FromItem round trip = %s, %v", show(back), err)
	}
	if _, err := FromItem(map[string]types.AttributeValue{"bad": &types.AttributeValueMemberN{Value: "z"}}); err == nil {
		t.Error("FromItem with a bad number succeeded")
	}
}
