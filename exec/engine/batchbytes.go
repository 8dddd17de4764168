package engine

import "github.com/apache/arrow-go/v18/arrow"

// recordBytes is the size of the buffers a batch holds: whole buffers, as
// retaining a slice of a batch retains them, at their capacity (a
// builder's buffers grow ahead of their contents, and what was allocated
// is what the process holds). Operators reserve it from --memory-limit
// for every batch they keep.
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		n += dataBytes(c.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(max(b.Len(), b.Cap()))
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	return n
}
