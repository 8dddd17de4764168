package wire

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/exec/memtest"
)

// FuzzDecodePage feeds arbitrary bodies to the decoder. It must never panic
// or leak, must explain every refusal with an *Error, and whenever it
// accepts a body the result must be the SDK path's: the SDK's deserializer
// reading the same body must yield the same items (or fail just the same
// on the stripped body the fast path hands it).
//
//	go test -run '^$' -fuzz FuzzDecodePage ./exec/dynamo/wire/
func FuzzDecodePage(f *testing.F) {
	for _, s := range []string{
		`{"Items":[{"pk":{"S":"a"},"n":{"N":"1.5"},"b":{"BOOL":true},"m":{"M":{"x":{"L":[{"NULL":true}]}}},"s":{"SS":["b","a"]}}],"Count":1}`,
		`{"Items":[{"a":{"S":"\ud83d\ude00\u00e9\n"}},{"a":{"N":"12345678901234567890123456789012345678"}}]}`,
		`{"Items":[{"v":{"NS":["10","9","-1.5"]},"w":{"BS":["AQ==","AA=="]}}],"LastEvaluatedKey":{"pk":{"S":"x"}}}`,
		`{"Count":3}`, `{"Items":[]}`, `{"Items":[{}]}`, `{"Items":null}`, `{"Items":[{"a":{"S":null}}]}`,
		`{"Items":[{"a":{"S":"x"},"a":{"S":"y"}}]}`, `{"Items":[{"a":{"M":{"k":{"S":"1"},"k":{"S":"2"}}}}]}`,
		`{"Items":[{"a":{"N":"1e-130"},"b":{"N":"9.9e125"},"c":{"N":"-0"}}]}`, `{"Items":[{"a":{"B":"AA\n=="}}]}`,
		`{"Item":{"pk":{"S":"a"}}}`, `{"Responses":{"t":[{"pk":{"S":"a"}}],"u":[]},"UnprocessedKeys":{}}`,
	} {
		f.Add([]byte(s))
	}
	for seed := 0; seed < 8; seed++ {
		g := newPageGen(uint64(seed))
		g.odd = seed%2 == 1
		f.Add(g.body(1 + g.r.IntN(6)))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
		defer mem.AssertSize(t, 0)
		work := append([]byte(nil), body...)
		page, err := DecodePage(work, mem, testKeys)
		if err != nil {
			var we *Error
			if !errors.As(err, &we) || we.Msg == "" || we.Offset < 0 || we.Offset > len(body) {
				t.Fatalf("unclear error %#v", err)
			}
			return
		}
		defer func() {
			if page.Batch != nil {
				page.Batch.Release()
			}
		}()
		in := &dynamodb.ScanInput{TableName: aws.String("t")}
		out, sdkErr := cannedClient(200, body).Scan(context.Background(), in)
		if sdkErr != nil {
			// The fast path must fail as well: the SDK reads the stripped body.
			if _, err := cannedClient(200, Strip(work, page)).Scan(context.Background(), in); err == nil {
				t.Fatalf("decoder accepted a body the SDK rejects (%v)", sdkErr)
			}
			return
		}
		want, err := rawpage.ItemsBatch(mem, out.Items, testKeys)
		if err != nil {
			return // exec's SDK path fails too; Reader returns the same error
		}
		defer want.Release()
		got := page.Batch
		if got == nil {
			if len(out.Items) != 0 {
				t.Fatalf("no batch, SDK has %d items", len(out.Items))
			}
			return
		}
		if err := diffBatches(want, got); err != nil {
			t.Fatal(err)
		}
	})
}
