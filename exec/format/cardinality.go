package format

import (
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/columnar"
)

// sampleCells is how many of a column's first present cells the binary
// writers look at to guess whether its values repeat.
const sampleCells = 4096

// repeatsEnough is the guess Parquet's dictionary encoding rests on: in
// the sample, each distinct value occurs at least this many times on
// average. A dictionary then makes the file smaller and its readers
// faster; for mostly distinct values (ids, timestamps, prices, documents)
// it costs a hash lookup per value and then falls back to plain encoding
// anyway once the dictionary page is full.
const repeatsEnough = 4

var sampleSeed = maphash.MakeSeed()

// cardinalitySample counts the distinct values among a column's first
// sampleCells present cells, by hash (a collision only undercounts by one).
type cardinalitySample struct {
	seen     int
	distinct map[uint64]struct{}
}

func (s *cardinalitySample) full() bool { return s.seen >= sampleCells }

func (s *cardinalitySample) add(h uint64) {
	if s.distinct == nil {
		s.distinct = make(map[uint64]struct{}, 256)
	}
	s.distinct[h] = struct{}{}
	s.seen++
}

// observe samples one batch column's present cells: the stored bytes of
// variable-width cells (an encoded document's bytes identify it as its
// JSON text does), the eight bytes of an integer.
func (s *cardinalitySample) observe(c columnar.Column, rows int) {
	if s.full() {
		return
	}
	var hash func(i int) uint64
	switch a := c.Array().(type) {
	case *array.String:
		hash = func(i int) uint64 { return maphash.String(sampleSeed, a.Value(i)) }
	case *array.Binary:
		hash = func(i int) uint64 { return maphash.Bytes(sampleSeed, a.Value(i)) }
	case *array.Int64:
		hash = func(i int) uint64 { return maphash.Comparable(sampleSeed, a.Value(i)) }
	default:
		return
	}
	for i := 0; i < rows && !s.full(); i++ {
		if !c.IsMissing(i) {
			s.add(hash(i))
		}
	}
}

// repeats reports whether the sampled values repeat enough for a
// dictionary (false when nothing was sampled).
func (s *cardinalitySample) repeats() bool {
	return s.seen > 0 && len(s.distinct)*repeatsEnough <= s.seen
}
