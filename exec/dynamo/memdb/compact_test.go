package memdb

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestCompactItemRoundTrips(t *testing.T) {
	item := rec{"pk": S("p"), "sk": N("1.5"), "b": B(0, 1, 255), "n": &types.AttributeValueMemberNULL{Value: true},
		"ok": &types.AttributeValueMemberBOOL{Value: true}, "ss": &types.AttributeValueMemberSS{Value: []string{"b", "a"}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"3", "-1"}}, "bs": &types.AttributeValueMemberBS{Value: [][]byte{{2}, {1}}},
		"m": &types.AttributeValueMemberM{Value: rec{"l": &types.AttributeValueMemberL{Value: []av{S("x"), N("2")}}, "e": &types.AttributeValueMemberM{Value: rec{}}}},
		"é": S("")}
	a, msg := convertItem(item)
	if msg != "" {
		t.Fatal(msg)
	}
	it := newItem(a, "sk")
	if got := it.attrs(); !reflect.DeepEqual(got, a) {
		t.Errorf("decoded\n %v\nwant %v", got, a)
	}
	if got, want := it.only(map[string]bool{"m": true, "pk": true, "absent": true}), a.pick("m", "pk"); !reflect.DeepEqual(got, sortAttrs(want)) {
		t.Errorf("only m, pk: %v, want %v", got, want)
	}
	if got := it.only(map[string]bool{}); len(got) != 0 {
		t.Errorf("only nothing: %v", got)
	}
	if it.size != itemSize(a) || it.psize != pageSize(a, "sk") {
		t.Errorf("sizes %d %d", it.size, it.psize)
	}
}
