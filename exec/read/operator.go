package read

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// Operator produces record batches. Next returns io.EOF after the last
// batch; the caller owns and releases every batch. Close is idempotent and
// safe before the first Next.
type Operator interface {
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close() error
}

// pageBatch turns a page into an operator's output batch, or nil when it
// holds no items; the page is the batch's or released.
func pageBatch(env *Env, keys []string, pg page) arrow.RecordBatch {
	if pg.empty() {
		pg.release()
		return nil
	}
	if pg.rec != nil {
		return pg.rec
	}
	return itemsBatch(env.Mem, pg.items, keys)
}
