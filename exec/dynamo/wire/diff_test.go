package wire

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/memtest"
)

var testKeys = []string{"pk", "sk"}

// nonEmpty drops a batch without rows (exec's read operator skips those).
func nonEmpty(rec arrow.RecordBatch) arrow.RecordBatch {
	if rec != nil && rec.NumRows() == 0 {
		rec.Release()
		return nil
	}
	return rec
}

// TestDifferentialGenerated decodes generated pages (every type, attribute
// order varying per item, escapes, surrogates, edge numbers, nesting) three
// ways — exec's SDK path, DecodePage directly, and exec with Env.Raw set to
// Reader — and requires identical batches. The fast decoder must accept
// every one of these pages itself.
func TestDifferentialGenerated(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 60
	}
	for seed := 0; seed < seeds; seed++ {
		g := newPageGen(uint64(seed))
		n := g.r.IntN(80)
		if seed%10 == 0 {
			n = 0
		}
		body := g.body(n)
		// Odd seeds use a checked allocator (batches get copies it
		// accounts for), even ones Go's (the decoder's buffers are handed
		// to the batch).
		checked := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
		var mem memory.Allocator = checked
		if seed%2 == 0 {
			mem = memory.NewGoAllocator()
		}
		client := cannedClient(200, body)

		want, werr := readPage(t, client, nil, mem, testKeys)
		if werr != nil {
			t.Fatalf("seed %d: SDK path failed: %v\n%s", seed, werr, clip(body))
		}
		page, err := DecodePage(append([]byte(nil), body...), mem, testKeys)
		if err != nil {
			t.Fatalf("seed %d: DecodePage: %v\n%s", seed, err, clip(body))
		}
		direct := nonEmpty(page.Batch)
		if err := diffBatches(want, direct); err != nil {
			t.Fatalf("seed %d: DecodePage differs from the SDK path: %v\n%s", seed, err, clip(body))
		}
		got, gerr := readPage(t, client, New(client), mem, testKeys)
		if gerr != nil {
			t.Fatalf("seed %d: fast path failed: %v", seed, gerr)
		}
		if err := diffBatches(want, got); err != nil {
			t.Fatalf("seed %d: Reader differs from the SDK path: %v\n%s", seed, err, clip(body))
		}
		release(want, direct, got)
		checked.AssertSize(t, 0)
	}
}

// TestDifferentialOdd adds well-formed shapes the decoder leaves to the SDK
// (NULL-valued members, empty or multi-member values, repeated attributes
// and map keys, numbers as JSON numbers, invalid numbers or base64): the
// results, errors included, must still be the SDK path's.
func TestDifferentialOdd(t *testing.T) {
	fallbacks := 0
	for seed := 0; seed < 200; seed++ {
		g := newPageGen(uint64(1000 + seed))
		g.odd = true
		body := g.body(1 + g.r.IntN(60))
		mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
		client := cannedClient(200, body)
		want, werr := readPage(t, client, nil, mem, testKeys)
		got, gerr := readPage(t, client, New(client), mem, testKeys)
		if errKind(werr) != errKind(gerr) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("seed %d: errors differ: SDK path %v, fast path %v\n%s", seed, werr, gerr, clip(body))
		}
		if err := diffBatches(want, got); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, clip(body))
		}
		if _, err := DecodePage(append([]byte(nil), body...), memory.DefaultAllocator, testKeys); err != nil {
			if !IsUnsupported(err) {
				t.Fatalf("seed %d: well-formed body refused as malformed: %v", seed, err)
			}
			fallbacks++
		}
		release(want, got)
		mem.AssertSize(t, 0)
	}
	if fallbacks == 0 {
		t.Fatal("no page exercised the SDK fallback")
	}
}

// TestEdgeBodies checks hand-written bodies on both paths and whether the
// fast decoder handled them itself.
func TestEdgeBodies(t *testing.T) {
	big38 := "12345678901234567890123456789012345678"
	cases := []struct {
		name, body string
		fast       bool // DecodePage must accept it
	}{
		{"empty page", `{"Items":[],"Count":0,"ScannedCount":5,"LastEvaluatedKey":{"pk":{"S":"a"}}}`, true},
		{"no items member", `{"Count":7,"ScannedCount":7}`, true},
		{"empty object", `{}`, true},
		{"empty item", `{"Items":[{},{"a":{"S":"x"}}],"Count":2}`, true},
		{"empty strings", `{"Items":[{"":{"S":""}}]}`, true},
		{"escapes", `{"Items":[{"s":{"S":"a\"b\\c\/d\b\f\n\r\t\u00e9\u65e5\ud83d\ude00"}}]}`, true},
		{"lone surrogates", `{"Items":[{"s":{"S":"\ud800 \udc00 \ud800\u0041 \ud83d"}}]}`, true},
		{"raw invalid utf8", "{\"Items\":[{\"s\":{\"S\":\"a\xffb\"},\"t\":{\"S\":\"a\xff\\n\"}}]}", true},
		{"escaped names", `{"Items":[{"\u0070k":{"S":"p"},"a\"b":{"N":"1"},"M":{"M":{"\u00e9":{"S":"x"},"e":{"S":"y"}}}}]}`, true},
		{"38 digits", `{"Items":[{"n":{"N":"` + big38 + `"},"m":{"N":"-0.` + big38 + `"},"i":{"N":"9223372036854775807"}}]}`, true},
		{"int64 bounds", `{"Items":[{"n":{"N":"-9223372036854775808"}},{"n":{"N":"9223372036854775808"}}]}`, true},
		{"huge and tiny", `{"Items":[{"n":{"N":"9.99E+125"}},{"n":{"N":"1e-130"}},{"n":{"N":"-1E125"}}]}`, true},
		{"non-canonical numbers", `{"Items":[{"n":{"N":"1.50"}},{"n":{"N":" 7 "}},{"n":{"N":"+3"}},{"n":{"N":"-0"}},{"n":{"N":"00012"}}]}`, true},
		{"int then decimal", `{"Items":[{"n":{"N":"1"}},{},{"n":{"N":"2.5"}},{"n":{"N":"-3"}}]}`, true},
		{"type change", `{"Items":[{"v":{"S":"a"}},{"v":{"N":"1"}},{"v":{"BOOL":true}},{},{"v":{"B":"AAE="}},{"v":{"NULL":true}}]}`, true},
		{"bool then null", `{"Items":[{"v":{"BOOL":false}},{"v":{"BOOL":true}},{"v":{"NULL":true}}]}`, true},
		{"sets", `{"Items":[{"ss":{"SS":["b","a","",  "é"]},"ns":{"NS":["10","9","-1.5","0.25","1e2"]},"bs":{"BS":["AQ==","AA==",""]}}]}`, true},
		{"empty docs", `{"Items":[{"m":{"M":{}},"l":{"L":[]},"ss":{"SS":[]}}]}`, true},
		{"nested", `{"Items":[{"d":{"M":{"z":{"L":[{"M":{"b":{"N":"1"},"a":{"NULL":true}}},{"L":[]},{"BOOL":true}]},"a":{"B":""}}}}]}`, true},
		{"long list", `{"Items":[{"l":{"L":[` + strings.Repeat(`{"N":"1"},`, 200) + `{"N":"2"}]}}]}`, true},
		{"deep", `{"Items":[{"d":` + strings.Repeat(`{"L":[`, 40) + `{"S":"x"}` + strings.Repeat(`]}`, 40) + `}]}`, true},
		{"too deep for the decoder", `{"Items":[{"d":` + strings.Repeat(`{"L":[`, 80) + strings.Repeat(`]}`, 80) + `}]}`, false},
		{"whitespace", " \n{ \"Items\" : [ { \"a\" : { \"S\" : \"x\" } , \"b\" : { \"L\" : [ { \"N\" : \"1\" } ] } } ] , \"Count\" : 1 } \n", true},
		{"other members first", `{"ConsumedCapacity":{"TableName":"t","CapacityUnits":1.5},"LastEvaluatedKey":{"pk":{"S":"x"},"sk":{"B":"AA=="}},"Count":1,"Items":[{"pk":{"S":"x"}}]}`, true},
		{"keys first", `{"Items":[{"z":{"S":"1"},"sk":{"N":"2"},"a":{"S":"3"},"pk":{"S":"4"}},{"b":{"S":"5"}}]}`, true},
		{"null items", `{"Items":null,"Count":0}`, false},
		{"null item", `{"Items":[null,{"a":{"S":"x"}}]}`, false},
		{"null member", `{"Items":[{"a":{"S":null,"N":"1"}}]}`, false},
		{"null attribute", `{"Items":[{"a":null,"b":{"S":"x"}}]}`, false},
		{"empty value", `{"Items":[{"a":{"S":"x"},"b":{}}]}`, false},
		{"unknown type", `{"Items":[{"a":{"X":"1","S":"y"}}]}`, false},
		{"two members", `{"Items":[{"a":{"S":"y","N":"1"}}]}`, false},
		{"repeated attribute", `{"Items":[{"a":{"S":"x"},"a":{"N":"1"}}]}`, false},
		{"repeated map key", `{"Items":[{"a":{"M":{"k":{"S":"x"},"k":{"N":"1"}}}}]}`, false},
		{"escaped Items", `{"\u0049tems":[{"a":{"S":"x"}}]}`, false},
		{"items twice", `{"Items":[{"a":{"S":"x"}}],"Items":[{"b":{"S":"y"}}]}`, false},
		{"null NULL", `{"Items":[{"a":{"NULL":false}}]}`, true},
		{"null list element", `{"Items":[{"a":{"L":[null]}}]}`, false},
		{"null set member", `{"Items":[{"a":{"SS":["x",null]}}]}`, false},
		{"json number", `{"Items":[{"a":{"N":1}}]}`, false},
		{"invalid number", `{"Items":[{"a":{"N":"1e999"}}]}`, false},
		{"39 digits", `{"Items":[{"a":{"N":"` + big38 + `9"}}]}`, false},
		{"invalid base64", `{"Items":[{"a":{"B":"!!"}}]}`, false},
		{"base64 with newline escape", `{"Items":[{"a":{"B":"AA\n=="}}]}`, true},
		{"trailing data", `{"Items":[{"a":{"S":"x"}}]} trailing`, true},
		{"syntax: truncated", `{"Items":[{"a":{"S":"x"}`, false},
		{"syntax: bad literal", `{"Items":[{"a":{"BOOL":tru}}]}`, false},
		{"syntax: control char", "{\"Items\":[{\"a\":{\"S\":\"x\x01\"}}]}", false},
		{"syntax: bad escape", `{"Items":[{"a":{"S":"\x"}}]}`, false},
		{"syntax: trailing comma", `{"Items":[{"a":{"S":"x"}},]}`, false},
		{"syntax: not an object", `[1,2]`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
			client := cannedClient(200, body)
			want, werr := readPage(t, client, nil, mem, testKeys)
			got, gerr := readPage(t, client, New(client), mem, testKeys)
			if errKind(werr) != errKind(gerr) || (werr != nil && werr.Error() != gerr.Error()) {
				t.Fatalf("errors differ: SDK path %v, fast path %v", werr, gerr)
			}
			if err := diffBatches(want, got); err != nil {
				t.Fatal(err)
			}
			page, err := DecodePage(append([]byte(nil), body...), mem, testKeys)
			if tc.fast && err != nil {
				t.Fatalf("the decoder refused it: %v", err)
			}
			if !tc.fast && err == nil {
				t.Fatalf("the decoder accepted it")
			}
			if err == nil {
				if werr == nil {
					if derr := diffBatches(want, nonEmpty(page.Batch)); derr != nil {
						t.Fatalf("DecodePage: %v", derr)
					}
				}
			}
			release(want, got)
			if err == nil && page.Batch != nil && page.Batch.NumRows() > 0 {
				page.Batch.Release()
			}
			mem.AssertSize(t, 0)
		})
	}
}

// TestPageMetadata checks that Reader returns the SDK's own Count,
// ScannedCount, LastEvaluatedKey and ConsumedCapacity.
func TestPageMetadata(t *testing.T) {
	body := []byte(`{"ConsumedCapacity":{"TableName":"t","CapacityUnits":2.5,"Table":{"CapacityUnits":2.5}},` +
		`"Items":[{"pk":{"S":"a"}},{"pk":{"S":"b"}}],"Count":2,"ScannedCount":9,` +
		`"LastEvaluatedKey":{"pk":{"S":"b"},"sk":{"N":"7"}}}`)
	client := cannedClient(200, body)
	sdk, err := client.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("t")})
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
	rp, err := New(client).Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String("t")}, mem, testKeys)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Count != sdk.Count || rp.ScannedCount != sdk.ScannedCount || !reflect.DeepEqual(rp.LastEvaluatedKey, sdk.LastEvaluatedKey) ||
		!reflect.DeepEqual(rp.ConsumedCapacity, sdk.ConsumedCapacity) {
		t.Fatalf("metadata differs: %+v vs %+v", rp, sdk)
	}
	if rp.Batch == nil || rp.Batch.NumRows() != 2 {
		t.Fatalf("batch: %v", rp.Batch)
	}
	rp.Batch.Release()
	qp, err := New(client).Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String("t")}, mem, testKeys)
	if err != nil || qp.Batch.NumRows() != 2 || qp.ScannedCount != 9 {
		t.Fatalf("query: %v %+v", err, qp)
	}
	qp.Batch.Release()
	mem.AssertSize(t, 0)
}

// TestErrorResponses: non-2xx responses go to the SDK untouched, so the
// typed error (and exec's explanation of it) is the same on both paths.
func TestErrorResponses(t *testing.T) {
	body := []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"One or more parameter values were invalid"}`)
	client := cannedClient(400, body)
	mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
	_, werr := readPage(t, client, nil, mem, testKeys)
	_, gerr := readPage(t, client, New(client), mem, testKeys)
	if werr == nil || errKind(werr) != "api ValidationException" || werr.Error() != gerr.Error() || errKind(gerr) != errKind(werr) {
		t.Fatalf("SDK path %v (%s), fast path %v (%s)", werr, errKind(werr), gerr, errKind(gerr))
	}
	mem.AssertSize(t, 0)
}

func clip(b []byte) string {
	if len(b) > 3000 {
		return string(b[:3000]) + "…"
	}
	return string(b)
}
