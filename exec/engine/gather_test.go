package engine

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ddbsql/ddbsql/exec/memtest"
)

// TestGatherCopiesEveryCell: gathered int64, utf8, binary and bool columns
// hold exactly the picked cells — nulls, empty strings, sliced source
// arrays (a non-zero offset), runs of consecutive rows and single rows
// from many batches alike — and nothing leaks once the batches go.
func TestGatherCopiesEveryCell(t *testing.T) {
	mem := memtest.Allocator(t)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "f", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	}, nil)
	r := rand.New(rand.NewPCG(5, 8))
	var recs []arrow.RecordBatch
	for k := 0; k < 6; k++ {
		bld := array.NewRecordBuilder(mem, schema)
		for row := 0; row < 300; row++ {
			if r.IntN(7) == 0 {
				for c := 0; c < 4; c++ {
					bld.Field(c).AppendNull()
				}
				continue
			}
			text := strconv.Itoa(k) + "/" + strconv.Itoa(row)
			if r.IntN(9) == 0 {
				text = ""
			}
			bld.Field(0).(*array.Int64Builder).Append(int64(k*1000 + row))
			bld.Field(1).(*array.StringBuilder).Append(text)
			bld.Field(2).(*array.BinaryBuilder).Append([]byte("b" + text))
			bld.Field(3).(*array.BooleanBuilder).Append(row%3 == 0)
		}
		full := bld.NewRecordBatch()
		bld.Release()
		// Every other batch is a slice of a larger one.
		if k%2 == 1 {
			recs = append(recs, full.NewSlice(17, 250))
			full.Release()
		} else {
			recs = append(recs, full)
		}
	}
	var picks []pick
	for len(picks) < 5000 { // 20,000 cells: the columns are copied in parallel
		rec := recs[r.IntN(len(recs))]
		row := r.IntN(int(rec.NumRows()))
		for n := 1 + r.IntN(6); n > 0 && row < int(rec.NumRows()); n-- {
			picks = append(picks, pick{rec: rec, row: row})
			row++
		}
	}
	want := make([][]string, 4) // the picked cells' text, "<null>" for null
	for c := range want {
		for _, p := range picks {
			want[c] = append(want[c], cellText(p.rec.Column(c), p.row))
		}
	}
	out, err := gather(mem, schema, picks)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		rec.Release() // the gathered batch owns copies: poisoned sources do not show
	}
	for c := range want {
		for k := range picks {
			if got := cellText(out.Column(c), k); got != want[c][k] {
				t.Fatalf("column %d, pick %d: got %q, want %q", c, k, got, want[c][k])
			}
		}
	}
	out.Release()
}

func cellText(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "<null>"
	}
	return strings.Clone(a.ValueStr(i)) // not the array's bytes, which are poisoned once freed
}
