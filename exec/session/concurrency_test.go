package session_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
)

// TestConcurrencyBound checks that --concurrency bounds the requests in
// flight for every fan-out, the COUNT of an IN list included (its
// Queries all run to the end, but not all at once).
func TestConcurrencyBound(t *testing.T) {
	demo := newFaultyDemo(t)
	var running, most, queries atomic.Int32
	demo.set(func(ctx context.Context, op string, _ any) error {
		if op != "Query" {
			return nil
		}
		queries.Add(1)
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(time.Millisecond) // let the others pile up if they may
		return nil
	})
	defer demo.set(nil)
	var keys []string
	for i := range 60 {
		keys = append(keys, fmt.Sprintf("'WS#%d'", i))
	}
	in := strings.Join(keys, ", ")
	for _, sql := range []string{
		"SELECT COUNT(*) FROM app WHERE PK IN (" + in + ")",
		"SELECT * FROM app WHERE PK IN (" + in + ")",
	} {
		most.Store(0)
		queries.Store(0)
		cfg := session.DefaultConfig()
		cfg.Mem, cfg.Concurrency = memtest.Allocator(t), 4
		s := session.New(demo.db, io.Discard, io.Discard, cfg)
		if err := s.RunScript(context.Background(), sql); err != nil {
			t.Fatal(err)
		}
		if queries.Load() != 60 || most.Load() > 4 {
			t.Errorf("%.40s…: %d Queries, %d at once; want 60, at most 4", sql, queries.Load(), most.Load())
		}
	}
}
