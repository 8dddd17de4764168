package format

import (
	"bytes"
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestJSONMatchesReference writes the random batches of
// TestDelimitedMatchesReference as json and ndjson and compares the bytes
// with a reference built the slow way: every cell read as a value.Value
// (Column.Value) and rendered with value.AppendJSON; SELECT * objects hold
// the key columns then the other attributes in byte order, absent ones
// left out.
func TestJSONMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	seen := map[columnar.Encoding]bool{}
	for round := 0; round < 60; round++ {
		dynamic := round%2 == 1
		batches := randomBatches(t, rng, 1+rng.Intn(4), dynamic)
		h := Header{Columns: batches[0].names}
		if dynamic {
			h = Header{Dynamic: true, KeyColumns: []string{"PK"}}
		}
		for _, f := range []string{"json", "ndjson"} {
			got, want := renderJSONWithReference(t, f, h, batches, seen)
			if got != want {
				t.Fatalf("round %d %s (dynamic %v):\n got %q\nwant %q", round, f, dynamic, got, want)
			}
		}
	}
	for _, e := range []columnar.Encoding{columnar.EncString, columnar.EncInt64, columnar.EncNumberText, columnar.EncBool, columnar.EncBinary, columnar.EncValue} {
		if !seen[e] {
			t.Errorf("no column had encoding %d: the test does not cover it", e)
		}
	}
}

func renderJSONWithReference(t *testing.T, f string, h Header, batches []batch, seen map[columnar.Encoding]bool) (got, want string) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
	defer mem.AssertSize(t, 0)
	var recs []arrow.RecordBatch
	for _, b := range batches {
		rb := columnar.NewRowBuilder(mem, b.names)
		for _, r := range b.rows {
			rb.Append(r)
		}
		rec := rb.Build()
		defer rec.Release()
		for i := 0; i < int(rec.NumCols()); i++ {
			seen[columnar.ColumnOf(rec, i).Encoding()] = true
		}
		recs = append(recs, rec)
	}
	var out bytes.Buffer
	w, _ := New(f, &out, Options{})
	if err := w.Begin(h); err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.WriteBatch(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	return out.String(), referenceJSON(f == "json", h, recs)
}

// referenceJSON is what the json writers must produce, built from values.
// The random batches never hold a name twice.
func referenceJSON(array bool, h Header, recs []arrow.RecordBatch) string {
	var objects [][]byte
	for _, rec := range recs {
		names := make([]string, rec.NumCols())
		for c := range names {
			names[c] = rec.Schema().Field(c).Name
		}
		order := make([]int, len(names))
		for c := range order {
			order[c] = c
		}
		if h.Dynamic {
			sort.SliceStable(order, func(a, b int) bool {
				ka, kb := slices.Contains(h.KeyColumns, names[order[a]]), slices.Contains(h.KeyColumns, names[order[b]])
				if ka != kb {
					return ka
				}
				return names[order[a]] < names[order[b]]
			})
		}
		for row := 0; row < int(rec.NumRows()); row++ {
			o := []byte{'{'}
			first := true
			for _, c := range order {
				v := columnar.ColumnOf(rec, c).Value(row)
				if h.Dynamic && v.Kind() == value.Missing {
					continue
				}
				if !first {
					o = append(o, ',')
				}
				first = false
				o = value.AppendJSON(o, value.Str(names[c]))
				o = append(o, ':')
				o = value.AppendJSON(o, v)
			}
			objects = append(objects, append(o, '}'))
		}
	}
	var b bytes.Buffer
	if !array {
		for _, o := range objects {
			b.Write(o)
			b.WriteByte('\n')
		}
		return b.String()
	}
	b.WriteByte('[')
	for i, o := range objects {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		b.Write(o)
	}
	if len(objects) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return b.String()
}
