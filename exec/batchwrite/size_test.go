package batchwrite

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/planner/value"
)

// itemSize agrees with eval.ItemSize (the rules the planner bills by) on
// every kind of value.
func TestItemSizeAgreesWithEval(t *testing.T) {
	for i, it := range []Item{
		{"PK": &types.AttributeValueMemberS{Value: "héllo"}, "n": &types.AttributeValueMemberN{Value: "-12345678901234567890.0001"}},
		{"b": &types.AttributeValueMemberB{Value: []byte{1, 2, 3}}, "t": &types.AttributeValueMemberBOOL{Value: true}, "z": &types.AttributeValueMemberNULL{Value: true}},
		{"ss": &types.AttributeValueMemberSS{Value: []string{"a", "bcd"}}, "ns": &types.AttributeValueMemberNS{Value: []string{"1.5", "100", "0.001"}},
			"bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}}},
		{"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "x"}, &types.AttributeValueMemberN{Value: "0"},
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"deep": &types.AttributeValueMemberL{}}}}}},
	} {
		got, err := itemSize(it)
		v, verr := value.FromItem(it)
		if err != nil || verr != nil {
			t.Fatal(err, verr)
		}
		if want := eval.ItemSize(v); got != want {
			t.Errorf("item %d: size %d, eval says %d (%v)", i, got, want, fmt.Sprint(it))
		}
	}
	if _, err := itemSize(Item{"x": nil}); err == nil {
		t.Error("a nil value has a size")
	}
}
