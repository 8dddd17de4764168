package wire

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/exec/memtest"
)

// TestGetItemAndBatchGetItem compares Reader.GetItem and
// Reader.BatchGetItem with the SDK's own outputs converted the SDK path's
// way, over generated items (and odd ones the decoder leaves to the SDK).
func TestGetItemAndBatchGetItem(t *testing.T) {
	ctx := context.Background()
	for seed := 0; seed < 120; seed++ {
		g := newPageGen(uint64(5000 + seed))
		g.odd = seed%3 == 2
		var item strings.Builder
		g.item(&item, seed)
		mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))

		// GetItem: the item, or none.
		body := `{"Item":` + item.String() + `,"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}`
		if seed%10 == 0 {
			body = `{"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}`
		}
		client := cannedClient(200, []byte(body))
		in := &dynamodb.GetItemInput{TableName: aws.String("t"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "x"}}}
		sdk, serr := client.GetItem(ctx, in)
		got, out, gerr := New(client).GetItem(ctx, in, mem, testKeys)
		if (serr != nil) != (gerr != nil) {
			t.Fatalf("seed %d: GetItem errors differ: %v vs %v", seed, serr, gerr)
		}
		if serr == nil {
			if sdk.Item == nil {
				if got != nil {
					t.Fatalf("seed %d: a batch for a missing item", seed)
				}
			} else {
				want, err := rawpage.ItemsBatch(mem, []map[string]types.AttributeValue{sdk.Item}, testKeys)
				if err == nil {
					if derr := diffBatches(want, got); derr != nil {
						t.Fatalf("seed %d: GetItem: %v\n%s", seed, derr, body)
					}
					want.Release()
				}
			}
			if *out.ConsumedCapacity.CapacityUnits != 0.5 || out.Item != nil {
				t.Fatalf("seed %d: output %+v", seed, out)
			}
		}
		release(got)

		// BatchGetItem: two tables and unprocessed keys.
		var b2 strings.Builder
		g.item(&b2, seed+1)
		body = `{"Responses":{"t":[` + item.String() + `,` + b2.String() + `],"u":[]},"UnprocessedKeys":{"t":{"Keys":[{"pk":{"S":"k"}}]}}}`
		client = cannedClient(200, []byte(body))
		bin := &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"t": {Keys: []map[string]types.AttributeValue{in.Key}}}}
		bsdk, serr := client.BatchGetItem(ctx, bin)
		tables, bout, gerr := New(client).BatchGetItem(ctx, bin, mem, map[string][]string{"t": testKeys})
		if (serr != nil) != (gerr != nil) {
			t.Fatalf("seed %d: BatchGetItem errors differ: %v vs %v", seed, serr, gerr)
		}
		if serr == nil {
			if len(tables) != len(bsdk.Responses) || len(bout.UnprocessedKeys["t"].Keys) != 1 {
				t.Fatalf("seed %d: %d tables, SDK %d; unprocessed %v", seed, len(tables), len(bsdk.Responses), bout.UnprocessedKeys)
			}
			for name, items := range bsdk.Responses {
				want, err := rawpage.ItemsBatch(mem, items, map[string][]string{"t": testKeys}[name])
				if err != nil {
					continue
				}
				if derr := diffBatches(want, tables[name]); derr != nil {
					t.Fatalf("seed %d: table %s: %v\n%s", seed, name, derr, body)
				}
				want.Release()
			}
		}
		for _, b := range tables {
			b.Release()
		}
		mem.AssertSize(t, 0)
	}
}

func TestDecodeGetItemShapes(t *testing.T) {
	for _, tc := range []struct {
		body string
		rows int64 // -1: no batch
		fast bool
	}{
		{`{"Item":{"pk":{"S":"a"},"n":{"N":"1"}}}`, 1, true},
		{`{}`, -1, true},
		{`{"ConsumedCapacity":{"CapacityUnits":1}}`, -1, true},
		{`{"Item":null}`, -1, false},
		{`{"Item":{}}`, 1, true},
	} {
		p, err := DecodeGetItem([]byte(tc.body), memory.DefaultAllocator, testKeys)
		if (err == nil) != tc.fast {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if err != nil {
			continue
		}
		if (p.Batch == nil) != (tc.rows < 0) || (p.Batch != nil && p.Batch.NumRows() != tc.rows) {
			t.Fatalf("%s: batch %v", tc.body, p.Batch)
		}
		stripped := string(Strip([]byte(tc.body), p))
		if p.Batch != nil && !strings.Contains(stripped, `"Item":null`) {
			t.Fatalf("%s: stripped to %s", tc.body, stripped)
		}
		p.Release()
	}
}
