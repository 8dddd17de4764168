package replay

import (
	"context"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestNarrowShape scans a narrow table through the SDK: five attributes an
// item, k taking exactly Keys values with the counts i mod Keys implies,
// and x as NarrowX says.
func TestNarrowShape(t *testing.T) {
	const n, keys = 10_000, 3_000
	s := New(Options{Items: n, Keys: keys, PageBytes: 64 << 10, Lazy: true})
	defer s.Close()
	ctx := context.Background()
	client, err := s.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]int{}
	items := 0
	in := &dynamodb.ScanInput{TableName: aws.String("t")}
	for {
		out, err := client.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			if len(it) != 5 {
				t.Fatalf("item %v has %d attributes, want 5", it, len(it))
			}
			sk := it["sk"].(*types.AttributeValueMemberS).Value
			i, err := strconv.Atoi(sk[len("ORDER#"):])
			if err != nil {
				t.Fatal(err)
			}
			x := it["x"].(*types.AttributeValueMemberN).Value
			if want := strconv.FormatInt(NarrowX(i), 10); x != want {
				t.Fatalf("item %d: x %s, want %s", i, x, want)
			}
			k := it["k"].(*types.AttributeValueMemberS).Value
			if k != NarrowKeyText(i, keys) {
				t.Fatalf("item %d: k %s, want %s", i, k, NarrowKeyText(i, keys))
			}
			groups[k]++
			items++
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	if items != n || len(groups) != keys {
		t.Fatalf("%d items in %d groups, want %d in %d", items, len(groups), n, keys)
	}
	// 10,000 = 3 × 3,000 + 1,000: a thousand keys have four items.
	four := 0
	for _, c := range groups {
		if c == 4 {
			four++
		} else if c != 3 {
			t.Fatalf("a group of %d items", c)
		}
	}
	if four != 1000 {
		t.Fatalf("%d groups of four, want 1000", four)
	}
}
