package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The int64, utf8 and binary columns of a gathered batch are written into
// their Arrow buffers directly: the picks are resolved to source batches
// once per gathered batch (pickSources), every column then reads its
// sources' raw offsets and bytes, and a variable-width column copies each
// run of consecutive rows of one source with one copy (a nearly sorted
// input gathers in long runs).

// pickSources numbers the distinct batches of picks: src[k] is the index
// in recs of picks[k].rec.
func pickSources(picks []pick) (recs []arrow.RecordBatch, src []int32) {
	src = make([]int32, len(picks))
	index := map[arrow.RecordBatch]int32{}
	var last arrow.RecordBatch
	lastIdx := int32(-1)
	for k, p := range picks {
		if p.rec != last || lastIdx < 0 {
			i, ok := index[p.rec]
			if !ok {
				i = int32(len(recs))
				index[p.rec] = i
				recs = append(recs, p.rec)
			}
			last, lastIdx = p.rec, i
		}
		src[k] = lastIdx
	}
	return recs, src
}

// newBuffer is a buffer of n bytes from mem (contents unspecified).
func newBuffer(mem memory.Allocator, n int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(n)
	return b
}

// validityOf builds the validity bitmap of the gathered column (nil and 0
// when every picked cell is valid).
func validityOf(mem memory.Allocator, arrs []arrow.Array, src []int32, picks []pick) (*memory.Buffer, int) {
	anyNulls := false
	for _, a := range arrs {
		if a.NullN() > 0 {
			anyNulls = true
			break
		}
	}
	if !anyNulls {
		return nil, 0
	}
	buf := newBuffer(mem, int(bitutil.BytesForBits(int64(len(picks)))))
	bits := buf.Bytes()
	clear(bits)
	nulls := 0
	for k, p := range picks {
		if arrs[src[k]].IsNull(p.row) {
			nulls++
			continue
		}
		bitutil.SetBit(bits, k)
	}
	return buf, nulls
}

// gatherInt64s gathers an int64 column.
func gatherInt64s(mem memory.Allocator, dt arrow.DataType, c int, recs []arrow.RecordBatch, src []int32, picks []pick) arrow.Array {
	arrs := make([]arrow.Array, len(recs))
	vals := make([][]int64, len(recs))
	for i, r := range recs {
		a := r.Column(c).(*array.Int64)
		arrs[i], vals[i] = a, a.Int64Values()
	}
	validity, nulls := validityOf(mem, arrs, src, picks)
	values := newBuffer(mem, len(picks)*8)
	out := arrow.Int64Traits.CastFromBytes(values.Bytes())
	for k, p := range picks {
		out[k] = vals[src[k]][p.row]
	}
	return finishArray(dt, len(picks), nulls, validity, values)
}

// gatherVarWidth gathers a utf8 or binary column (32-bit offsets).
func gatherVarWidth(mem memory.Allocator, dt arrow.DataType, c int, recs []arrow.RecordBatch, src []int32, picks []pick) arrow.Array {
	arrs := make([]arrow.Array, len(recs))
	offs := make([][]int32, len(recs)) // each source's offsets, from its first row
	datas := make([][]byte, len(recs))
	for i, r := range recs {
		a := r.Column(c)
		arrs[i] = a
		d := a.Data()
		offs[i] = arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset():]
		if b := d.Buffers()[2]; b != nil {
			datas[i] = b.Bytes()
		}
	}
	validity, nulls := validityOf(mem, arrs, src, picks)
	total := 0
	for k, p := range picks {
		o := offs[src[k]]
		total += int(o[p.row+1] - o[p.row])
	}
	offsets := newBuffer(mem, (len(picks)+1)*4)
	outOffs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	data := newBuffer(mem, total)
	out := data.Bytes()
	pos := int32(0)
	for k := 0; k < len(picks); {
		s, row := src[k], picks[k].row
		// The run of picks that continue row by row in the same source.
		end := k + 1
		for end < len(picks) && src[end] == s && picks[end].row == row+(end-k) {
			end++
		}
		o := offs[s]
		base := o[row]
		copy(out[pos:], datas[s][base:o[row+end-k]])
		for j := k; j < end; j++ {
			outOffs[j] = pos + o[row+j-k] - base
		}
		pos += o[row+end-k] - base
		k = end
	}
	outOffs[len(picks)] = pos
	return finishArray(dt, len(picks), nulls, validity, offsets, data)
}

// finishArray makes the array of the buffers and lets go of them.
func finishArray(dt arrow.DataType, n, nulls int, validity *memory.Buffer, bufs ...*memory.Buffer) arrow.Array {
	all := append([]*memory.Buffer{validity}, bufs...)
	data := array.NewData(dt, n, all, nil, nulls, 0)
	for _, b := range all {
		if b != nil {
			b.Release()
		}
	}
	defer data.Release()
	return array.MakeFromData(data)
}
