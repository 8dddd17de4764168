package columnar

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/planner/value"
)

var columnarSeed = flag.Uint64("columnar.seed", 0, "seed for the random columnar tests (0: from the clock)")

func newRand(t testing.TB) *rand.Rand {
	t.Helper()
	seed := *columnarSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("random seed: -columnar.seed=%d", seed)
		}
	})
	return rand.New(rand.NewPCG(seed, 42))
}

// same reports whether two values are identical: AppendBinary writes the
// kind, the exact text, elements in order and map members by key.
func same(a, b value.Value) bool {
	return bytes.Equal(value.AppendBinary(nil, a), value.AppendBinary(nil, b))
}

func show(v value.Value) string {
	if v.Kind() == value.Missing {
		return "<missing>"
	}
	return v.Kind().String() + ":" + string(value.AppendDynamoJSON(nil, v))
}

type gen struct{ r *rand.Rand }

func (g gen) str() string {
	pieces := []string{"a", "b", "é", "日本", "😀", "\x00", "\xff", "\n", "#", ""}
	var sb strings.Builder
	for i, n := 0, g.r.IntN(5); i < n; i++ {
		sb.WriteString(pieces[g.r.IntN(len(pieces))])
	}
	return sb.String()
}

func (g gen) intNum() value.Value {
	edges := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 53, -(1 << 53) - 1}
	if g.r.IntN(3) == 0 {
		return value.NumTrusted(strconv.FormatInt(edges[g.r.IntN(len(edges))], 10))
	}
	return value.NumTrusted(strconv.FormatInt(int64(g.r.Uint64())>>g.r.IntN(64), 10))
}

func (g gen) num() value.Value {
	switch g.r.IntN(5) {
	case 0:
		return g.intNum()
	case 1: // just beyond int64
		return value.NumTrusted([]string{"9223372036854775808", "-9223372036854775809", "18446744073709551616"}[g.r.IntN(3)])
	case 2: // 38 significant digits
		digits := make([]byte, 38)
		for i := range digits {
			digits[i] = byte('1' + g.r.IntN(9))
		}
		text := string(digits)
		if p := g.r.IntN(39); p > 0 && p < 38 {
			text = text[:p] + "." + text[p:]
		}
		return mustNum(text)
	case 3:
		return mustNum(fmt.Sprintf("%dE%d", 1+g.r.IntN(999), g.r.IntN(250)-130))
	}
	return mustNum(strconv.FormatFloat(g.r.NormFloat64()*1000, 'f', -1, 64))
}

func mustNum(s string) value.Value {
	v, err := value.Num(s)
	if err != nil {
		panic(err)
	}
	return v
}

func (g gen) bin() value.Value {
	b := make([]byte, g.r.IntN(5))
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	return value.Bin(b)
}

func (g gen) doc(depth int) value.Value {
	switch k := g.r.IntN(7); {
	case k == 0 || depth <= 0:
		return value.SetOf(value.StringSet, []value.Value{value.Str("a"), value.Str(g.str() + "z")})
	case k == 1:
		return value.SetOf(value.NumberSet, []value.Value{g.intNum()})
	case k == 2:
		return value.SetOf(value.BinarySet, []value.Value{g.bin()})
	case k == 3:
		return value.ListOf([]value.Value{g.any(depth - 1), value.NullValue(), g.any(depth - 1)})
	case k == 4:
		return value.ListOf(nil)
	}
	return value.MapOf(map[string]value.Value{"x": g.any(depth - 1), g.str(): g.any(depth - 1)})
}

func (g gen) any(depth int) value.Value {
	switch g.r.IntN(8) {
	case 0:
		return value.Str(g.str())
	case 1:
		return g.num()
	case 2:
		return value.BoolOf(g.r.IntN(2) == 0)
	case 3:
		return g.bin()
	case 4:
		return value.NullValue()
	case 5:
		return g.intNum()
	}
	return g.doc(depth)
}

// profile generates one column's values and the encoding Build must choose.
type profile struct {
	name string
	enc  Encoding
	val  func(g gen) value.Value
}

var profiles = []profile{
	{"strings", EncString, func(g gen) value.Value { return value.Str(g.str()) }},
	{"ints", EncInt64, func(g gen) value.Value { return g.intNum() }},
	{"numbers", EncNumberText, func(g gen) value.Value { return g.num() }},
	{"bools", EncBool, func(g gen) value.Value { return value.BoolOf(g.r.IntN(2) == 0) }},
	{"binary", EncBinary, func(g gen) value.Value { return g.bin() }},
	{"nulls", EncValue, func(g gen) value.Value { return value.NullValue() }},
	{"documents", EncValue, func(g gen) value.Value { return g.doc(2) }},
	{"mixed", EncValue, func(g gen) value.Value { return g.any(2) }},
}

// column fills n rows of a profile; missingPct of them are Missing. It
// returns the encoding Build must pick, which depends on what was drawn.
func (g gen) column(p profile, n, missingPct int) ([]value.Value, Encoding) {
	vals := make([]value.Value, n)
	for i := range vals {
		if g.r.IntN(100) < missingPct {
			continue
		}
		vals[i] = p.val(g)
	}
	return vals, expectedEncoding(vals)
}

// expectedEncoding restates the package documentation's table.
func expectedEncoding(vals []value.Value) Encoding {
	kinds := map[value.Kind]bool{}
	allInt := true
	for _, v := range vals {
		if v.Kind() == value.Missing {
			continue
		}
		kinds[v.Kind()] = true
		if _, err := strconv.ParseInt(v.Text(), 10, 64); v.Kind() == value.Number && err != nil {
			allInt = false
		}
	}
	if len(kinds) > 1 {
		return EncValue
	}
	switch {
	case len(kinds) == 0 || kinds[value.String]:
		return EncString
	case kinds[value.Number] && allInt:
		return EncInt64
	case kinds[value.Number]:
		return EncNumberText
	case kinds[value.Bool]:
		return EncBool
	case kinds[value.Binary]:
		return EncBinary
	}
	return EncValue
}

// checkedAlloc is the poisoning, checked allocator of package memtest: a
// value read after its batch was released reads overwritten bytes.
func checkedAlloc(t *testing.T) *memory.CheckedAllocator { return memtest.Allocator(t) }

func TestBuildRoundTrip(t *testing.T) {
	mem := checkedAlloc(t)
	g := gen{r: newRand(t)}
	for iter := 0; iter < 150; iter++ {
		ncols := 1 + g.r.IntN(len(profiles)+2)
		names := make([]string, ncols)
		cols := make([][]value.Value, ncols)
		encs := make([]Encoding, ncols)
		nrows := g.r.IntN(120)
		if iter%10 == 0 {
			nrows = 0
		}
		missing := []int{0, 10, 50, 100}[g.r.IntN(4)]
		for c := range names {
			names[c] = fmt.Sprintf("c%d", c)
			cols[c], encs[c] = g.column(profiles[g.r.IntN(len(profiles))], nrows, missing)
		}
		b := NewRowBuilder(mem, names)
		for r := 0; r < nrows; r++ {
			row := make([]value.Value, ncols)
			for c := range row {
				row[c] = cols[c][r]
			}
			b.Append(row)
		}
		if b.Len() != nrows {
			t.Fatalf("Len = %d, want %d", b.Len(), nrows)
		}
		rec := b.Build()
		if b.Len() != 0 {
			t.Fatalf("Len after Build = %d", b.Len())
		}
		if rec.NumRows() != int64(nrows) || int(rec.NumCols()) != ncols {
			t.Fatalf("batch is %dx%d, want %dx%d", rec.NumRows(), rec.NumCols(), nrows, ncols)
		}
		for c := 0; c < ncols; c++ {
			col := ColumnOf(rec, c)
			if rec.ColumnName(c) != names[c] {
				t.Fatalf("column %d is named %q", c, rec.ColumnName(c))
			}
			if col.Encoding() != encs[c] {
				t.Fatalf("column %d: encoding %d, want %d", c, col.Encoding(), encs[c])
			}
			if col.Array() != rec.Column(c) {
				t.Fatal("Array() is not the batch's column")
			}
			for r := 0; r < nrows; r++ {
				want := cols[c][r]
				got := col.Value(r)
				if !same(got, want) {
					t.Fatalf("iteration %d, column %d (encoding %d), row %d: got %s, want %s", iter, c, col.Encoding(), r, show(got), show(want))
				}
				if col.IsMissing(r) != (want.Kind() == value.Missing) {
					t.Fatalf("IsMissing(%d) = %v for %s", r, col.IsMissing(r), show(want))
				}
			}
		}
		owned := make([][]value.Value, nrows)
		for r := 0; r < nrows; r++ {
			row := Row(rec, r)
			for c := range row {
				if !same(row[c], cols[c][r]) {
					t.Fatalf("Row(%d)[%d] = %s, want %s", r, c, show(row[c]), show(cols[c][r]))
				}
			}
			owned[r] = OwnedRow(rec, r)
		}
		// A slice reads the same cells at shifted positions.
		if nrows > 2 {
			lo := int64(1 + g.r.IntN(nrows-1))
			sl := rec.NewSlice(lo, int64(nrows))
			for c := 0; c < ncols; c++ {
				col := ColumnOf(sl, c)
				for r := 0; r < int(sl.NumRows()); r++ {
					if !same(col.Value(r), cols[c][int(lo)+r]) {
						t.Fatalf("slice [%d:], column %d, row %d differs", lo, c, r)
					}
				}
			}
			sl.Release()
		}
		rec.Release()
		// Owned rows do not change when the batch's buffers are poisoned.
		for r := range owned {
			for c := range owned[r] {
				if !same(owned[r][c], cols[c][r]) {
					t.Fatalf("OwnedRow(%d)[%d] after Release = %s, want %s", r, c, show(owned[r][c]), show(cols[c][r]))
				}
			}
		}
	}
}

// Value reads text in place, OwnedValue copies it: after Release the first
// reads the poisoned buffer, the second still holds the value, for every
// encoding.
func TestOwnedValueOutlivesTheBatch(t *testing.T) {
	mem := checkedAlloc(t)
	want := []value.Value{
		value.Str("a string"), mustNum("12.5"), mustNum("-7"), value.BoolOf(true),
		value.Bin([]byte("bytes")), value.ListOf([]value.Value{value.Str("in a list")}),
	}
	names := make([]string, len(want))
	for i := range names {
		names[i] = fmt.Sprintf("c%d", i)
	}
	b := NewRowBuilder(mem, names)
	b.Append(want)
	b.Append(make([]value.Value, len(want))) // missing everywhere
	rec := b.Build()
	inPlace, owned := Row(rec, 0), OwnedRow(rec, 0)
	missing := ColumnOf(rec, 0).OwnedValue(1)
	rec.Release()
	for c := range want {
		if !same(owned[c], want[c]) {
			t.Errorf("column %d: owned value after Release is %s, want %s", c, show(owned[c]), show(want[c]))
		}
	}
	if missing.Kind() != value.Missing {
		t.Errorf("OwnedValue of a missing cell is %s", show(missing))
	}
	// The in-place text of S and N-as-text shared the released buffers: if
	// it still read right, the poisoning allocator would prove nothing.
	for _, c := range []int{0, 1} {
		if same(inPlace[c], want[c]) {
			t.Errorf("column %d: the value read in place survived Release (%s); is the allocator poisoning?", c, show(inPlace[c]))
		}
	}
}

func TestBuildColumn(t *testing.T) {
	mem := checkedAlloc(t)
	g := gen{r: newRand(t)}
	for _, p := range profiles {
		for _, missing := range []int{0, 30, 100} {
			vals, enc := g.column(p, 1+g.r.IntN(60), missing)
			field, arr := BuildColumn(mem, "col-"+p.name, vals)
			if field.Name != "col-"+p.name || !field.Nullable {
				t.Errorf("%s: field %v", p.name, field)
			}
			if arr.Len() != len(vals) {
				t.Fatalf("%s: %d values, array of %d", p.name, len(vals), arr.Len())
			}
			col := NewColumn(field, arr)
			if col.Encoding() != enc || EncodingOf(field) != enc {
				t.Errorf("%s (%d%% missing): encoding %d, want %d", p.name, missing, col.Encoding(), enc)
			}
			for i, want := range vals {
				if got := col.Value(i); !same(got, want) {
					t.Fatalf("%s: row %d: got %s, want %s", p.name, i, show(got), show(want))
				}
			}
			arr.Release()
		}
	}
	// Empty input.
	field, arr := BuildColumn(mem, "e", nil)
	if arr.Len() != 0 || EncodingOf(field) != EncString {
		t.Errorf("empty column: %v, %d", field, arr.Len())
	}
	arr.Release()
}

// The documented encodings, each with its Arrow type and field metadata.
func TestEncodingsAndFields(t *testing.T) {
	mem := checkedAlloc(t)
	n := func(s string) value.Value { return mustNum(s) }
	tests := []struct {
		vals []value.Value
		enc  Encoding
		typ  arrow.DataType
		meta string
	}{
		{[]value.Value{value.Str("a"), {}}, EncString, arrow.BinaryTypes.String, ""},
		{[]value.Value{{}, {}}, EncString, arrow.BinaryTypes.String, ""},
		{[]value.Value{n("1"), {}, n("-9223372036854775808"), n("9223372036854775807")}, EncInt64, arrow.PrimitiveTypes.Int64, "N"},
		{[]value.Value{n("1"), n("1.5")}, EncNumberText, arrow.BinaryTypes.String, "N"},
		{[]value.Value{n("1"), n("9223372036854775808")}, EncNumberText, arrow.BinaryTypes.String, "N"},
		{[]value.Value{n("12345678901234567890123456789012345678")}, EncNumberText, arrow.BinaryTypes.String, "N"},
		{[]value.Value{value.BoolOf(false), {}}, EncBool, arrow.FixedWidthTypes.Boolean, ""},
		{[]value.Value{value.Bin([]byte{0}), value.Bin(nil)}, EncBinary, arrow.BinaryTypes.Binary, ""},
		{[]value.Value{value.NullValue()}, EncValue, arrow.BinaryTypes.Binary, "value"},
		{[]value.Value{value.Str("1"), n("1")}, EncValue, arrow.BinaryTypes.Binary, "value"},
		{[]value.Value{value.Str("x"), value.NullValue()}, EncValue, arrow.BinaryTypes.Binary, "value"},
		{[]value.Value{value.BoolOf(true), n("1")}, EncValue, arrow.BinaryTypes.Binary, "value"},
		{[]value.Value{value.Bin([]byte("a")), value.Str("a")}, EncValue, arrow.BinaryTypes.Binary, "value"},
		{[]value.Value{value.ListOf(nil)}, EncValue, arrow.BinaryTypes.Binary, "value"},
		{[]value.Value{value.MapOf(nil), {}}, EncValue, arrow.BinaryTypes.Binary, "value"},
		{[]value.Value{value.SetOf(value.StringSet, []value.Value{value.Str("a")})}, EncValue, arrow.BinaryTypes.Binary, "value"},
	}
	for i, tc := range tests {
		field, arr := BuildColumn(mem, "c", tc.vals)
		if !arrow.TypeEqual(field.Type, tc.typ) || !arrow.TypeEqual(arr.DataType(), tc.typ) {
			t.Errorf("case %d: type %s / %s, want %s", i, field.Type, arr.DataType(), tc.typ)
		}
		meta := ""
		if k := field.Metadata.FindKey("ddb"); k >= 0 {
			meta = field.Metadata.Values()[k]
		}
		if meta != tc.meta {
			t.Errorf("case %d: metadata ddb=%q, want %q", i, meta, tc.meta)
		}
		if got := EncodingOf(field); got != tc.enc {
			t.Errorf("case %d: EncodingOf = %d, want %d", i, got, tc.enc)
		}
		for r, want := range tc.vals {
			if got := NewColumn(field, arr).Value(r); !same(got, want) {
				t.Errorf("case %d row %d: got %s, want %s", i, r, show(got), show(want))
			}
		}
		if arr.NullN() != countMissing(tc.vals) {
			t.Errorf("case %d: %d Arrow nulls, want one per missing value (%d)", i, arr.NullN(), countMissing(tc.vals))
		}
		arr.Release()
	}
	// Fields from elsewhere: no metadata, or types this package never writes.
	foreign := []struct {
		f    arrow.Field
		want Encoding
	}{
		{arrow.Field{Name: "s", Type: arrow.BinaryTypes.String}, EncString},
		{arrow.Field{Name: "i", Type: arrow.PrimitiveTypes.Int64}, EncInt64},
		{arrow.Field{Name: "b", Type: arrow.FixedWidthTypes.Boolean}, EncBool},
		{arrow.Field{Name: "x", Type: arrow.BinaryTypes.Binary}, EncBinary},
		{arrow.Field{Name: "f", Type: arrow.PrimitiveTypes.Float64}, EncValue},
	}
	for _, tc := range foreign {
		if got := EncodingOf(tc.f); got != tc.want {
			t.Errorf("EncodingOf(%s) = %d, want %d", tc.f.Type, got, tc.want)
		}
	}
}

func countMissing(vals []value.Value) int {
	n := 0
	for _, v := range vals {
		if v.Kind() == value.Missing {
			n++
		}
	}
	return n
}

// An Int64 column built by another Arrow producer reads as exact N values.
func TestInt64ColumnFromArrow(t *testing.T) {
	mem := checkedAlloc(t)
	bld := array.NewInt64Builder(mem)
	defer bld.Release()
	ints := []int64{0, -1, 42, math.MaxInt64, math.MinInt64, -100}
	bld.AppendValues(ints, nil)
	bld.AppendNull()
	arr := bld.NewArray()
	defer arr.Release()
	col := NewColumn(arrow.Field{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, arr)
	for i, want := range ints {
		got := col.Value(i)
		if got.Kind() != value.Number || got.Text() != strconv.FormatInt(want, 10) {
			t.Errorf("row %d: %s, want %d", i, show(got), want)
		}
	}
	if col.Value(len(ints)).Kind() != value.Missing {
		t.Error("an Arrow null must read as Missing")
	}
}

// Corrupt ddb=value cells are a bug in this package: Value panics with a
// message naming the package rather than returning a wrong value.
func TestValueCorruptEncodingPanics(t *testing.T) {
	mem := checkedAlloc(t)
	bld := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	defer bld.Release()
	bld.Append([]byte{0xee})
	arr := bld.NewArray()
	defer arr.Release()
	col := NewColumn(fieldFor("v", EncValue), arr)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "columnar") {
			t.Errorf("recovered %v, want a columnar panic", r)
		}
	}()
	col.Value(0)
}

func TestBuildZeroColumns(t *testing.T) {
	mem := checkedAlloc(t)
	b := NewRowBuilder(mem, nil)
	b.Append(nil)
	b.Append(nil)
	rec := b.Build()
	defer rec.Release()
	if rec.NumRows() != 2 || rec.NumCols() != 0 {
		t.Errorf("batch is %dx%d", rec.NumRows(), rec.NumCols())
	}
}

// The batch owns its memory: values read before and after the builder is
// reused agree, and releasing the batch frees everything.
func TestBuilderReuseIndependentBatches(t *testing.T) {
	mem := checkedAlloc(t)
	b := NewRowBuilder(mem, []string{"a", "b"})
	b.Append([]value.Value{value.Str("first"), mustNum("1")})
	first := b.Build()
	b.Append([]value.Value{mustNum("2.5"), value.Str("second")})
	b.Append([]value.Value{{}, {}})
	second := b.Build()
	if first.NumRows() != 1 || second.NumRows() != 2 {
		t.Fatalf("rows %d, %d", first.NumRows(), second.NumRows())
	}
	if got := ColumnOf(first, 0).Value(0); got.Text() != "first" || ColumnOf(first, 0).Encoding() != EncString {
		t.Errorf("first batch changed: %s", show(got))
	}
	if ColumnOf(second, 0).Encoding() != EncNumberText || ColumnOf(second, 1).Encoding() != EncString {
		t.Error("second batch must choose its own encodings")
	}
	first.Release()
	second.Release()
}

func BenchmarkColumnValue(b *testing.B) {
	mem := memory.NewGoAllocator()
	g := gen{r: rand.New(rand.NewPCG(1, 2))}
	for _, p := range profiles[:5] {
		vals, _ := g.column(p, 1024, 5)
		field, arr := BuildColumn(mem, "c", vals)
		col := NewColumn(field, arr)
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_ = col.Value(i & 1023)
			}
		})
		arr.Release()
	}
}
