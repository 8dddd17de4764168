package format

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/rand/v2"
	"strconv"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/cockroachdb/apd/v3"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/planner/value"
)

// readBack decodes a parquet or arrow file with arrow-go's own readers
// into one record per file (columns concatenated).
func readBack(t *testing.T, format string, data []byte) arrow.Table {
	t.Helper()
	mem := memory.NewGoAllocator()
	switch format {
	case "arrow":
		r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(mem))
		if err != nil {
			t.Fatalf("arrow stream does not open: %v", err)
		}
		defer r.Release()
		var recs []arrow.RecordBatch
		for r.Next() {
			rec := r.RecordBatch()
			rec.Retain()
			recs = append(recs, rec)
		}
		if err := r.Err(); err != nil {
			t.Fatalf("arrow stream: %v", err)
		}
		tbl := array.NewTableFromRecords(r.Schema(), recs)
		for _, rec := range recs {
			rec.Release()
		}
		return tbl
	case "parquet":
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("parquet file does not open: %v", err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, mem)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := fr.ReadTable(context.Background())
		if err != nil {
			t.Fatalf("parquet read: %v", err)
		}
		return tbl
	}
	t.Fatalf("not a binary format: %s", format)
	return nil
}

// fileRows turns a table read back into one map per row: column name →
// the cell as the json format would print it (decimals as their exact
// text, binary as base64, JSON text columns parsed), with nulls left out
// when skipNull. jsonCols names the columns that hold JSON text.
func fileRows(t *testing.T, tbl arrow.Table, jsonCols map[string]bool) []map[string]any {
	t.Helper()
	rows := make([]map[string]any, tbl.NumRows())
	for i := range rows {
		rows[i] = map[string]any{}
	}
	for c := 0; c < int(tbl.NumCols()); c++ {
		col := tbl.Column(c)
		name := col.Name()
		row := 0
		for _, chunk := range col.Data().Chunks() {
			for i := 0; i < chunk.Len(); i++ {
				rows[row][name] = cellJSON(t, chunk, i, jsonCols[name])
				row++
			}
		}
	}
	return rows
}

func cellJSON(t *testing.T, a arrow.Array, i int, isJSON bool) any {
	t.Helper()
	if a.IsNull(i) || a.DataType().ID() == arrow.NULL {
		return nil
	}
	switch a := a.(type) {
	case *array.String:
		if isJSON {
			return decodeJSON(t, a.Value(i))
		}
		return a.Value(i)
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return json.Number(a.Value(i).ToString(scale))
	case *array.Boolean:
		return a.Value(i)
	case *array.Binary:
		return base64.StdEncoding.EncodeToString(a.Value(i))
	}
	t.Fatalf("unexpected array type %s", a.DataType())
	return nil
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%q is not JSON: %v", s, err)
	}
	return v
}

// jsonRows renders the batches with the ndjson writer and parses each
// line (numbers kept as their text).
func jsonRows(t *testing.T, h Header, batches ...batch) []map[string]any {
	t.Helper()
	out, err := render(t, "ndjson", Options{}, h, batches...)
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		rows = append(rows, decodeJSON(t, line).(map[string]any))
	}
	return rows
}

// sameJSON compares two decoded JSON values, numbers by their decimal
// value (a decimal128 column prints 1.5 as 1.50 at scale 2).
func sameJSON(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		var x, y apd.Decimal
		if _, _, err := x.SetString(string(a)); err != nil {
			return false
		}
		if _, _, err := y.SetString(string(bn)); err != nil {
			return false
		}
		return x.Cmp(&y) == 0
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			w, ok := bm[k]
			if !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !sameJSON(a[i], bl[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// renderBinary runs a binary writer like render does and returns the file.
func renderBinary(t *testing.T, format string, h Header, batches ...batch) []byte {
	t.Helper()
	out, err := render(t, format, Options{}, h, batches...)
	if err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return []byte(out)
}

// checkAgainstJSON reads the file back and compares it with the json
// writer's rows value for value: a column a JSON object lacks is null in
// the file, and the file has no other columns than wantCols.
func checkAgainstJSON(t *testing.T, format string, data []byte, h Header, wantCols []string, jsonCols map[string]bool, batches ...batch) arrow.Table {
	t.Helper()
	tbl := readBack(t, format, data)
	var names []string
	for _, f := range tbl.Schema().Fields() {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != strings.Join(wantCols, ",") {
		t.Errorf("%s: columns %v, want %v", format, names, wantCols)
	}
	got := fileRows(t, tbl, jsonCols)
	want := jsonRows(t, h, batches...)
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", format, len(got), len(want))
	}
	for i := range want {
		for _, c := range names {
			w, present := want[i][c]
			if !present {
				w = nil
			}
			g := got[i][c]
			if mixedColumns[c] {
				w, g = mixedCell(t, w, g)
			}
			if !sameJSON(w, g) {
				t.Errorf("%s row %d column %s: file has %#v, json has %#v", format, i, c, g, w)
			}
		}
		for c := range want[i] {
			if _, ok := got[i][c]; !ok {
				t.Errorf("%s row %d: json has %s, the file has no such column", format, i, c)
			}
		}
	}
	return tbl
}

// mixedColumns are the test columns that hold values of several types: a
// binary format stores them as utf8, a string as itself, a number as its
// digits, a boolean as true/false and a document as JSON text.
var mixedColumns = map[string]bool{"mixed": true}

// mixedCell puts the json value and the file's cell of a mixed column in
// one form: documents decoded from the cell, scalars compared as text.
func mixedCell(t *testing.T, want, got any) (any, any) {
	t.Helper()
	s, ok := got.(string)
	if !ok {
		return want, got
	}
	switch w := want.(type) {
	case map[string]any, []any:
		return w, decodeJSON(t, s)
	case json.Number:
		return string(w), s
	case bool:
		return strconv.FormatBool(w), s
	}
	return want, s
}

func typesOf(tbl arrow.Table) map[string]string {
	out := map[string]string{}
	for _, f := range tbl.Schema().Fields() {
		out[f.Name] = f.Type.String()
	}
	return out
}

func mustNum(t *testing.T, s string) value.Value { return num(t, s) }

// typedBatches: every DynamoDB type, a 38-digit number, a number column
// that needs scale, one that cannot be a decimal, sets, documents,
// NULL, missing, and a column of mixed types; split over two batches whose
// encodings differ (the first batch's n is int64, the second's text).
func typedBatches(t *testing.T) []batch {
	names := []string{"s", "n", "big", "wide", "flag", "raw", "ss", "ns", "bs", "doc", "list", "nul", "mixed"}
	doc := value.MapOf(map[string]value.Value{"qty": mustNum(t, "3"), "tags": value.SetOf(value.StringSet, []value.Value{str("a"), str("b")}), "x": null})
	return []batch{
		{names: names, rows: [][]value.Value{
			{str("héllo \"q\""), mustNum(t, "42"), mustNum(t, "12345678901234567890123456789012345678"), mustNum(t, "1E+100"),
				value.BoolOf(true), bin("\x00\xff"), value.SetOf(value.StringSet, []value.Value{str("x"), str("y")}),
				value.SetOf(value.NumberSet, []value.Value{mustNum(t, "1"), mustNum(t, "2.5")}), value.SetOf(value.BinarySet, []value.Value{bin("\x01")}),
				doc, value.ListOf([]value.Value{str("a"), mustNum(t, "1"), value.BoolOf(false)}), null, str("text")},
			{missing, mustNum(t, "-7"), mustNum(t, "-99999999999999999999999999999999999999"), mustNum(t, "0.5"),
				missing, missing, missing, missing, missing, missing, missing, null, mustNum(t, "12")},
		}},
		{names: names, rows: [][]value.Value{
			{str(""), mustNum(t, "3.25"), mustNum(t, "0"), mustNum(t, "-0.000001"),
				value.BoolOf(false), bin(""), missing, missing, missing, value.MapOf(nil), value.ListOf(nil), missing, value.BoolOf(true)},
			{str("z"), null, missing, missing, null, null, null, null, null, null, null, missing, doc},
		}},
	}
}

func TestBinaryFormatsMatchJSON(t *testing.T) {
	batches := typedBatches(t)
	cols := batches[0].names
	h := Header{Columns: cols}
	// wide is utf8 holding each number's exact text, which is its JSON
	// text too.
	jsonCols := map[string]bool{"wide": true, "ss": true, "ns": true, "bs": true, "doc": true, "list": true}
	for _, f := range []string{"parquet", "arrow"} {
		data := renderBinary(t, f, h, batches...)
		tbl := checkAgainstJSON(t, f, data, h, cols, jsonCols, batches...)
		defer tbl.Release()
		want := map[string]string{
			"s": "utf8", "n": "decimal(38, 2)", "big": "decimal(38, 0)", "wide": "utf8", "flag": "bool", "raw": "binary",
			"ss": "utf8", "ns": "utf8", "bs": "utf8", "doc": "utf8", "list": "utf8", "nul": "null", "mixed": "utf8",
		}
		for c, typ := range typesOf(tbl) {
			if want[c] != typ {
				t.Errorf("%s: column %s is %s, want %s", f, c, typ, want[c])
			}
		}
	}
}

func TestBinaryThirtyEightDigits(t *testing.T) {
	// Every number fits decimal128(38, 19) exactly: 19 integer and 19
	// fraction digits, and the extremes of each.
	texts := []string{"1234567890123456789.1234567890123456789", "-9999999999999999999.9999999999999999999", "0.0000000000000000001", "1", "0"}
	var rows [][]value.Value
	for _, s := range texts {
		rows = append(rows, []value.Value{mustNum(t, s)})
	}
	h := Header{Columns: []string{"n"}}
	b := batch{names: []string{"n"}, rows: rows}
	for _, f := range []string{"parquet", "arrow"} {
		tbl := readBack(t, f, renderBinary(t, f, h, b))
		if typ := tbl.Schema().Field(0).Type.String(); typ != "decimal(38, 19)" {
			t.Errorf("%s: type %s", f, typ)
		}
		got := fileRows(t, tbl, nil)
		for i, s := range texts {
			var want, have apd.Decimal
			want.SetString(s)
			have.SetString(string(got[i]["n"].(json.Number)))
			if want.Cmp(&have) != 0 {
				t.Errorf("%s: row %d is %s, want %s", f, i, got[i]["n"], s)
			}
		}
		tbl.Release()
	}
}

func TestBinaryDynamicUnion(t *testing.T) {
	h := Header{Dynamic: true, KeyColumns: []string{"PK", "SK"}}
	batches := lateBatches()
	for _, f := range []string{"parquet", "arrow"} {
		data := renderBinary(t, f, h, batches...)
		// Every attribute of every batch is a column: the spool saw them
		// all, so the binary formats need no _extra column. SK is a key
		// no item has: a column of nulls.
		tbl := checkAgainstJSON(t, f, data, h, []string{"PK", "SK", "a", "b", "x"}, nil, batches...)
		if typ := typesOf(tbl)["SK"]; typ != "null" {
			t.Errorf("%s: SK is %s", f, typ)
		}
		tbl.Release()
		// The csv/tsv buffer bound does not apply: still no _extra.
		small, err := render(t, f, Options{MaxBufferedRows: 1}, h, batches...)
		if err != nil {
			t.Fatal(err)
		}
		tbl = checkAgainstJSON(t, f, []byte(small), h, []string{"PK", "SK", "a", "b", "x"}, nil, batches...)
		tbl.Release()
	}
}

func TestBinaryEmptyResult(t *testing.T) {
	for _, f := range []string{"parquet", "arrow"} {
		tbl := readBack(t, f, renderBinary(t, f, Header{Columns: []string{"a", "b"}}))
		if tbl.NumRows() != 0 || tbl.NumCols() != 2 {
			t.Errorf("%s: %d rows, %d columns", f, tbl.NumRows(), tbl.NumCols())
		}
		tbl.Release()
		tbl = readBack(t, f, renderBinary(t, f, Header{Dynamic: true, KeyColumns: []string{"PK"}}))
		if tbl.NumRows() != 0 || tbl.NumCols() != 1 || tbl.Schema().Field(0).Name != "PK" {
			t.Errorf("%s SELECT *: %d rows, schema %s", f, tbl.NumRows(), tbl.Schema())
		}
		tbl.Release()
	}
}

func TestBinaryDuplicateNames(t *testing.T) {
	names := []string{"SK", "SK"}
	h := Header{Columns: names}
	b := batch{names: names, rows: [][]value.Value{{str("a"), str("b")}}}
	for _, f := range []string{"parquet", "arrow"} {
		data := renderBinary(t, f, h, b)
		tbl := checkAgainstJSON(t, f, data, h, []string{"SK", "SK_2"}, nil, b)
		tbl.Release()
	}
}

// TestBinarySpoolRemoved: the temporary file is gone while the result is
// written, after End and after Abort.
func TestBinarySpoolRemoved(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
	defer mem.AssertSize(t, 0)
	rb := columnar.NewRowBuilder(mem, []string{"a"})
	rb.Append([]value.Value{str("x")})
	rec := rb.Build()
	defer rec.Release()
	for _, f := range []string{"parquet", "arrow"} {
		for _, finish := range []string{"end", "abort"} {
			w, err := New(f, io.Discard, Options{Mem: mem})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Begin(Header{Columns: []string{"a"}}); err != nil {
				t.Fatal(err)
			}
			if err := w.WriteBatch(rec); err != nil {
				t.Fatal(err)
			}
			if left := entries(t, dir); len(left) != 0 {
				t.Errorf("%s: temporary files while writing: %v", f, left)
			}
			if finish == "end" {
				if err := w.End(); err != nil {
					t.Fatal(err)
				}
			}
			w.Abort()
			if left := entries(t, dir); len(left) != 0 {
				t.Errorf("%s after %s: %v", f, finish, left)
			}
		}
	}
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out
}

// TestBinaryNumbersStayExact: numbers no decimal128 holds (DynamoDB's
// extremes) keep their exact text, the text the json format prints.
func TestBinaryNumbersStayExact(t *testing.T) {
	var rows [][]value.Value
	for _, s := range exactNumbers {
		rows = append(rows, []value.Value{num(t, s)})
	}
	h := Header{Columns: []string{"n"}}
	b := batch{names: []string{"n"}, rows: rows}
	for _, f := range []string{"parquet", "arrow"} {
		tbl := checkAgainstJSON(t, f, renderBinary(t, f, h, b), h, []string{"n"}, map[string]bool{"n": true}, b)
		got := fileRows(t, tbl, nil)
		for i, s := range exactNumbers {
			if want := value.NumberText(num(t, s).Text()); got[i]["n"] != want {
				t.Errorf("%s: row %d is %v, want %s", f, i, got[i]["n"], want)
			}
		}
		tbl.Release()
	}
}

// TestBinaryEncodingsDisagree: one column stored as utf8 strings in one
// batch and as utf8 number text in the next (the same Arrow type, told
// apart by field metadata) is read back with each batch's own meaning: a
// column of mixed types, each value's text.
func TestBinaryEncodingsDisagree(t *testing.T) {
	h := Header{Columns: []string{"mixed"}}
	batches := []batch{
		{names: []string{"mixed"}, rows: [][]value.Value{{str("1.5")}}},
		{names: []string{"mixed"}, rows: [][]value.Value{{num(t, "1.5")}, {missing}}},
	}
	for _, f := range []string{"parquet", "arrow"} {
		tbl := checkAgainstJSON(t, f, renderBinary(t, f, h, batches...), h, []string{"mixed"}, nil, batches...)
		col := tbl.Column(0).Data()
		var texts []string
		for _, chunk := range col.Chunks() {
			s := chunk.(*array.String)
			for i := 0; i < s.Len(); i++ {
				texts = append(texts, s.ValueStr(i))
			}
		}
		if got := strings.Join(texts, " "); got != `1.5 1.5 (null)` {
			t.Errorf("%s: cells %s", f, got)
		}
		tbl.Release()
	}
}

// TestParquetRowGroupBytes: a row group ends once its compressed bytes
// reach the bound, whatever its row count.
func TestParquetRowGroupBytes(t *testing.T) {
	defer func(n int64) { parquetRowGroupBytes = n }(parquetRowGroupBytes)
	parquetRowGroupBytes = 1 << 10
	h := Header{Columns: []string{"s"}}
	// Pages are cut at 1 MB, and only cut pages count: 4 MB of text that
	// does not compress.
	rng := rand.New(rand.NewPCG(1, 2))
	var batches []batch
	for i := 0; i < 8; i++ {
		var rows [][]value.Value
		for j := 0; j < 64; j++ {
			b := make([]byte, 4096)
			for k := range b {
				b[k] = 'a' + byte(rng.IntN(26))
			}
			rows = append(rows, []value.Value{str(string(b))})
		}
		batches = append(batches, batch{names: []string{"s"}, rows: rows})
	}
	data := renderBinary(t, "parquet", h, batches...)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if n := pf.NumRowGroups(); n < 2 {
		t.Errorf("%d row groups, want several", n)
	}
	tbl := checkAgainstJSON(t, "parquet", data, h, []string{"s"}, nil, batches...)
	tbl.Release()
}

// TestParquetDictionaryWhereValuesRepeat: a column whose values repeat
// (a status, a document shared by many items) is dictionary-encoded; one
// of distinct values (ids, prices) is written plain; both read back as
// written.
func TestParquetDictionaryWhereValuesRepeat(t *testing.T) {
	cols := []string{"status", "id", "price", "doc"}
	h := Header{Columns: cols}
	var rows [][]value.Value
	for i := 0; i < 3000; i++ {
		rows = append(rows, []value.Value{
			str([]string{"open", "paid", "shipped"}[i%3]),
			str("order#" + strconv.Itoa(i)),
			num(t, strconv.Itoa(i)+".25"),
			value.MapOf(map[string]value.Value{"kind": str("gift"), "n": num(t, strconv.Itoa(i%2))}),
		})
	}
	b := batch{names: cols, rows: rows}
	data := renderBinary(t, "parquet", h, b)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"status": true, "id": false, "price": false, "doc": true}
	for i, c := range cols {
		cc, err := pf.MetaData().RowGroup(0).ColumnChunk(i)
		if err != nil {
			t.Fatal(err)
		}
		if got := cc.HasDictionaryPage(); got != want[c] {
			t.Errorf("column %s: dictionary %v, want %v", c, got, want[c])
		}
	}
	tbl := checkAgainstJSON(t, "parquet", data, h, cols, map[string]bool{"doc": true}, b)
	tbl.Release()
}
