package wire

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/memtest"
)

// Batches from the fast path own their memory. The response body and the
// decoder's scratch buffers go back to pools after each call and the next
// call reuses them, so a batch whose strings pointed into either would
// change as later pages are decoded. Decode many pages while keeping every
// batch, then compare each with the SDK path's batch for the same body:
// with Go's allocator (the decoder's buffers are handed to the batch) and
// with the poisoning checked allocator (batches are copies, freed buffers
// overwritten).
func TestBatchesOutliveLaterPages(t *testing.T) {
	for _, poisoned := range []bool{false, true} {
		t.Run(fmt.Sprintf("poisoned=%v", poisoned), func(t *testing.T) {
			var mem memory.Allocator = memory.NewGoAllocator()
			if poisoned {
				mem = memtest.Allocator(t)
			}
			var kept, want []arrow.RecordBatch
			defer func() { release(kept...); release(want...) }()
			for seed := 0; seed < 60; seed++ {
				g := newPageGen(uint64(7000 + seed))
				client := cannedClient(200, g.body(1+g.r.IntN(60)))
				got, err := readPage(t, client, New(client), mem, testKeys)
				if err != nil {
					t.Fatalf("seed %d: fast path: %v", seed, err)
				}
				sdk, err := readPage(t, client, nil, mem, testKeys)
				if err != nil {
					t.Fatalf("seed %d: SDK path: %v", seed, err)
				}
				kept, want = append(kept, got), append(want, sdk)
			}
			for i := range kept {
				if err := diffBatches(want[i], kept[i]); err != nil {
					t.Fatalf("page %d changed after later pages were decoded: %v", i, err)
				}
			}
		})
	}
}
