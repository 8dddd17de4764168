package memdb

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Reference sizes computed with dynalite 4.0.0's db.itemSize(item) and
// db.itemSize(item, true, true, "sk").
func TestItemAndPageSizesMatchDynalite(t *testing.T) {
	b64 := func(s string) []byte { b, _ := base64.StdEncoding.DecodeString(s); return b }
	cases := []struct {
		it         rec
		size, page int
	}{
		{rec{"pk": S("abc")}, 5, 25},
		{rec{"pk": S("abc"), "sk": N("12.5"), "n1": N("0"), "n2": N("-1"), "n3": N("1200"),
			"n4": N("99999999999999999999999999999999999999"), "n5": N("0.001"), "n6": N("-123456")}, 55, 73},
		{rec{"pk": S("x"), "b": B(1, 2, 3), "t": &types.AttributeValueMemberBOOL{Value: true}, "z": &types.AttributeValueMemberNULL{Value: true},
			"ss": &types.AttributeValueMemberSS{Value: []string{"a", "bb"}}, "ns": &types.AttributeValueMemberNS{Value: []string{"1", "22"}},
			"bs": &types.AttributeValueMemberBS{Value: [][]byte{b64("AQ==")}}}, 25, 50},
		{rec{"pk": S("x"), "l": &types.AttributeValueMemberL{Value: []av{S("a"), N("1"), &types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberM{Value: rec{"k": S("v")}}}},
			"m": &types.AttributeValueMemberM{Value: rec{"a": S("x"), "bb": &types.AttributeValueMemberL{Value: []av{}}, "c": &types.AttributeValueMemberM{Value: rec{}}}}}, 39, 61},
		{rec{"pk": S("x"), "sk": S(strings.Repeat("y", 200)), "body": S(strings.Repeat("z", 20000))}, 20209, 21535},
	}
	for i, c := range cases {
		v, msg := checkItem(c.it)
		if msg != "" {
			t.Fatal(msg)
		}
		if got := itemSize(v); got != c.size {
			t.Errorf("case %d: itemSize %d, want %d", i, got, c.size)
		}
		if got := pageSize(v, "sk"); got != c.page {
			t.Errorf("case %d: pageSize %d, want %d", i, got, c.page)
		}
	}
}

func TestCapacityRounding(t *testing.T) {
	cases := []struct {
		bytes      int
		consistent bool
		want       float64
	}{
		{1, false, 0.5}, {4096, false, 0.5}, {4097, false, 1}, {13 * 1024, false, 2}, {13 * 1024, true, 4}, {0, true, 0},
	}
	for _, c := range cases {
		if got := readUnits(c.bytes, c.consistent); got != c.want {
			t.Errorf("readUnits(%d, %v) = %v, want %v", c.bytes, c.consistent, got, c.want)
		}
	}
	if writeUnits(1024) != 1 || writeUnits(1025) != 2 {
		t.Errorf("write units: %v %v", writeUnits(1024), writeUnits(1025))
	}
}
