package rawpage

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/columnar"
)

// ItemsBatch puts the key attributes first, then the rest in byte order,
// and leaves a missing attribute null.
func TestItemsBatchColumnOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	items := []map[string]types.AttributeValue{
		{"sk": &types.AttributeValueMemberS{Value: "a"}, "pk": &types.AttributeValueMemberS{Value: "p"}, "zeta": &types.AttributeValueMemberN{Value: "1"}},
		{"pk": &types.AttributeValueMemberS{Value: "p"}, "sk": &types.AttributeValueMemberS{Value: "b"}, "Alpha": &types.AttributeValueMemberBOOL{Value: true}},
	}
	rec, err := ItemsBatch(mem, items, []string{"pk", "sk", "absent"})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	var names []string
	for _, f := range rec.Schema().Fields() {
		names = append(names, f.Name)
	}
	if want := []string{"pk", "sk", "Alpha", "zeta"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("columns %v, want %v", names, want)
	}
	if rec.NumRows() != 2 {
		t.Fatalf("%d rows, want 2", rec.NumRows())
	}
	alpha, zeta := columnar.ColumnOf(rec, 2), columnar.ColumnOf(rec, 3)
	if !alpha.Value(0).IsNull() || alpha.Value(1).IsNull() || zeta.Value(0).IsNull() || !zeta.Value(1).IsNull() {
		t.Errorf("an attribute must be null exactly where the item lacks it: Alpha %s %s, zeta %s %s",
			alpha.Value(0).JSON(), alpha.Value(1).JSON(), zeta.Value(0).JSON(), zeta.Value(1).JSON())
	}
}

// An item value.FromItem refuses is an *ItemError naming the problem.
func TestItemsBatchRefusesUnreadableItem(t *testing.T) {
	items := []map[string]types.AttributeValue{{"pk": &types.AttributeValueMemberN{Value: "not a number"}}}
	_, err := ItemsBatch(memory.NewGoAllocator(), items, []string{"pk"})
	var ie *ItemError
	if !errors.As(err, &ie) {
		t.Fatalf("error %T %v, want *ItemError", err, err)
	}
	if !strings.HasPrefix(err.Error(), "DynamoDB returned an item ddbsql cannot read: attribute pk") {
		t.Errorf("message %q", err.Error())
	}
}
