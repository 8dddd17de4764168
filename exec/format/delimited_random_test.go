package format

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/planner/value"
)

// TestDelimitedMatchesReference writes random batches as csv and tsv and
// compares the bytes with a reference built the slow way: every cell read
// as a value.Value (Column.Value) and rendered with value.Display, csv
// records written by encoding/csv (a record of one empty field as ""),
// tsv fields escaped with a strings.Replacer, the _extra object as
// value.AppendJSON of a map. Strings are drawn to hit every quoting rule:
// separators, quotes, CR, LF, leading ASCII and Unicode spaces, `\.`,
// invalid UTF-8, empty strings, NULL and missing cells, nested values.
func TestDelimitedMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	seen := map[columnar.Encoding]bool{}
	for round := 0; round < 60; round++ {
		dynamic := round%2 == 1
		width := 1 + rng.Intn(4)
		batches := randomBatches(t, rng, width, dynamic)
		h := Header{Columns: batches[0].names}
		if dynamic {
			h = Header{Dynamic: true, KeyColumns: []string{"PK"}}
		}
		for _, limit := range []int{-1, 1 + rng.Intn(12)} {
			for _, f := range []string{"csv", "tsv"} {
				got, want := renderWithReference(t, f, Options{MaxBufferedRows: limit}, h, batches, seen)
				if got != want {
					t.Fatalf("round %d %s (dynamic %v, limit %d):\n got %q\nwant %q", round, f, dynamic, limit, got, want)
				}
			}
		}
	}
	for _, e := range []columnar.Encoding{columnar.EncString, columnar.EncInt64, columnar.EncNumberText, columnar.EncBool, columnar.EncBinary, columnar.EncValue} {
		if !seen[e] {
			t.Errorf("no column had encoding %d: the test does not cover it", e)
		}
	}
}

// TestCSVFieldQuotingMatchesEncodingCSV checks the quoting rule alone, field
// by field, against encoding/csv on random and chosen strings.
func TestCSVFieldQuotingMatchesEncodingCSV(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	fields := []string{"", " ", "\u00a0x", "\u0085", "\u3000y", "\t", "\v", "\f", `\.`, `\.x`, `x\.`, "\"", "a,b", "\r", "\n", "\xff", "\xe3\x80", "é"}
	for i := 0; i < 5000; i++ {
		fields = append(fields, randomText(rng))
	}
	var codec csvCodec
	for _, f := range fields {
		var ref bytes.Buffer
		w := csv.NewWriter(&ref)
		_ = w.Write([]string{f, "z"}) // two fields: a lone empty field is ours
		w.Flush()
		got := string(codec.appendField(nil, []byte(f))) + ",z\n"
		if got != ref.String() {
			t.Errorf("field %q: got %q, encoding/csv writes %q", f, got, ref.String())
		}
	}
}

// appendField is a field as the writer puts it in a record of more than
// one field.
func (c csvCodec) appendField(dst, f []byte) []byte {
	if c.needsEscape(f) {
		return c.appendEscaped(dst, f)
	}
	return append(dst, f...)
}

// randomText draws a short string from characters that matter to csv and
// tsv, a few times exactly `\.`.
func randomText(rng *rand.Rand) string {
	if rng.Intn(40) == 0 {
		return `\.`
	}
	pieces := []string{"a", "Z", "é", "日", "😀", "\"", "'", ",", "\t", "\n", "\r", "\r\n", "\\", ".", "\x00", " ",
		"\u00a0", "\u2003", "\u0085", "\v", "\f", "\xff", "|", "{", "}"}
	var b strings.Builder
	for i := rng.Intn(7); i > 0; i-- {
		b.WriteString(pieces[rng.Intn(len(pieces))])
	}
	return b.String()
}

// randomBatches draws 1–4 batches. Each column keeps one profile (only
// strings, only integers, …) so that every encoding occurs, with some
// NULL and missing cells. With dynamic, later batches bring attributes
// of their own (they land in _extra once the header is out).
func randomBatches(t *testing.T, rng *rand.Rand, width int, dynamic bool) []batch {
	names := []string{"PK"}
	for i := 1; i < width; i++ {
		names = append(names, fmt.Sprintf("c%d", i))
	}
	var out []batch
	row := 0
	for b := 1 + rng.Intn(4); b > 0; b-- {
		bn := names
		if dynamic {
			bn = append(slices.Clone(names), fmt.Sprintf("late%d", rng.Intn(3)))
			if rng.Intn(2) == 0 {
				bn = append(bn, "a,\"b\"")
			}
		}
		profiles := make([]int, len(bn))
		for c := range profiles {
			profiles[c] = rng.Intn(8)
		}
		bt := batch{names: bn}
		for r := rng.Intn(6); r >= 0; r-- {
			cells := []value.Value{str(fmt.Sprint(row))}
			if width == 1 && !dynamic {
				cells[0] = randomCell(t, rng, 0)
			}
			for c := 1; c < len(bn); c++ {
				cells = append(cells, randomCell(t, rng, profiles[c]))
			}
			bt.rows = append(bt.rows, cells)
			row++
		}
		out = append(out, bt)
	}
	return out
}

// randomCell draws a value of the profile: 0 strings, 1 integers, 2
// decimals, 3 booleans, 4 binary, 5–7 anything, nested included.
func randomCell(t *testing.T, rng *rand.Rand, profile int) value.Value {
	switch rng.Intn(10) {
	case 0:
		return missing
	case 1:
		if profile >= 5 {
			return null
		}
	}
	switch profile {
	case 0:
		return str(randomText(rng))
	case 1:
		return num(t, fmt.Sprint(rng.Int63()-rng.Int63()))
	case 2:
		return num(t, fmt.Sprintf("%d.%03d", rng.Intn(2000)-1000, rng.Intn(1000)))
	case 3:
		return value.BoolOf(rng.Intn(2) == 0)
	case 4:
		b := make([]byte, rng.Intn(5))
		rng.Read(b)
		return value.Bin(b)
	}
	return randomNested(t, rng, 2)
}

func randomNested(t *testing.T, rng *rand.Rand, depth int) value.Value {
	switch k := rng.Intn(7); {
	case k < 2 || depth == 0:
		return str(randomText(rng))
	case k == 2:
		elems := make([]value.Value, rng.Intn(3))
		for i := range elems {
			elems[i] = randomNested(t, rng, depth-1)
		}
		return value.ListOf(elems)
	case k == 3:
		m := map[string]value.Value{}
		for i := rng.Intn(3); i > 0; i-- {
			m[randomText(rng)] = randomNested(t, rng, depth-1)
		}
		return value.MapOf(m)
	case k == 4:
		return value.SetOf(value.StringSet, []value.Value{str(randomText(rng) + "x"), str("it's")})
	case k == 5:
		return value.SetOf(value.NumberSet, []value.Value{num(t, "1"), num(t, "-0.5")})
	}
	return num(t, fmt.Sprint(rng.Intn(100)))
}

// renderWithReference writes the batches with the format's writer and
// computes the reference output from the same Arrow batches.
func renderWithReference(t *testing.T, f string, opt Options, h Header, batches []batch, seen map[columnar.Encoding]bool) (got, want string) {
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
	w, _ := New(f, &out, opt)
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
	return out.String(), referenceOutput(f, opt.MaxBufferedRows, h, recs)
}

// referenceOutput is what the writer must produce, built from values.
func referenceOutput(f string, limit int, h Header, recs []arrow.RecordBatch) string {
	header, extra := h.Columns, false
	if h.Dynamic {
		header, extra = referenceHeader(limit, h.KeyColumns, recs)
	}
	records := [][]string{}
	if len(header) > 0 {
		records = append(records, header)
	}
	for _, rec := range recs {
		for row := 0; row < int(rec.NumRows()); row++ {
			cells := map[string]value.Value{}
			fields := make([]string, len(header))
			for c := 0; c < int(rec.NumCols()); c++ {
				v := columnar.ColumnOf(rec, c).Value(row)
				if !h.Dynamic {
					fields[c] = value.Display(v)
				} else if v.Kind() != value.Missing {
					cells[rec.Schema().Field(c).Name] = v
				}
			}
			if h.Dynamic {
				for i, n := range header {
					fields[i] = value.Display(cells[n])
					delete(cells, n)
				}
				if extra && len(cells) > 0 {
					fields[len(fields)-1] = string(value.AppendJSON(nil, value.MapOf(cells)))
				}
			}
			records = append(records, fields)
		}
	}
	var b bytes.Buffer
	if f == "tsv" {
		esc := strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`, "\x00", `\0`)
		for _, r := range records {
			for i, field := range r {
				if i > 0 {
					b.WriteByte('\t')
				}
				b.WriteString(esc.Replace(field))
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	w := csv.NewWriter(&b)
	for _, r := range records {
		if len(r) == 1 && r[0] == "" {
			w.Flush()
			b.WriteString("\"\"\n")
			continue
		}
		_ = w.Write(r)
	}
	w.Flush()
	return b.String()
}

// referenceHeader is the SELECT * header: the key columns, then the names
// of the batches up to the one that reaches the limit (all of them when
// none does) in byte order, then _extra when the limit was reached. The
// random batches never hold a name twice nor one called _extra.
func referenceHeader(limit int, keys []string, recs []arrow.RecordBatch) ([]string, bool) {
	names := map[string]bool{}
	rows, reached := 0, false
	for _, rec := range recs {
		for _, f := range rec.Schema().Fields() {
			names[f.Name] = true
		}
		rows += int(rec.NumRows())
		if limit >= 0 && rows >= limit {
			reached = true
			break
		}
	}
	header := slices.Clone(keys)
	var rest []string
	for n := range names {
		if !slices.Contains(keys, n) {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	header = append(header, rest...)
	if reached {
		header = append(header, ExtraColumn)
	}
	return header, reached
}
