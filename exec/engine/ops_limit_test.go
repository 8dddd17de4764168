package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"testing"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// otNumbered returns batches of the given sizes holding rows i = 0, 1, …
// in a column "i" (and a string column in every other batch, so layouts vary).
func otNumbered(sizes ...int) []otBatch {
	var out []otBatch
	i := 0
	for b, n := range sizes {
		batch := otBatch{names: []string{"i"}}
		if b%2 == 1 {
			batch.names = []string{"i", "s"}
		}
		for r := 0; r < n; r++ {
			row := []value.Value{otN(strconv.Itoa(i))}
			if b%2 == 1 {
				row = append(row, otS("row "+strconv.Itoa(i)))
			}
			batch.rows = append(batch.rows, row)
			i++
		}
		out = append(out, batch)
	}
	return out
}

func TestLimitOffsetAndCount(t *testing.T) {
	sizes := []int{3, 0, 5, 2, 7}
	all := otRowsOf(otNumbered(sizes...)...)
	for offset := int64(0); offset <= 19; offset++ {
		for count := int64(-1); count <= 19; count++ {
			t.Run(fmt.Sprintf("offset%d_count%d", offset, count), func(t *testing.T) {
				env := otEnv(t)
				src := otSrc(env, otNumbered(sizes...)...)
				op := otMustBuild(t, env, &planner.Limit{Input: &otLeaf{op: src}, Offset: offset, Count: count})
				got, _, err := otDrain(op)
				if err != nil {
					t.Fatal(err)
				}
				if err := op.Close(); err != nil {
					t.Fatal(err)
				}
				src.check(t)
				lo := min(offset, int64(len(all)))
				hi := int64(len(all))
				if count >= 0 {
					hi = min(lo+count, hi)
				}
				otSameRows(t, "LIMIT", got, all[lo:hi])
				// No batch is read beyond the one holding the last row needed.
				if count >= 0 {
					need, seen, nexts := offset+count, int64(0), 0
					for _, n := range sizes {
						if count == 0 || seen >= need {
							break
						}
						nexts++
						seen += int64(n)
					}
					if count > 0 && seen < need {
						nexts++ // the EOF
					}
					if src.nexts != nexts {
						t.Errorf("the input was asked for %d batches, want %d", src.nexts, nexts)
					}
				}
			})
		}
	}
}

// LIMIT 0 reads nothing; LIMIT 1 over many batches reads one and closes its
// input at once; Close before the first Next and Close twice are safe.
func TestLimitEarlyClose(t *testing.T) {
	many := make([]int, 50)
	for i := range many {
		many[i] = 100
	}
	t.Run("limit0", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, otNumbered(many...)...)
		op := newLimitOp(src, 0, 0)
		if _, err := op.Next(context.Background()); err != io.EOF {
			t.Fatalf("LIMIT 0: %v, want EOF", err)
		}
		if src.nexts != 0 || src.closes != 1 {
			t.Errorf("LIMIT 0 read %d batches, closed %d times", src.nexts, src.closes)
		}
		op.Close()
		src.check(t)
	})
	t.Run("limit1", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, otNumbered(many...)...)
		op := newLimitOp(src, 0, 1)
		rows, batches, err := otDrain(op)
		if err != nil || len(rows) != 1 || batches != 1 {
			t.Fatalf("LIMIT 1: %d rows in %d batches, %v", len(rows), batches, err)
		}
		if src.nexts != 1 || src.closes != 1 {
			t.Errorf("LIMIT 1 read %d batches and closed its input %d times before Close", src.nexts, src.closes)
		}
		op.Close()
		op.Close()
		src.check(t)
	})
	t.Run("limit1_offset_beyond_first_batches", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, otNumbered(many...)...)
		op := newLimitOp(src, 250, 1)
		rows, _, err := otDrain(op)
		if err != nil || len(rows) != 1 || rows[0].get("i").Text() != "250" {
			t.Fatalf("OFFSET 250 LIMIT 1 = %v, %v", rows, err)
		}
		if src.nexts != 3 {
			t.Errorf("read %d batches, want 3", src.nexts)
		}
		op.Close()
		src.check(t)
	})
	t.Run("close_before_next", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, otNumbered(many...)...)
		op := newLimitOp(src, 0, 5)
		if err := op.Close(); err != nil {
			t.Fatal(err)
		}
		if err := op.Close(); err != nil {
			t.Fatal(err)
		}
		if src.nexts != 0 || src.closes != 1 {
			t.Errorf("read %d batches, closed %d times", src.nexts, src.closes)
		}
	})
	t.Run("close_mid_stream", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, otNumbered(many...)...)
		op := newLimitOp(src, 0, -1)
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		b.Release()
		op.Close()
		src.check(t)
	})
	t.Run("error_mid_stream", func(t *testing.T) {
		env := otEnv(t)
		src := otSrc(env, otNumbered(many...)...)
		src.failAt = 3
		op := newLimitOp(src, 10, 1000)
		rows, _, err := otDrain(op)
		if !errors.Is(err, otErrInput) {
			t.Fatalf("error %v, want the input's", err)
		}
		if len(rows) != 290 {
			t.Errorf("%d rows before the error, want 290", len(rows))
		}
		op.Close()
		src.check(t)
	})
}
