package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/partition"
	"github.com/ddbsql/ddbsql/internal/exportgen"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// ndjsonRows decodes ndjson output, numbers exact.
func ndjsonRows(t *testing.T, out string) []map[string]any {
	t.Helper()
	var rows []map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	for dec.More() {
		var row map[string]any
		if err := dec.Decode(&row); err != nil {
			t.Fatalf("bad ndjson: %v", err)
		}
		rows = append(rows, row)
	}
	return rows
}

// hiveUnescape undoes Hive's escaping of a path component (%XX, any hex
// case), independently of the code under test.
func hiveUnescape(t *testing.T, s string) string {
	t.Helper()
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				t.Fatalf("bad escape in %q", s)
			}
			b = append(b, byte(v))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// layoutFile is one data file read back, with its partition values.
type layoutFile struct {
	rel   string
	parts map[string]any // column → unescaped value; nil for the default partition
	tbl   arrow.Table
}

// readLayout reads every Parquet file under dir with arrow-go, checking
// that nothing else is there but the state file.
func readLayout(t *testing.T, dir string, cols []string) []layoutFile {
	t.Helper()
	var files []layoutFile
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if rel == partition.StateFile {
			return nil
		}
		if !strings.HasSuffix(rel, ".parquet") {
			t.Errorf("unexpected file %s in the layout", rel)
			return nil
		}
		comps := strings.Split(rel, "/")
		if len(comps) != len(cols)+1 {
			t.Fatalf("%s: want %d directory levels", rel, len(cols))
		}
		lf := layoutFile{rel: rel, parts: map[string]any{}}
		for i, c := range comps[:len(cols)] {
			k, v, ok := strings.Cut(c, "=")
			if !ok || hiveUnescape(t, k) != cols[i] {
				t.Fatalf("%s: level %d is %q, want %s=…", rel, i, c, cols[i])
			}
			if v == "__HIVE_DEFAULT_PARTITION__" {
				lf.parts[cols[i]] = nil
			} else {
				lf.parts[cols[i]] = hiveUnescape(t, v)
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lf.tbl = readResultFile(t, "parquet", data)
		t.Cleanup(lf.tbl.Release)
		files = append(files, lf)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// checkLayout compares the layout with the rows ddbsql printed as ndjson,
// value for value: every row is in exactly one file, under the directory
// of its partition values, and the file holds its other attributes (and
// no column of the partition); every file has the same schema.
func checkLayout(t *testing.T, files []layoutFile, want []map[string]any, key string, cols []string) {
	t.Helper()
	byKey := map[string]map[string]any{}
	for _, w := range want {
		byKey[w[key].(string)] = w
	}
	seen := map[string]bool{}
	for _, f := range files {
		tbl := f.tbl
		names := map[string]int{}
		for c := 0; c < int(tbl.NumCols()); c++ {
			names[tbl.Schema().Field(c).Name] = c
		}
		for _, p := range cols {
			if _, ok := names[p]; ok {
				t.Errorf("%s: holds the partition column %s", f.rel, p)
			}
		}
		keyCol, ok := names[key]
		if !ok {
			t.Fatalf("%s: no column %s", f.rel, key)
		}
		keys := flatStrings(t, tbl.Column(keyCol))
		for r, k := range keys {
			w, ok := byKey[k]
			if !ok || seen[k] {
				t.Fatalf("%s: row %s is not in the result, or twice in the layout", f.rel, k)
			}
			seen[k] = true
			for _, p := range cols {
				var wantPart any
				switch v := w[p].(type) {
				case nil:
				case string:
					if v != "" {
						wantPart = v
					}
				case json.Number:
					wantPart = string(v)
				default:
					t.Fatalf("partition value %v", v)
				}
				if f.parts[p] != wantPart {
					t.Errorf("%s: row %s has %s = %#v, but is in the partition %#v", f.rel, k, p, wantPart, f.parts[p])
				}
			}
			for c := 0; c < int(tbl.NumCols()); c++ {
				name := tbl.Schema().Field(c).Name
				arr, i := cellOf(tbl.Column(c), r)
				if !sameAsJSON(t, arr, i, w[name]) {
					t.Errorf("%s: row %s column %s differs from the JSON value %v", f.rel, k, name, w[name])
				}
			}
			for name := range w {
				if _, ok := names[name]; !ok && !slices.Contains(cols, name) && w[name] != nil {
					t.Errorf("%s: no column %s for row %s", f.rel, name, k)
				}
			}
		}
		if !sameSchema(tbl.Schema(), files[0].tbl.Schema()) {
			t.Errorf("%s: schema %v differs from that of %s: %v", f.rel, tbl.Schema(), files[0].rel, files[0].tbl.Schema())
		}
	}
	if len(seen) != len(want) {
		t.Errorf("the layout holds %d rows, the result %d", len(seen), len(want))
	}
}

// sameSchema compares column names and types.
func sameSchema(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		if a.Field(i).Name != b.Field(i).Name || !arrow.TypeEqual(a.Field(i).Type, b.Field(i).Type) {
			return false
		}
	}
	return true
}

func flatStrings(t *testing.T, col *arrow.Column) []string {
	t.Helper()
	var out []string
	for _, ch := range col.Data().Chunks() {
		for i := 0; i < ch.Len(); i++ {
			out = append(out, ch.ValueStr(i))
		}
	}
	return out
}

// cellOf is the chunk and index of row r of a column.
func cellOf(col *arrow.Column, r int) (arrow.Array, int) {
	for _, ch := range col.Data().Chunks() {
		if r < ch.Len() {
			return ch, r
		}
		r -= ch.Len()
	}
	panic("row out of range")
}

// partRun runs ddbsql on the items file.
func partRun(t *testing.T, items string, args ...string) result {
	t.Helper()
	return invoke(append([]string{"--data", "tbl=" + items, "--key", "id", "--allow-scan"}, args...), "")
}

// TestPartitionedLayout: SELECT * to a two-level layout equals the rows
// printed as ndjson, value for value, with Hive's escaped directory names.
func TestPartitionedLayout(t *testing.T) {
	items := writeItemsFile(t, partItems(400))
	const sql = "SELECT * FROM tbl"
	r := partRun(t, items, "--format", "ndjson", "-e", sql)
	if r.code != 0 {
		t.Fatalf("ndjson: %s", r.err)
	}
	want := ndjsonRows(t, r.out)
	dir := filepath.Join(t.TempDir(), "out")
	r = partRun(t, items, "--format", "parquet", "--output", dir, "--partition-by", "cat,grp", "-e", sql)
	if r.code != 0 || r.out != "" {
		t.Fatalf("exit %d, stdout %q: %s", r.code, r.out, r.err)
	}
	cols := []string{"cat", "grp"}
	files := readLayout(t, dir, cols)
	checkLayout(t, files, want, "id", cols)
	// The directory names, as Hive writes them.
	dirs := map[string]bool{}
	for _, f := range files {
		dirs[strings.SplitN(f.rel, "/", 2)[0]] = true
	}
	for _, d := range []string{"cat=plain", "cat=a%2Fb", "cat=x%3Dy", "cat=50%25", "cat=__HIVE_DEFAULT_PARTITION__", "cat=日本語",
		"cat=q%3F%23", "cat=ctl%01%1F%7F", "cat=sp ace", "cat=%7B%5B%5D}%5E%27%22%2A%3A%5C"} {
		if !dirs[d] {
			t.Errorf("no directory %s; have %v", d, dirs)
		}
	}
	if len(dirs) != len(oddCategories) { // "" joins NULL and missing in the default partition
		t.Errorf("%d category directories, want %d: %v", len(dirs), len(oddCategories), dirs)
	}
	st := readState(t, dir)
	if !st.Complete || st.Rows != int64(len(want)) || len(st.Files) != len(files) {
		t.Errorf("state: complete %v, %d rows, %d files; want complete, %d rows, %d files", st.Complete, st.Rows, len(st.Files), len(want), len(files))
	}
	// A second run of the same command finds it complete and reads nothing.
	r = partRun(t, items, "--format", "parquet", "--output", dir, "--partition-by", "cat,grp", "-e", sql)
	if r.code != 0 || !strings.Contains(r.err, "holds the complete result of this command already") {
		t.Errorf("rerun: exit %d: %s", r.code, r.err)
	}
}

func readState(t *testing.T, dir string) partition.State {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, partition.StateFile))
	if err != nil {
		t.Fatal(err)
	}
	var st partition.State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestPartitionedSelectList: named columns and aliases; the partition
// columns are the result's, not the table's, and the files hold the rest.
func TestPartitionedSelectList(t *testing.T) {
	items := writeItemsFile(t, partItems(120))
	const sql = "SELECT id, n, grp AS g, doc.k AS k, tags FROM tbl WHERE grp <> 1"
	r := partRun(t, items, "--format", "ndjson", "-e", sql)
	if r.code != 0 {
		t.Fatalf("ndjson: %s", r.err)
	}
	want := ndjsonRows(t, r.out)
	dir := filepath.Join(t.TempDir(), "out")
	r = partRun(t, items, "--format", "parquet", "-o", dir, "--partition-by", "k, g", "-e", sql)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	cols := []string{"k", "g"}
	files := readLayout(t, dir, cols)
	checkLayout(t, files, want, "id", cols)
	if len(files) != 8 { // k in v0..v3, g in 0, 2
		t.Errorf("%d files, want 8", len(files))
	}
	for _, f := range files {
		if got := f.tbl.Schema().Field(0).Name + "," + f.tbl.Schema().Field(1).Name + "," + f.tbl.Schema().Field(2).Name; got != "id,n,tags" || f.tbl.NumCols() != 3 {
			t.Errorf("%s: columns %v, want id, n, tags", f.rel, f.tbl.Schema())
		}
	}
}

// TestPartitionedErrors: what --partition-by cannot do is refused, saying
// why, before anything is written.
func TestPartitionedErrors(t *testing.T) {
	items := writeItemsFile(t, partItems(30))
	tmp := t.TempDir()
	nonEmpty := filepath.Join(tmp, "nonempty")
	os.MkdirAll(nonEmpty, 0o755)
	os.WriteFile(filepath.Join(nonEmpty, "keep.txt"), []byte("mine"), 0o644)
	aFile := filepath.Join(tmp, "a.parquet")
	os.WriteFile(aFile, nil, 0o644)
	cases := []struct {
		name string
		args []string
		code int
		diag diag.Code
		msg  string
	}{
		{"not parquet", []string{"--format", "csv", "-o", filepath.Join(tmp, "x"), "--partition-by", "cat", "-e", "SELECT * FROM tbl"}, exitUsage, "", "needs --format parquet"},
		{"no output", []string{"--format", "parquet", "--partition-by", "cat", "-e", "SELECT * FROM tbl"}, exitUsage, "", "give it with --output DIR"},
		{"empty name", []string{"--format", "parquet", "-o", filepath.Join(tmp, "x"), "--partition-by", "cat,,grp", "-e", "SELECT * FROM tbl"}, exitUsage, "", "a column name is empty"},
		{"twice", []string{"--format", "parquet", "-o", filepath.Join(tmp, "x"), "--partition-by", "cat,cat", "-e", "SELECT * FROM tbl"}, exitUsage, "", "named twice"},
		{"not in result", []string{"--format", "parquet", "-o", filepath.Join(tmp, "y"), "--partition-by", "cat", "-e", "SELECT id, grp FROM tbl"}, exitError, diag.CodeUnknownColumn, "the result has no column cat (its columns: id, grp)"},
		{"every column", []string{"--format", "parquet", "-o", filepath.Join(tmp, "z"), "--partition-by", "grp", "-e", "SELECT grp FROM tbl"}, exitError, diag.CodeInvalid, "they would hold none"},
		{"document", []string{"--format", "parquet", "-o", filepath.Join(tmp, "d"), "--partition-by", "doc", "-e", "SELECT id, doc FROM tbl"}, exitError, diag.CodeType, "a row's doc is a M"},
		{"set", []string{"--format", "parquet", "-o", filepath.Join(tmp, "s"), "--partition-by", "tags", "-e", "SELECT * FROM tbl"}, exitError, diag.CodeType, "a row's tags is a SS"},
		{"no such attribute", []string{"--format", "parquet", "-o", filepath.Join(tmp, "m"), "--partition-by", "nosuch", "-e", "SELECT * FROM tbl"}, exitError, diag.CodeUnknownColumn, "no row of the result has the attribute nosuch"},
		{"not empty", []string{"--format", "parquet", "-o", nonEmpty, "--partition-by", "cat", "-e", "SELECT * FROM tbl"}, exitUsage, diag.CodeInvalid, "is not empty and holds no _ddbsql_export.json"},
		{"a file", []string{"--format", "parquet", "-o", aFile, "--partition-by", "cat", "-e", "SELECT * FROM tbl"}, exitUsage, diag.CodeInvalid, "is a file"},
		{"two results", []string{"--format", "parquet", "-o", filepath.Join(tmp, "two"), "--partition-by", "cat", "-e", "SELECT * FROM tbl; SELECT * FROM tbl"}, exitError, diag.CodeUnsupported, "holds one partitioned result"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := partRun(t, items, c.args...)
			if r.code != c.code || !strings.Contains(r.err, c.msg) || (c.diag != "" && r.errorCode() != c.diag) {
				t.Errorf("exit %d, code %q, stderr:\n%s\nwant exit %d, code %q, %q", r.code, r.errorCode(), r.err, c.code, c.diag, c.msg)
			}
			if strings.Contains(r.err, "panic") {
				t.Errorf("panic: %s", r.err)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(nonEmpty, "keep.txt")); string(b) != "mine" {
		t.Error("the non-empty directory was changed")
	}
	// A refused column leaves no data file (only the state of a run that
	// wrote nothing).
	for _, d := range []string{"y", "z", "d"} {
		var data []string
		filepath.WalkDir(filepath.Join(tmp, d), func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && filepath.Base(p) != partition.StateFile {
				data = append(data, p)
			}
			return nil
		})
		if len(data) > 0 {
			t.Errorf("%s: files left: %v", d, data)
		}
	}
}

// TestPartitionedOtherCommand: a directory holding another command's
// export is not continued with this one.
func TestPartitionedOtherCommand(t *testing.T) {
	items := writeItemsFile(t, partItems(30))
	dir := filepath.Join(t.TempDir(), "out")
	if r := partRun(t, items, "--format", "parquet", "-o", dir, "--partition-by", "grp", "-e", "SELECT * FROM tbl"); r.code != 0 {
		t.Fatal(r.err)
	}
	before := readState(t, dir)
	if got := strings.Join(before.Command.Flags, " "); got != "--format parquet --partition-by grp" {
		t.Errorf("the state's flags: %s", got)
	}
	for _, args := range [][]string{
		{"--partition-by", "grp", "-e", "SELECT id, grp, n FROM tbl"},
		{"--partition-by", "cat", "-e", "SELECT * FROM tbl"},
		{"--partition-by", "grp", "--segments", "2", "-e", "SELECT * FROM tbl"},
	} {
		r := partRun(t, items, append([]string{"--format", "parquet", "-o", dir}, args...)...)
		if r.code != exitUsage || !strings.Contains(r.err, "holds a partitioned export of another command") || r.errorCode() != diag.CodeInvalid {
			t.Errorf("%v: exit %d: %s", args, r.code, r.err)
		}
	}
	other := writeItemsFile(t, partItems(31))
	r := invoke([]string{"--data", "tbl=" + other, "--key", "id", "--allow-scan", "--format", "parquet", "-o", dir, "--partition-by", "grp", "-e", "SELECT * FROM tbl"}, "")
	if r.code != exitUsage || !strings.Contains(r.err, "the source was --data tbl=") {
		t.Errorf("other source: exit %d: %s", r.code, r.err)
	}
	if after := readState(t, dir); after.RowsSHA256 != before.RowsSHA256 || len(after.Files) != len(before.Files) {
		t.Error("the refused runs changed the export")
	}
}

// stopAfter is an exportCheckpointed hook that fails the run once units
// units are recorded, as a stop there would.
func stopAfter(t *testing.T, units int) {
	t.Helper()
	exportUnitRows = 50
	exportCheckpointed = func(n int) error {
		if n == units {
			return errors.New("stopped by the test")
		}
		return nil
	}
	t.Cleanup(func() { exportUnitRows, exportCheckpointed = 0, nil })
}

// layoutBytes is every file of a layout (the state file aside) by its
// relative path.
func layoutBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		if !e.IsDir() && rel != partition.StateFile {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[filepath.ToSlash(rel)] = b
		}
		return nil
	})
	return out
}

// sameLayout compares two layouts file by file, byte for byte.
func sameLayout(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d files, want %d", len(got), len(want))
	}
	for p, w := range want {
		g, ok := got[p]
		if !ok {
			t.Errorf("no file %s", p)
		} else if !bytes.Equal(g, w) {
			t.Errorf("%s differs", p)
		}
	}
}

// TestPartitionedResume: a run stopped after two units, with the remains
// a killed run leaves (a temporary file, a finished file the state does
// not list), continues when run again, and ends with the same files, byte
// for byte, as an uninterrupted run.
func TestPartitionedResume(t *testing.T) {
	items := writeItemsFile(t, partItems(333))
	args := []string{"--format", "parquet", "--partition-by", "cat", "-e", "SELECT * FROM tbl"}
	exportUnitRows = 50
	t.Cleanup(func() { exportUnitRows = 0 })
	whole := filepath.Join(t.TempDir(), "whole")
	if r := partRun(t, items, append(args, "-o", whole)...); r.code != 0 {
		t.Fatal(r.err)
	}
	want := layoutBytes(t, whole)
	if st := readState(t, whole); st.Units != 7 { // 333 rows in units of 50
		t.Fatalf("%d units, want 7", st.Units)
	}

	dir := filepath.Join(t.TempDir(), "resumed")
	stopAfter(t, 2)
	r := partRun(t, items, append(args, "-o", dir)...)
	if r.code != exitError || !strings.Contains(r.err, "stopped by the test") {
		t.Fatalf("stopped run: exit %d: %s", r.code, r.err)
	}
	st := readState(t, dir)
	if st.Complete || st.Units != 2 || st.Rows != 100 {
		t.Fatalf("after the stop: complete %v, %d units, %d rows", st.Complete, st.Units, st.Rows)
	}
	kept := layoutBytes(t, dir)
	if len(kept) != len(st.Files) {
		t.Fatalf("after the stop: %d files, the state lists %d", len(kept), len(st.Files))
	}
	// What a kill in the middle of the third unit leaves behind.
	junk := []string{"cat=plain/.part-00002.parquet.tmp", "cat=plain/part-00002.parquet", "cat=new%2Fdir/part-00000.parquet"}
	for _, j := range junk {
		p := filepath.Join(dir, filepath.FromSlash(j))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("half"), 0o644)
	}
	exportCheckpointed = nil
	r = partRun(t, items, append(args, "-o", dir)...)
	if r.code != 0 {
		t.Fatalf("resumed run: exit %d: %s", r.code, r.err)
	}
	if !strings.Contains(r.err, "continuing the export") || !strings.Contains(r.err, "100 rows") {
		t.Errorf("resumed run says: %s", r.err)
	}
	sameLayout(t, layoutBytes(t, dir), want)
	if _, err := os.Stat(filepath.Join(dir, "cat=new%2Fdir")); err == nil {
		t.Error("the directory of a removed file is left")
	}
	for p := range kept {
		if _, ok := want[p]; !ok {
			t.Errorf("%s, kept from the stopped run, is not a file of the whole run", p)
		}
	}
	if st := readState(t, dir); !st.Complete || st.Units != 7 || st.Rows != 333 {
		t.Errorf("resumed state: complete %v, %d units, %d rows", st.Complete, st.Units, st.Rows)
	}
}

// TestPartitionedResumeChangedData: rows that differ from those the
// stopped run wrote are not mixed with them.
func TestPartitionedResumeChangedData(t *testing.T) {
	items := writeItemsFile(t, partItems(200))
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"--format", "parquet", "-o", dir, "--partition-by", "grp", "-e", "SELECT * FROM tbl"}
	stopAfter(t, 2)
	if r := partRun(t, items, args...); r.code != exitError {
		t.Fatalf("stopped run: exit %d: %s", r.code, r.err)
	}
	exportCheckpointed = nil
	changed := partItems(200)
	changed[10]["price"] = &types.AttributeValueMemberN{Value: "99"}
	os.WriteFile(items, []byte(readItemsText(t, writeItemsFile(t, changed))), 0o644)
	before := layoutBytes(t, dir)
	r := partRun(t, items, args...)
	if r.code != exitError || !strings.Contains(r.err, "differ from those an earlier run wrote") || r.errorCode() != diag.CodeInvalid {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	sameLayout(t, layoutBytes(t, dir), before)
	fewer := writeItemsFile(t, partItems(60))
	os.WriteFile(items, []byte(readItemsText(t, fewer)), 0o644)
	r = partRun(t, items, args...)
	if r.code != exitError || !strings.Contains(r.err, "fewer than the 100 an earlier run wrote") {
		t.Fatalf("fewer rows: exit %d: %s", r.code, r.err)
	}
}

func readItemsText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPartitionedLiveTable: the same export over a live table (a Scan on
// dynalite): the layout equals the rows printed as ndjson, and a run
// stopped after two units and run again equals an uninterrupted one, byte
// for byte.
func TestPartitionedLiveTable(t *testing.T) {
	endpoint := dynalitetest.Endpoint(t)
	table := dynalitetest.Prefix(t) + "parts"
	createItemsTable(t, dynalitetest.Client(t), table, partItems(180))
	sql := "SELECT * FROM `" + table + "`"
	live := func(args ...string) result {
		return invoke(append([]string{"--endpoint-url", endpoint, "--allow-scan"}, args...), "")
	}
	r := live("--format", "ndjson", "-e", sql)
	if r.code != 0 {
		t.Fatalf("ndjson: %s", r.err)
	}
	want := ndjsonRows(t, r.out)
	if len(want) != 180 {
		t.Fatalf("%d rows", len(want))
	}
	exportUnitRows = 50
	t.Cleanup(func() { exportUnitRows = 0 })
	whole := filepath.Join(t.TempDir(), "whole")
	if r := live("--format", "parquet", "-o", whole, "--partition-by", "cat", "-e", sql); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	checkLayout(t, readLayout(t, whole, []string{"cat"}), want, "id", []string{"cat"})

	dir := filepath.Join(t.TempDir(), "resumed")
	stopAfter(t, 2)
	if r := live("--format", "parquet", "-o", dir, "--partition-by", "cat", "-e", sql); r.code != exitError {
		t.Fatalf("stopped run: exit %d: %s", r.code, r.err)
	}
	exportCheckpointed = nil
	if r := live("--format", "parquet", "-o", dir, "--partition-by", "cat", "-e", sql); r.code != 0 || !strings.Contains(r.err, "100 rows in") {
		t.Fatalf("resumed run: exit %d: %s", r.code, r.err)
	}
	sameLayout(t, layoutBytes(t, dir), layoutBytes(t, whole))
	// The source is part of the command: the same statement over --data
	// is another export.
	items := writeItemsFile(t, partItems(10))
	r = invoke([]string{"--data", table + "=" + items, "--key", "id", "--allow-scan", "--format", "parquet", "-o", dir, "--partition-by", "cat", "-e", sql}, "")
	if r.code != exitUsage || !strings.Contains(r.err, "the source was --endpoint-url") {
		t.Errorf("other source: exit %d: %s", r.code, r.err)
	}
}

// TestPartitionedExport: a DynamoDB export (exportgen's orders, several
// data files) to a layout by status and currency equals the rows printed
// as ndjson, with the export's documents, sets and numbers.
func TestPartitionedExport(t *testing.T) {
	exp := t.TempDir()
	if _, err := exportgen.Write(exp, exportgen.Options{Items: 3000, Files: 3, Seed: 16}); err != nil {
		t.Fatal(err)
	}
	base := []string{"--data", "orders=" + exp, "--key", "PK,SK", "--allow-scan"}
	const sql = "SELECT * FROM orders"
	r := invoke(append(base, "--format", "ndjson", "-e", sql), "")
	if r.code != 0 {
		t.Fatalf("ndjson: %s", r.err)
	}
	want := ndjsonRows(t, r.out)
	dir := filepath.Join(t.TempDir(), "orders")
	if r := invoke(append(base, "--format", "parquet", "-o", dir, "--partition-by", "status,currency", "-e", sql), ""); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	cols := []string{"status", "currency"}
	files := readLayout(t, dir, cols)
	checkLayout(t, files, want, "SK", cols)
	if len(files) != 15 { // 5 statuses × 3 currencies
		t.Errorf("%d files, want 15", len(files))
	}
}
