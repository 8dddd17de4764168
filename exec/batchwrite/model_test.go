package batchwrite_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/batchwrite"
)

// Random puts over few keys (many of them twice in one request, or in
// requests in flight together), with random UnprocessedItems, leave the
// table a model of "the last put of each key wins" predicts.
func TestRandomPutsMatchLastWriteWins(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		for seed := range uint64(4) {
			rng := rand.New(rand.NewPCG(seed, 99))
			f := &flaky{Client: b.client, unprocessed: func(req int, _ batchwrite.Item) bool {
				return req%3 != 0 && rand.N(10) < 3 // any put may come back, except in every third request
			}}
			w := batchwrite.New(f, b.table, batchwrite.Options{Keys: keys, Concurrency: 1 + int(seed), MaxRounds: 50, MaxBackoff: 1})
			model := map[string]string{}
			for i := range 400 {
				pk, sk := fmt.Sprintf("S%d", seed), rng.IntN(40)
				payload := fmt.Sprintf("put %d", i)
				it := item(pk, sk, payload)
				if rng.IntN(4) == 0 {
					it["SK"] = &types.AttributeValueMemberN{Value: fmt.Sprintf("%d.000", sk)} // the same key, written another way
				}
				if err := w.Put(ctx, it); err != nil {
					t.Fatal(err)
				}
				model[fmt.Sprint(sk)] = rowOf(pk, sk, payload)
			}
			res, err := w.Flush(ctx)
			if err != nil || res.Written != 400 {
				t.Fatalf("seed %d: %+v, %v", seed, res, err)
			}
			var want []string
			for _, r := range model {
				want = append(want, r)
			}
			var got []string
			for _, r := range tableRows(t, b.client, b.table) {
				if r[:len(fmt.Sprintf("S%d/", seed))] == fmt.Sprintf("S%d/", seed) {
					got = append(got, r)
				}
			}
			assertRows(t, got, want)
		}
	})
}
